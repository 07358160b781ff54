//! The documentation pages as tests/it/docs.rs reads them: their fenced
//! blocks, their prose, links, headings and inline code, and the shell
//! command lines they show.

use std::path::{Path, PathBuf};

/// A page: its path from the repository root, and its text.
pub struct Page {
    pub path: PathBuf,
    pub text: String,
}

impl Page {
    /// `README.md:12`, for messages.
    pub fn at(&self, line: usize) -> String {
        format!("{}:{line}", self.path.display())
    }

    /// The lines outside fenced blocks, numbered from 1.
    pub fn prose(&self) -> Vec<(usize, &str)> {
        let mut fenced = false;
        let mut out = Vec::new();
        for (n, line) in self.text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            } else if !fenced {
                out.push((n + 1, line));
            }
        }
        out
    }

    /// The anchors GitHub gives the page's headings.
    pub fn anchors(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (_, line) in self.prose() {
            let Some(heading) = line.strip_prefix('#') else { continue };
            let base = slug(heading.trim_start_matches('#'));
            let mut anchor = base.clone();
            let mut n = 0;
            while out.contains(&anchor) {
                n += 1;
                anchor = format!("{base}-{n}");
            }
            out.push(anchor);
        }
        out
    }

    /// Every relative link target of the prose (`docs/x.md#y`), with its line.
    pub fn links(&self) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        for (n, line) in self.prose() {
            let mut rest = line;
            while let Some(at) = rest.find("](") {
                rest = &rest[at + 2..];
                let target = &rest[..rest.find(')').unwrap_or(rest.len())];
                if !target.contains("://") && !target.starts_with("mailto:") {
                    out.push((n, target.to_string()));
                }
            }
        }
        out
    }

    /// The words of the prose's inline code (`` `tests/run.sh` ``), with their line.
    pub fn inline_code(&self) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        for (n, line) in self.prose() {
            for (i, piece) in line.split('`').enumerate() {
                if i % 2 == 1 {
                    out.extend(piece.split_whitespace().map(|w| (n, w.to_string())));
                }
            }
        }
        out
    }

    /// Every fenced block.
    pub fn blocks(&self) -> Vec<Block> {
        let mut out = Vec::new();
        let mut lines = self.text.lines().enumerate();
        while let Some((n, line)) = lines.next() {
            let Some(lang) = line.trim_start().strip_prefix("```") else { continue };
            let body =
                lines.by_ref().take_while(|(_, l)| !l.trim_start().starts_with("```")).map(|(_, l)| l.to_string());
            out.push(Block { lang: lang.trim().to_string(), line: n + 1, body: body.collect() });
        }
        out
    }
}

/// A fenced block: its language, the line of its opening fence, its lines.
pub struct Block {
    pub lang: String,
    pub line: usize,
    pub body: Vec<String>,
}

impl Block {
    /// Whether it holds shell commands.
    pub fn is_shell(&self) -> bool {
        ["sh", "bash", "shell", "console", ""].contains(&self.lang.as_str())
    }

    /// Each command line with its line number and, in a `console` block, the
    /// output shown after it (up to the next `$ ` line).
    pub fn commands(&self) -> Vec<(usize, String, Vec<String>)> {
        let mut out: Vec<(usize, String, Vec<String>)> = Vec::new();
        for (i, line) in self.body.iter().enumerate() {
            let n = self.line + 1 + i;
            if self.lang == "console" {
                match line.strip_prefix("$ ") {
                    Some(command) => out.push((n, command.to_string(), Vec::new())),
                    None => {
                        if let Some(last) = out.last_mut() {
                            last.2.push(line.clone());
                        }
                    }
                }
            } else {
                out.push((n, line.clone(), Vec::new()));
            }
        }
        out
    }
}

/// README.md, CONTRIBUTING.md and every page under docs/ and rules/.
pub fn all(root: &Path) -> Vec<Page> {
    let mut paths = vec![PathBuf::from("README.md"), PathBuf::from("CONTRIBUTING.md")];
    let mut stack = vec![PathBuf::from("docs"), PathBuf::from("rules")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(root.join(&dir)).unwrap() {
            let name = dir.join(entry.unwrap().file_name());
            if root.join(&name).is_dir() {
                stack.push(name);
            } else if name.extension().is_some_and(|e| e == "md") {
                paths.push(name);
            }
        }
    }
    paths.sort();
    paths.into_iter().map(|path| Page { text: std::fs::read_to_string(root.join(&path)).unwrap(), path }).collect()
}

/// GitHub's anchor of a heading: lower case, letters, digits, `-` and `_`
/// kept, spaces as `-`, the rest dropped.
pub fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// A command line's words as a shell splits them, up to a comment, a pipe,
/// a redirection or a second command; `None` when it expands anything
/// (`$VAR`, `$(...)`, backquotes), which a test cannot run as written.
pub fn words(line: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in line.chars() {
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('"'), '$' | '`') => return None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (None, '$' | '`') => return None,
            (None, '#') if !started => break,
            (None, '|' | ';' | '&' | '<' | '>') => {
                if c == '>' && word == "2" {
                    word.clear();
                    started = false;
                }
                break;
            }
            (None, c) if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    Some(out)
}

/// Whether `actual` holds the lines `shown` shows, a `...` line standing
/// for any number of lines; trailing spaces do not count.
pub fn shows(shown: &[String], actual: &str) -> bool {
    let actual: Vec<&str> = actual.trim_end().lines().map(str::trim_end).collect();
    let shown: Vec<&str> = shown.iter().map(|l| l.trim_end()).collect();
    let pieces: Vec<&[&str]> = shown.split(|l| *l == "...").collect();
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return actual == first;
    }
    if !actual.starts_with(first) || !actual[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for piece in &pieces[1..pieces.len() - 1] {
        match (0..=rest.len().saturating_sub(piece.len())).find(|&i| rest[i..].starts_with(piece)) {
            Some(i) => rest = &rest[i + piece.len()..],
            None => return false,
        }
    }
    true
}

#[test]
fn shows_matches_lines_with_gaps() {
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(shows(&lines("a\nb"), "a\nb\n"));
    assert!(!shows(&lines("a"), "a\nb"));
    assert!(shows(&lines("a\n...\nd"), "a\nb\nc\nd"));
    assert!(shows(&lines("...\nc\n..."), "a\nb\nc\nd"));
    assert!(!shows(&lines("a\n...\nc\n...\nb"), "a\nb\nc"));
    assert!(!shows(&lines("a\n...\na"), "a"));
    assert_eq!(words("sqsguard lint 'a b' x # note").unwrap(), ["sqsguard", "lint", "a b", "x"]);
    assert_eq!(words("sqsguard schema config > s.json").unwrap(), ["sqsguard", "schema", "config"]);
    assert_eq!(words("sqsguard lint x 2>/dev/null").unwrap(), ["sqsguard", "lint", "x"]);
    assert!(words("sqsguard lint $(git diff --name-only)").is_none());
    assert_eq!(slug(" `sqsguard lint`: paths, output (and) exit_status"), "sqsguard-lint-paths-output-and-exit_status");
}
