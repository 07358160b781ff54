//! A CDK app as sqsguard finds it from one of its synthesized templates:
//! the folder with `cdk.json` above the cloud assembly, the language and
//! entry file its `app` command runs, each construct's class from the
//! assembly's `tree.json`, and the creation stacks the app recorded in the
//! assembly's metadata.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

use crate::syntax::Syntax;
use serde_json::Value;
use sqsguard_model::code::Language;

/// The file that makes a folder a CDK app.
pub(crate) const CDK_JSON: &str = "cdk.json";

/// What the app's assembly and `cdk.json` say.
pub(crate) struct App {
    /// The app's folder, as the template's path was given.
    pub(crate) dir: PathBuf,
    /// Its cloud assembly (`cdk.out`, or `cdk.json`'s `output`).
    pub(crate) assembly: PathBuf,
    /// The language of the entry file `cdk.json`'s `app` runs, or why it is
    /// not one sqsguard follows.
    pub(crate) language: Result<Syntax, String>,
    /// When the assembly was written (its `manifest.json`).
    pub(crate) synthesized: Option<SystemTime>,
}

impl App {
    /// The app a synthesized template belongs to: the nearest folder above
    /// it with a `cdk.json` whose output folder holds it.
    pub(crate) fn dir_of(template: &Path) -> Option<(PathBuf, PathBuf)> {
        let mut dir = template.parent()?;
        loop {
            dir = dir.parent()?;
            let config = dir.join(CDK_JSON);
            if config.is_file() {
                let output = read_json(&config).ok().and_then(|v| v.get("output")?.as_str().map(String::from));
                let assembly = dir.join(output.unwrap_or_else(|| "cdk.out".into()));
                return within(template, &assembly).then(|| (dir.to_path_buf(), assembly));
            }
        }
    }

    pub(crate) fn read(dir: PathBuf, assembly: PathBuf) -> App {
        let language = read_json(&dir.join(CDK_JSON)).and_then(|v| entry_language(&dir, &v));
        let synthesized = std::fs::metadata(assembly.join("manifest.json")).and_then(|m| m.modified()).ok();
        App { dir, assembly, language, synthesized }
    }
}

/// Construct path (`Stack/Orders/Jobs`, no leading `/`) to its class's
/// fully qualified name (`aws-cdk-lib.aws_sqs.Queue`), from the assembly's
/// `tree.json`; or why it cannot be read.
pub(crate) fn classes(assembly: &Path) -> Result<HashMap<String, String>, String> {
    let tree = read_typed::<TreeFile>(&assembly.join("tree.json"))?;
    let mut classes = HashMap::new();
    collect_classes(tree.tree, &mut classes);
    Ok(classes)
}

/// The first frame of the app's own code in each of a template's
/// resources' creation stacks, by construct path: from the stack's
/// metadata file beside it (`AppStack.metadata.json` for
/// `AppStack.template.json`), else as its assembly's manifest says (older
/// CDK versions write them in the manifest itself). The metadata is read
/// in place: only what a frame keeps is copied.
pub(crate) fn traces_for(template: &Path) -> HashMap<String, Frame> {
    let mut out = HashMap::new();
    let name = template.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let beside =
        name.strip_suffix(".template.json").map(|stem| template.with_file_name(format!("{stem}.metadata.json")));
    if let Some(Ok(text)) = beside.filter(|p| p.is_file()).map(|p| read_text(&p))
        && let Ok(metadata) = parse::<Metadata<'_>>(&text, template)
    {
        traces_of(metadata, &mut out);
        return out;
    }
    let Some(folder) = template.parent() else { return out };
    let Ok(text) = read_text(&folder.join("manifest.json")) else { return out };
    let Ok(manifest) = parse::<Manifest<'_>>(&text, template) else { return out };
    for artifact in manifest.artifacts.into_values() {
        if artifact.properties.as_ref().and_then(|p| p.template_file.as_deref()) != Some(name) {
            continue;
        }
        if let Some(inline) = artifact.metadata {
            traces_of(inline, &mut out);
        }
        if let Some(file) = artifact.metadata_file
            && let Ok(text) = read_text(&folder.join(&*file.0))
            && let Ok(metadata) = parse::<Metadata<'_>>(&text, template)
        {
            traces_of(metadata, &mut out);
        }
    }
    out
}

/// A folder to list or resolve: the current one for the empty path a
/// relative template's app folder can be (`cdk.out/S.template.json`).
pub(crate) fn listable(folder: &Path) -> &Path {
    if folder.as_os_str().is_empty() { Path::new(".") } else { folder }
}

/// Whether `path` is inside `folder` (compared without `.` components).
pub(crate) fn within(path: &Path, folder: &Path) -> bool {
    fn plain(p: &Path) -> Vec<Component<'_>> {
        p.components().filter(|c| *c != Component::CurDir).collect()
    }
    let (path, folder) = (plain(path), plain(folder));
    path.len() > folder.len() && path.starts_with(&folder)
}

pub(crate) fn read_json(path: &Path) -> Result<Value, String> {
    read_typed(path)
}

fn read_typed<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    parse(&read_text(path)?, path)
}

fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{} cannot be read: {e}", path.display()))
}

fn parse<'t, T: serde::Deserialize<'t>>(text: &'t str, path: &Path) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| format!("{} is not what `cdk synth` writes: {e}", path.display()))
}

/// The language of the file `cdk.json`'s `app` command runs: the first
/// word of the command that names a file of the app with a known
/// extension (`npx ts-node --prefer-ts-exts bin/app.ts`, `python3 app.py`,
/// `node bin/app.js`).
fn entry_language(dir: &Path, config: &Value) -> Result<Syntax, String> {
    let Some(command) = config.get("app").and_then(Value::as_str) else {
        return Err("cdk.json names no `app` command".into());
    };
    let words = || command.split(|c: char| c.is_whitespace() || c == '"' || c == '\'');
    let entry = words()
        .filter_map(|word| Some((word, Language::of_path(Path::new(word))?)))
        .find(|(word, _)| dir.join(word).is_file());
    // A Java app runs Maven or Gradle, which name no file.
    let java = || {
        words().any(|w| matches!(w, "mvn" | "gradle" | "./gradlew" | "gradlew"))
            && ["pom.xml", "build.gradle", "build.gradle.kts"].iter().any(|f| dir.join(f).is_file())
    };
    match entry {
        Some((_, language)) => Ok(Syntax::Code(language)),
        None if java() => Ok(Syntax::Code(Language::Java)),
        None if words().any(|w| w == "dotnet") => Ok(Syntax::CSharp),
        None => Err(format!(
            "cdk.json's app `{command}` names no TypeScript, JavaScript, Python or Go file of the app, nor Maven or Gradle"
        )),
    }
}

/// `tree.json`, as far as it is read: each node's path and class. The
/// nodes' attributes (the L1 properties) are skipped unread.
#[derive(serde::Deserialize)]
struct TreeFile {
    tree: TreeNode,
}

#[derive(serde::Deserialize)]
struct TreeNode {
    path: Option<String>,
    #[serde(rename = "constructInfo")]
    info: Option<ConstructInfo>,
    #[serde(default)]
    children: HashMap<String, TreeNode>,
}

#[derive(serde::Deserialize)]
struct ConstructInfo {
    fqn: Option<String>,
}

/// Each node's class, by path. (serde_json bounds the nesting it reads.)
fn collect_classes(root: TreeNode, out: &mut HashMap<String, String>) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let (Some(path), Some(fqn)) = (node.path, node.info.and_then(|i| i.fqn)) {
            out.insert(path, fqn);
        }
        stack.extend(node.children.into_values());
    }
}

/// What `manifest.json` says of its artifacts, as far as it is read.
#[derive(serde::Deserialize)]
struct Manifest<'t> {
    #[serde(default, borrow)]
    artifacts: HashMap<Text<'t>, Artifact<'t>>,
}

#[derive(serde::Deserialize)]
struct Artifact<'t> {
    properties: Option<Properties>,
    #[serde(borrow)]
    metadata: Option<Metadata<'t>>,
    #[serde(rename = "additionalMetadataFile", borrow)]
    metadata_file: Option<Text<'t>>,
}

#[derive(serde::Deserialize)]
struct Properties {
    #[serde(rename = "templateFile")]
    template_file: Option<String>,
}

/// A string of the file, borrowed unless it has escapes.
#[derive(serde::Deserialize, PartialEq, Eq, Hash)]
struct Text<'t>(#[serde(borrow)] Cow<'t, str>);

/// A stack's metadata: each construct path's entries.
type Metadata<'t> = HashMap<Text<'t>, Vec<Entry<'t>>>;

#[derive(serde::Deserialize)]
struct Entry<'t> {
    #[serde(rename = "type", borrow)]
    kind: Option<Text<'t>>,
    /// Read only for a creation stack (its frames); left as text for the
    /// others.
    #[serde(borrow)]
    data: Option<&'t serde_json::value::RawValue>,
}

fn traces_of(metadata: Metadata<'_>, out: &mut HashMap<String, Frame>) {
    for (path, entries) in metadata {
        let frame = entries
            .into_iter()
            .filter(|e| e.kind.as_ref().is_some_and(|k| k.0 == "aws:cdk:creationStack"))
            .find_map(|e| serde_json::from_str::<Vec<Text<'_>>>(e.data?.get()).ok())
            .and_then(|frames| frames.iter().find_map(|f| user_frame(&f.0)));
        if let Some(frame) = frame {
            out.insert(path.0.trim_start_matches('/').to_string(), frame);
        }
    }
}

/// Where a creation stack's frame is: its file, line and column (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    pub(crate) file: String,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// A frame of a creation stack that is the app's own code: `new Pipeline
/// (/app/lib/pipeline.ts:10:18)` or `/app/bin/app.ts:5:1`, not a library's
/// (`...aws-cdk-lib...`, anything under `node_modules`).
pub(crate) fn user_frame(frame: &str) -> Option<Frame> {
    let place = match frame.rfind('(') {
        Some(open) => frame.get(open + 1..)?.strip_suffix(')')?,
        None => frame.trim(),
    };
    if place.contains("node_modules") || place.starts_with("node:") || place.starts_with("...") {
        return None;
    }
    let place = place.strip_prefix("file://").unwrap_or(place);
    let mut parts = place.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let file = parts.next()?.to_string();
    Some(Frame { file, line, column })
}

/// The app's file a frame names: the path itself when it is inside the
/// app, else the part of it below a folder of the app's name (the app was
/// synthesized elsewhere: a CI checkout, a container).
pub(crate) fn local_file(app: &Path, canonical_app: &Path, frame_file: &Path) -> Option<PathBuf> {
    if let Ok(rest) = frame_file.strip_prefix(canonical_app) {
        return Some(app.join(rest)).filter(|p| p.is_file());
    }
    let name = canonical_app.file_name()?;
    let components: Vec<_> = frame_file.components().collect();
    let at = components.iter().rposition(|c| c.as_os_str() == name)?;
    let rest: PathBuf = components.get(at + 1..)?.iter().collect();
    Some(app.join(rest)).filter(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_of_the_apps_code_gives_its_place_and_a_librarys_none() {
        assert_eq!(
            user_frame("new Pipeline (/tmp/app/lib/workers-stack.ts:10:18)"),
            Some(Frame { file: "/tmp/app/lib/workers-stack.ts".into(), line: 10, column: 18 })
        );
        assert_eq!(
            user_frame("/tmp/app/bin/app.ts:5:1"),
            Some(Frame { file: "/tmp/app/bin/app.ts".into(), line: 5, column: 1 })
        );
        assert_eq!(user_frame("...new Queue2 in aws-cdk-lib..."), None);
        assert_eq!(user_frame("new Lib (/app/node_modules/lib/index.js:3:9)"), None);
        assert_eq!(user_frame("(no user code in 10 frames, use --stack-trace-limit to capture more)"), None);
    }

    #[test]
    fn a_template_belongs_to_the_app_whose_output_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path().join("app");
        std::fs::create_dir_all(app.join("out/assembly-Prod")).unwrap();
        std::fs::write(app.join(CDK_JSON), r#"{"app": "python3 app.py", "output": "out"}"#).unwrap();
        let nested = app.join("out/assembly-Prod/S.template.json");
        assert_eq!(App::dir_of(&nested), Some((app.clone(), app.join("out"))));
        // cdk.out is not this app's output: not a synthesized template.
        assert_eq!(App::dir_of(&app.join("cdk.out/S.template.json")), None);
    }
}
