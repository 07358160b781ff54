//! The values of one stage or environment, given for a run: the
//! Serverless Framework's `--stage` and `--param`, and CloudFormation/SAM
//! Parameter values (`--parameter-overrides`, or a `samconfig` file's).
//!
//! A value given here has no place in the linted files: it remembers
//! which input gave it ([`Override::from`], the words a finding quotes),
//! and no fix edits it.

use std::sync::Arc;

/// What the command line (or a samconfig file) says about the stage being
/// linted; [`Default`] is no stage at all (every default as written).
#[derive(Clone, Debug, Default)]
pub struct Stage {
    /// `--stage`: `${sls:stage}`, `${opt:stage}` and `provider.stage`.
    pub name: Option<String>,
    /// Where the stage was named when not with `--stage` (a config
    /// file's `stage:`), in a finding's words.
    pub named_in: Option<Arc<str>>,
    /// `--param KEY=VALUE`: `${param:KEY}`, the last of a key winning.
    pub params: Vec<Given>,
    /// CloudFormation/SAM Parameter values, the last of a key winning
    /// (a samconfig file's first, then `--parameter-overrides`).
    pub overrides: Vec<Given>,
}

/// One `KEY=VALUE` of the command line or of a samconfig file.
#[derive(Clone, Debug, PartialEq)]
pub struct Given {
    pub key: String,
    pub value: String,
    /// Where it was given, as a finding says it: `--parameter-overrides
    /// Timeout=900`, `samconfig.toml (prod) Timeout=900`.
    pub from: Arc<str>,
}

impl Given {
    pub fn new(key: &str, value: &str, from: &str) -> Self {
        Given { key: key.to_string(), value: value.to_string(), from: Arc::from(format!("{from} {key}={value}")) }
    }
}

impl Stage {
    /// The stage named on the command line, and the words a finding says
    /// it with.
    pub(crate) fn stage(&self) -> Option<(&str, Arc<str>)> {
        let name = self.name.as_deref()?;
        Some((name, self.named_in.clone().unwrap_or_else(|| Arc::from(format!("--stage {name}")))))
    }

    /// `${param:KEY}` as given.
    pub(crate) fn param(&self, key: &str) -> Option<&Given> {
        self.params.iter().rev().find(|g| g.key == key)
    }

    /// The value given to a CloudFormation Parameter.
    pub(crate) fn parameter(&self, key: &str) -> Option<&Given> {
        self.overrides.iter().rev().find(|g| g.key == key)
    }
}

/// `KEY=VALUE` as one command-line argument, `from` naming its flag; an
/// error sentence when it is not one.
pub fn key_value(arg: &str, from: &str) -> Result<Given, String> {
    match arg.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok(Given::new(k.trim(), v, from)),
        _ => Err(format!("{from} {arg}: expected KEY=VALUE")),
    }
}

/// The `parameter_overrides` of `sam deploy`, written as one string:
/// `Key=Value Key2="a value"`, split as a shell splits words (quotes
/// group, a backslash escapes), each word `Key=Value` or
/// `ParameterKey=Key,ParameterValue=Value`.
pub fn sam_overrides(text: &str, from: &str) -> Result<Vec<Given>, String> {
    words(text)
        .ok_or_else(|| format!("{from}: an unclosed quote in `{text}`"))?
        .iter()
        .map(|word| sam_override(word, from))
        .collect()
}

/// One `Key=Value`, or the older `ParameterKey=Key,ParameterValue=Value`.
pub fn sam_override(word: &str, from: &str) -> Result<Given, String> {
    if let Some(rest) = word.strip_prefix("ParameterKey=")
        && let Some((key, value)) = rest.split_once(",ParameterValue=")
        && !key.is_empty()
    {
        return Ok(Given::new(key, value, from));
    }
    key_value(word, from)
}

/// Shell-like words: whitespace separates, `'...'` and `"..."` group,
/// `\` escapes the next character outside single quotes. `None` when a
/// quote is not closed.
fn words(text: &str) -> Option<Vec<String>> {
    let (mut out, mut word, mut started) = (Vec::new(), String::new(), false);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '\'' => {
                started = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => word.push(chars.next()?),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                started = true;
                word.push(chars.next()?);
            }
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        out.push(word);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(text: &str) -> Vec<(String, String)> {
        sam_overrides(text, "x").unwrap().into_iter().map(|g| (g.key, g.value)).collect()
    }

    #[test]
    fn sam_quoting_and_both_spellings() {
        let p = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert_eq!(pairs("Timeout=900 Env=prod"), [p("Timeout", "900"), p("Env", "prod")]);
        assert_eq!(
            pairs("Name=\"a b\" Other='c \"d\"' E=x\\ y"),
            [p("Name", "a b"), p("Other", "c \"d\""), p("E", "x y")]
        );
        assert_eq!(pairs("ParameterKey=Timeout,ParameterValue=9"), [p("Timeout", "9")]);
        assert_eq!(pairs("Url=a=b"), [p("Url", "a=b")]);
        assert_eq!(pairs("  "), []);
    }

    #[test]
    fn malformed_pairs_are_sentences() {
        assert_eq!(
            sam_overrides("Timeout", "--parameter-overrides").unwrap_err(),
            "--parameter-overrides Timeout: expected KEY=VALUE"
        );
        assert!(sam_overrides("A='open", "f").unwrap_err().contains("unclosed quote"));
        assert!(key_value("=3", "--param").is_err());
        assert_eq!(key_value("a=3", "--param").unwrap().from.as_ref(), "--param a=3");
    }
}
