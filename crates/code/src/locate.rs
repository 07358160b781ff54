//! From a function's handler setting to the file and the function in it:
//! `app.handler` (Python module `app`, function `handler`),
//! `src/index.handler` (Node.js file `src/index.{js,mjs,cjs,ts}`),
//! `com.example.Orders::handleRequest` (Java class, method), and for Go the
//! function the `main` package passes to `lambda.Start`.
//!
//! A path that leaves the repository (`../../`), or a file that cannot be
//! found, is a reason, said in a note.

use std::path::{Path, PathBuf};

use sqsguard_source::repository::{inside, normalize};

use super::lang::Language;

/// Where a handler was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub file: PathBuf,
    /// The function (or method) to look for in it; for Go, empty: the
    /// function passed to `lambda.Start`.
    pub function: String,
    pub language: Language,
}

/// The extensions a Node.js handler's file may have, in the order Lambda
/// (then a TypeScript build) would take them.
const NODE_EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "ts", "mts", "cts", "tsx"];

/// The file and function of `handler` in `folder`, for a runtime of
/// `language`.
pub(crate) fn find(folder: &Path, handler: &str, language: Language, root: &Path) -> Result<Found, String> {
    match language {
        Language::Python => {
            let (module, function) = handler.rsplit_once('.').ok_or_else(|| format!("`{handler}` names no module"))?;
            let file = folder.join(module.replace('.', "/") + ".py");
            let file = inside(&file, root)?;
            exists(&file)?;
            Ok(Found { file, function: function.to_string(), language })
        }
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            let (module, function) = handler.rsplit_once('.').ok_or_else(|| format!("`{handler}` names no file"))?;
            // `index.handler` and `src/index.handler`; a nested export
            // (`index.handlers.orders`) is not read.
            let base = folder.join(module);
            let base = inside(&base, root)?;
            // Built output (`dist/`, `build/`, a tsconfig's `outDir`) is
            // read in its TypeScript source, when there is one; so is a
            // built file that is not there (not built yet).
            let built = NODE_EXTENSIONS[..3].iter().map(|e| with_extension(&base, e)).find(|f| f.is_file());
            if built.as_ref().is_none_or(|b| is_built(b, root))
                && let Some(file) = typescript_source(&base, root)
            {
                let language = Language::of_path(&file).unwrap_or(Language::TypeScript);
                return Ok(Found { file, function: function.to_string(), language });
            }
            for ext in NODE_EXTENSIONS {
                let file = with_extension(&base, ext);
                if file.is_file() {
                    let language = Language::of_path(&file).unwrap_or(Language::JavaScript);
                    return Ok(Found { file, function: function.to_string(), language });
                }
            }
            Err(format!("no {}.js, .mjs, .cjs or .ts was found", super::shown(&base)))
        }
        Language::Java => {
            let (class, method) = handler.split_once("::").unwrap_or((handler, "handleRequest"));
            let relative = class.replace('.', "/") + ".java";
            for prefix in ["src/main/java", "src", ""] {
                let file = folder.join(prefix).join(&relative);
                if file.is_file() {
                    return Ok(Found { file: inside(&file, root)?, function: method.to_string(), language });
                }
            }
            Err(format!("no {relative} was found under {}", super::shown(folder)))
        }
        Language::Go => {
            // A service linted from inside its folder: the folder is `.`.
            let folder = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
            let folder = inside(folder, root)?;
            let mut why = None;
            // The code folder itself (SAM), then the folder named after
            // the binary (the Framework's `handler: bin/hello`, built from
            // `hello/main.go`).
            let mut folders = vec![folder.clone()];
            folders.extend(named_after(&folder, handler));
            for dir in &folders {
                match lambda_main(dir) {
                    Ok(Some(file)) => return Ok(Found { file, function: String::new(), language }),
                    Ok(None) => {}
                    Err(e) => {
                        why.get_or_insert(e);
                    }
                }
            }
            if let Some(why) = why.filter(|_| folders.len() == 1) {
                return Err(why);
            }
            let shown: Vec<String> = folders.iter().map(|f| super::shown(f)).collect();
            Err(format!("no .go file of {} calls lambda.Start", shown.join(" or ")))
        }
    }
}

/// The `.go` file (tests aside) of `folder` that calls `lambda.Start`;
/// why not, when the folder cannot be read.
fn lambda_main(folder: &Path) -> Result<Option<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| format!("{} cannot be read: {}", super::shown(folder), sqsguard_source::plain_io_error(&e)))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "go") && !p.to_string_lossy().ends_with("_test.go"))
        .collect();
    files.sort();
    Ok(files.into_iter().find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("lambda.Start"))))
}

/// How deep under a Go service's folder the folder named after a binary
/// is looked for (`hello/`, `cmd/hello/`, `functions/hello/`).
const GO_SEARCH_DEPTH: usize = 3;

/// The folders under `folder` named after the binary of `handler`
/// (`bin/hello`: `hello`), nearest first; none for a handler that names
/// no binary of its own (`bootstrap`).
fn named_after(folder: &Path, handler: &str) -> Vec<PathBuf> {
    let Some(binary) = Path::new(handler).file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return Vec::new();
    };
    if binary.is_empty() || matches!(binary.as_str(), "bootstrap" | "." | "..") {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut level = vec![folder.to_path_buf()];
    for _ in 0..GO_SEARCH_DEPTH {
        let mut next = Vec::new();
        for dir in &level {
            let Ok(entries) = std::fs::read_dir(dir) else { continue };
            let mut dirs: Vec<PathBuf> = entries
                .filter_map(|e| e.ok())
                // Real folders only: a link may lead out of the repository.
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path())
                .filter(|p| {
                    let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    !name.starts_with('.') && !matches!(name.as_str(), "node_modules" | "vendor" | "bin")
                })
                .collect();
            dirs.sort();
            for d in dirs {
                if d.file_name().is_some_and(|n| n.to_string_lossy() == binary) {
                    found.push(d.clone());
                }
                next.push(d);
            }
        }
        level = next;
    }
    found
}

/// Folders a TypeScript build writes JavaScript into, besides a
/// tsconfig's `outDir`.
const BUILD_FOLDERS: &[&str] = &["dist", "build", ".aws-sam"];

/// Whether `file` is built output: under a build folder, or under the
/// `outDir` of a tsconfig.json above it.
fn is_built(file: &Path, root: &Path) -> bool {
    let file = normalize(file);
    file.components().any(|c| BUILD_FOLDERS.iter().any(|b| c.as_os_str() == *b))
        || tsconfigs(&file, root).iter().any(|t| t.out_dir.as_ref().is_some_and(|o| file.starts_with(o)))
}

/// What a tsconfig.json says of where a build reads and writes.
struct TsConfig {
    /// `compilerOptions.rootDir` (else `src` when there is one, else the
    /// tsconfig's folder), joined to its folder.
    root_dir: PathBuf,
    out_dir: Option<PathBuf>,
}

/// The tsconfig.json files in the folders above `path`, nearest first,
/// within the repository.
fn tsconfigs(path: &Path, root: &Path) -> Vec<TsConfig> {
    let mut out = Vec::new();
    let mut at = path.parent();
    while let Some(dir) = at {
        if inside(dir, root).is_err() {
            break;
        }
        let file = if dir.as_os_str().is_empty() { PathBuf::from("tsconfig.json") } else { dir.join("tsconfig.json") };
        if let Some(config) = std::fs::read_to_string(&file).ok().and_then(|t| read_tsconfig(dir, &t)) {
            out.push(config);
        }
        if dir.as_os_str().is_empty() {
            break;
        }
        at = dir.parent();
    }
    out
}

fn read_tsconfig(dir: &Path, text: &str) -> Option<TsConfig> {
    let value = jsonc_parser::parse_to_value(text, &jsonc_parser::ParseOptions::default()).ok()??;
    let jsonc_parser::JsonValue::Object(config) = value else { return None };
    let options = config.get_object("compilerOptions");
    let option = |key: &str| options.and_then(|o| o.get_string(key)).map(|v| normalize(&dir.join(v.as_ref())));
    let root_dir = option("rootDir").unwrap_or_else(|| {
        let src = normalize(&dir.join("src"));
        if src.is_dir() { src } else { normalize(dir) }
    });
    Some(TsConfig { root_dir, out_dir: option("outDir") })
}

/// The TypeScript source of a built module (`base`: its path without an
/// extension): through the `outDir` and `rootDir` of a tsconfig.json
/// above it, else from a `dist/` or `build/` folder to `src/` beside it
/// (or the folder itself).
fn typescript_source(base: &Path, root: &Path) -> Option<PathBuf> {
    const SOURCES: &[&str] = &["ts", "tsx", "mts", "cts"];
    let base = normalize(base);
    let existing = |stem: &Path| SOURCES.iter().map(|e| with_extension(stem, e)).find(|f| f.is_file());
    for config in tsconfigs(&base, root) {
        if let Some(rest) = config.out_dir.as_ref().and_then(|o| base.strip_prefix(o).ok())
            && let Some(file) = existing(&config.root_dir.join(rest))
        {
            return Some(file);
        }
    }
    let components: Vec<_> = base.components().collect();
    let at = components.iter().rposition(|c| BUILD_FOLDERS.iter().any(|b| c.as_os_str() == *b))?;
    let above: PathBuf = components[..at].iter().collect();
    let rest: PathBuf = components[at + 1..].iter().collect();
    // `.aws-sam/build/<Function>/...`: the function's folder is SAM's.
    let rest =
        if components[at].as_os_str() == ".aws-sam" { rest.components().skip(2).collect::<PathBuf>() } else { rest };
    existing(&above.join("src").join(&rest)).or_else(|| existing(&above.join(&rest)))
}

fn with_extension(base: &Path, ext: &str) -> PathBuf {
    let mut s = base.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

fn exists(file: &Path) -> Result<(), String> {
    if file.is_file() { Ok(()) } else { Err(format!("{} was not found", super::shown(file))) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handlers_are_found_by_their_runtime_s_rules() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("src/orders")).unwrap();
        std::fs::write(root.join("src/orders/app.py"), "def handler(e, c): pass\n").unwrap();
        std::fs::write(root.join("src/index.mjs"), "export const handler = async () => {};\n").unwrap();
        let py = find(&root.join("src"), "orders.app.handler", Language::Python, &root).unwrap();
        assert_eq!(py.file, root.join("src/orders/app.py"));
        assert_eq!(py.function, "handler");
        let js = find(&root, "src/index.handler", Language::JavaScript, &root).unwrap();
        assert_eq!(js.file, root.join("src/index.mjs"));
        let missing = find(&root.join("src"), "nope.handler", Language::Python, &root).unwrap_err();
        assert!(missing.contains("nope.py was not found"), "{missing}");
    }

    #[test]
    fn a_handler_outside_the_repository_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("repo")).unwrap();
        std::fs::write(root.join("secret.py"), "def handler(e, c): pass\n").unwrap();
        let why = find(&root.join("repo/.."), "secret.handler", Language::Python, &root.join("repo")).unwrap_err();
        assert!(why.contains("outside the repository"), "{why}");
    }

    #[test]
    fn built_javascript_is_read_in_its_typescript_source() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let project = root.join("svc");
        std::fs::create_dir_all(project.join("src/handlers")).unwrap();
        std::fs::write(
            project.join("tsconfig.json"),
            "{\n  // built by tsc\n  \"compilerOptions\": { \"outDir\": \"out\", \"rootDir\": \"src\", },\n}\n",
        )
        .unwrap();
        std::fs::write(project.join("src/handlers/orders.ts"), "export const handler = async () => ({});\n").unwrap();
        // Not built yet: the tsconfig's outDir maps back to rootDir.
        let found = find(&project.join("out"), "handlers/orders.handler", Language::JavaScript, &root).unwrap();
        assert_eq!(found.file, project.join("src/handlers/orders.ts"));
        assert_eq!(found.language, Language::TypeScript);
        // Built: the source is still what is read.
        std::fs::create_dir_all(project.join("out/handlers")).unwrap();
        std::fs::write(project.join("out/handlers/orders.js"), "exports.handler = async () => ({});\n").unwrap();
        let found = find(&project, "out/handlers/orders.handler", Language::JavaScript, &root).unwrap();
        assert_eq!(found.file, project.join("src/handlers/orders.ts"));
        // No tsconfig: dist/ maps to src/.
        std::fs::create_dir_all(root.join("plain/src")).unwrap();
        std::fs::write(root.join("plain/src/app.ts"), "export const handler = async () => ({});\n").unwrap();
        let found = find(&root.join("plain"), "dist/app.handler", Language::JavaScript, &root).unwrap();
        assert_eq!(found.file, root.join("plain/src/app.ts"));
        // JavaScript that is no build output is read as it is.
        std::fs::write(root.join("plain/app.js"), "exports.handler = async () => ({});\n").unwrap();
        let found = find(&root.join("plain"), "app.handler", Language::JavaScript, &root).unwrap();
        assert_eq!(found.file, root.join("plain/app.js"));
    }
}
