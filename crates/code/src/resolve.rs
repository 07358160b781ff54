//! Which file a module written in code is: Python's dotted and relative
//! modules, Node.js's relative specifiers (and the TypeScript sources of
//! `.js` ones), a Java superclass's name.

use std::path::{Component, Path, PathBuf};

/// `./a/b` as `a/b`, `a/./b` as `a/b`: one path per file in the cache.
pub(super) fn strip_dot(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `Base<T>` -> `Base`, `pkg.Base` -> `Base`.
pub(super) fn base_class(written: &str) -> String {
    let name = written.split('<').next().unwrap_or(written).trim();
    name.rsplit('.').next().unwrap_or(name).to_string()
}

/// The files a Python module may be: relative to the importing file's
/// package (`.mod`, `..pkg.mod`), else from the code's folder, then beside
/// the importing file.
pub(super) fn python_candidates(dir: &Path, base: &Path, module: &str) -> Vec<PathBuf> {
    let dots = module.chars().take_while(|&c| c == '.').count();
    let rest = &module[dots..];
    let as_files = |from: &Path| {
        let path = if rest.is_empty() { from.to_path_buf() } else { from.join(rest.replace('.', "/")) };
        let mut file = path.clone().into_os_string();
        file.push(".py");
        vec![PathBuf::from(file), path.join("__init__.py")]
    };
    if dots > 0 {
        let mut from = dir.to_path_buf();
        for _ in 1..dots {
            from = from.parent().map(Path::to_path_buf).unwrap_or_default();
        }
        return as_files(&from);
    }
    let mut out = as_files(base);
    out.extend(as_files(dir));
    out
}

/// The files a relative Node.js module may be (`./lib`, `../lib.js`,
/// `./lib/index`), TypeScript's sources of a `.js` specifier included. A
/// package name is not followed.
pub(super) fn node_candidates(dir: &Path, module: &str) -> Vec<PathBuf> {
    if !(module.starts_with("./") || module.starts_with("../") || module == "." || module == "..") {
        return Vec::new();
    }
    const EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "ts", "mts", "cts", "tsx", "jsx"];
    let path = dir.join(module);
    let with = |p: &Path, ext: &str| {
        let mut s = p.as_os_str().to_owned();
        s.push(".");
        s.push(ext);
        PathBuf::from(s)
    };
    let mut out = vec![path.clone()];
    // `import './lib.js'` in TypeScript is `lib.ts` before the build.
    if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
        let stem = path.with_extension("");
        let sources: &[&str] = match ext {
            "js" | "jsx" => &["ts", "tsx"],
            "mjs" => &["mts"],
            "cjs" => &["cts"],
            _ => &[],
        };
        out.extend(sources.iter().map(|e| with(&stem, e)));
    }
    out.extend(EXTENSIONS.iter().map(|e| with(&path, e)));
    out.extend(EXTENSIONS.iter().map(|e| with(&path.join("index"), e)));
    out
}
