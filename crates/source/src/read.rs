//! Reading a file's text, within a size limit, and telling whether a file
//! that cannot be read looks like infrastructure (worth an SQS000) or not
//! (skipped: a Helm template, a binary that happens to end in `.json`).

use std::io::Read as _;
use std::path::Path;

use super::{Source, SourceFile, Span};

/// The most sqsguard reads of a template or module file: CloudFormation
/// itself accepts template bodies of at most 1 MB (S3-hosted), and CDK
/// output stays well below. Past it a file is an SQS000, never a skip.
pub const MAX_TEMPLATE_BYTES: u64 = 10 * 1024 * 1024;

/// The most sqsguard reads of a `.json` file, which may be a Terraform
/// plan: the plans of real estates run to hundreds of megabytes.
pub const MAX_PLAN_BYTES: u64 = 4 * 1024 * 1024 * 1024;

/// The most sqsguard reads of `path`, by what it may be.
pub fn limit_for(path: &Path) -> u64 {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) { MAX_PLAN_BYTES } else { MAX_TEMPLATE_BYTES }
}

/// Why a template of `size` bytes was not parsed.
pub fn too_large(size: u64) -> String {
    format!(
        "file is {:.1} MiB, larger than the {} MiB sqsguard reads of a template; it was not parsed",
        size as f64 / 1048576.0,
        MAX_TEMPLATE_BYTES / 1048576
    )
}

/// What a plan's first bytes hold (`terraform show -json` writes it first).
const PLAN_MARK: &[u8] = b"\"format_version\"";

/// Extensions worth opening when walking a folder.
const EXTENSIONS: &[&str] = &["yaml", "yml", "json", "template", "tf"];

/// Why a file's text could not be had.
#[derive(Debug)]
pub struct Unreadable {
    /// The file, with the text read so far when there is some (a file that
    /// is not UTF-8 keeps its text up to the bad byte, for the location).
    pub file: Source,
    pub span: Span,
    /// A plain sentence: "file is not valid UTF-8 (byte 0xff)".
    pub message: String,
    /// It is, or looks like, infrastructure: report it rather than skip it.
    pub infrastructure: bool,
    /// It was not read for its size.
    pub too_large: bool,
    /// It is no regular file (a FIFO, a socket, a device): nothing was
    /// read, and there is no template to report on.
    pub not_a_file: bool,
    /// Its bytes are not UTF-8 text.
    pub not_text: bool,
}

/// A file's text.
pub fn read(path: &Path) -> Result<Source, Unreadable> {
    let unreadable = |text: String, span: Span, message: String, infrastructure: bool| Unreadable {
        file: SourceFile::new(path.to_path_buf(), text),
        span,
        message,
        infrastructure,
        too_large: false,
        not_a_file: false,
        not_text: false,
    };
    let bytes = match read_limited(path, limit_for(path)) {
        Ok(Contents::All(bytes)) => bytes,
        Ok(Contents::Unread { size, head }) => {
            let size = usize::try_from(size).unwrap_or(usize::MAX);
            return Ok(SourceFile::unread(path.to_path_buf(), String::from_utf8_lossy(&head).into_owned(), size));
        }
        Ok(Contents::TooLarge { size, head }) => {
            return Err(Unreadable {
                too_large: true,
                ..unreadable(String::new(), Span::default(), too_large(size), looks_like_infrastructure(path, &head))
            });
        }
        Err(e @ NotOpened::Special(_)) => {
            let message = e.to_string();
            return Err(Unreadable { not_a_file: true, ..unreadable(String::new(), Span::default(), message, false) });
        }
        Err(e) => {
            let message = match &e {
                NotOpened::Io(_) => format!("cannot read file: {e}"),
                _ => e.to_string(),
            };
            return Err(unreadable(String::new(), Span::default(), message, has_infra_extension(path)));
        }
    };
    match text_of(bytes) {
        Ok(text) => Ok(SourceFile::new(path.to_path_buf(), text)),
        Err(e) => {
            let infrastructure = looks_like_infrastructure(path, e.text.as_bytes());
            Err(Unreadable { not_text: true, ..unreadable(e.text, Span::new(e.at, e.at), e.message, infrastructure) })
        }
    }
}

/// Bytes that are not UTF-8, kept for the location of the first bad one.
#[derive(Debug)]
pub struct NotUtf8 {
    /// The lossy text: identical to the file up to `at`.
    pub text: String,
    /// The offset of the first bad byte.
    pub at: usize,
    /// "file is not valid UTF-8 (byte 0xff)".
    pub message: String,
}

/// A file's bytes as text, or where and why they are not: one answer for
/// every reader (templates, and plans read in two passes).
pub fn text_of(bytes: Vec<u8>) -> Result<String, NotUtf8> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.into_bytes();
        let message = format!("file is not valid UTF-8 (byte 0x{:02x})", bytes[at]);
        NotUtf8 { text: String::from_utf8_lossy(&bytes).into_owned(), at, message }
    })
}

enum Contents {
    All(Vec<u8>),
    /// Larger than a template and marked as a plan at its start.
    Unread {
        size: u64,
        head: Vec<u8>,
    },
    TooLarge {
        size: u64,
        head: Vec<u8>,
    },
}

/// Why a file was not opened.
#[derive(Debug)]
pub enum NotOpened {
    Io(std::io::Error),
    Dir,
    /// No regular file: "a FIFO", "a socket", "a device".
    Special(&'static str),
}

impl std::fmt::Display for NotOpened {
    /// "permission denied", "is a directory, not a file", "a FIFO, not a file".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotOpened::Io(e) => f.write_str(&plain_io_error(e)),
            NotOpened::Dir => f.write_str("is a directory, not a file"),
            NotOpened::Special(kind) => write!(f, "{kind}, not a file"),
        }
    }
}

/// What `file_type` is when it is neither a regular file nor a folder: "a
/// FIFO", "a socket", "a device".
pub fn special_kind(file_type: &std::fs::FileType) -> Option<&'static str> {
    if file_type.is_file() || file_type.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return Some("a FIFO");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return Some("a device");
        }
    }
    Some("a special file")
}

/// Open `path` to read it, when it is a regular file (through any symlink).
/// A FIFO, socket or device is refused before it is opened: opening a FIFO
/// waits for a writer, and a device (`/dev/zero`) never ends. On Unix the
/// open itself does not wait either (`O_NONBLOCK`), so a FIFO swapped in
/// after the check is refused by the check of the opened file, not waited on.
pub fn open_regular(path: &Path) -> Result<(std::fs::File, std::fs::Metadata), NotOpened> {
    let io = NotOpened::Io;
    let check = |meta: &std::fs::Metadata| match special_kind(&meta.file_type()) {
        _ if meta.is_dir() => Err(NotOpened::Dir),
        Some(kind) => Err(NotOpened::Special(kind)),
        None => Ok(()),
    };
    check(&std::fs::metadata(path).map_err(io)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        // Reads of a regular file ignore O_NONBLOCK: it only keeps the open
        // of a FIFO from waiting, and O_NOCTTY a terminal from becoming ours.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let f = options.open(path).map_err(io)?;
    let meta = f.metadata().map_err(io)?;
    check(&meta)?;
    Ok((f, meta))
}

impl From<NotOpened> for std::io::Error {
    fn from(e: NotOpened) -> Self {
        match e {
            NotOpened::Io(e) => e,
            NotOpened::Dir => std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory, not a file"),
            NotOpened::Special(kind) => std::io::Error::other(format!("{kind}, not a file")),
        }
    }
}

/// The most sqsguard reads of a small file named to it (a config, a
/// baseline, an accounts list, a payload schema, a generator template).
pub(crate) const MAX_NAMED_BYTES: u64 = 64 * 1024 * 1024;

/// The text of a small file a user named (see [`MAX_NAMED_BYTES`]): a
/// regular file only, so a FIFO or a device named by mistake is an error
/// at once, never a wait or an endless read. Errors are plain: "a FIFO,
/// not a file", "permission denied", "larger than 64 MiB", "not valid
/// UTF-8".
pub fn read_named(path: &Path) -> std::io::Result<String> {
    let (f, _) = open_regular(path)?;
    let mut bytes = Vec::new();
    f.take(MAX_NAMED_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_NAMED_BYTES {
        return Err(std::io::Error::other(format!("larger than {} MiB", MAX_NAMED_BYTES >> 20)));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not valid UTF-8 (byte {at})"))
    })
}

/// Read a file unless it is over `limit` (then only its head, to tell
/// whether it is worth an error). Errors are plain sentences.
fn read_limited(path: &Path, limit: u64) -> Result<Contents, NotOpened> {
    let (mut f, meta) = open_regular(path)?;
    let io = NotOpened::Io;
    // Past a template's size only a plan is read, and a plan says so at
    // its start: other large JSON (data) is not read whole to find out.
    if meta.len() > limit.min(MAX_TEMPLATE_BYTES) {
        let mut head = vec![0; 64 * 1024];
        let n = f.read(&mut head).unwrap_or(0);
        head.truncate(n);
        if meta.len() > limit || !head.windows(PLAN_MARK.len()).any(|w| w == PLAN_MARK) {
            return Ok(Contents::TooLarge { size: meta.len(), head });
        }
        // A plan this large is streamed by its front-end, never held whole.
        return Ok(Contents::Unread { size: meta.len(), head });
    }
    // Never more than the limit, whatever the size said (a file that grows
    // while it is read).
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    f.by_ref().take(limit + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        let size = bytes.len() as u64;
        bytes.truncate(64 * 1024);
        return Ok(Contents::TooLarge { size, head: bytes });
    }
    Ok(Contents::All(bytes))
}

/// An I/O error as a short sentence ("permission denied").
pub fn plain_io_error(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::IsADirectory => "is a directory, not a file".to_string(),
        _ => e.to_string(),
    }
}

/// A name a template or module could have (`.yaml`, `.yml`, `.json`,
/// `.template`, `.tf`): what a folder walk opens.
pub fn has_infra_extension(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// A name only a template, module, plan or variables file has (`.yaml`,
/// `.yml`, `.json`, `.template`, `.tf`, `.tfvars`): a file so named that does
/// not parse is an SQS000; a file named otherwise (`README.md`, `stack.cfn`)
/// is linted when it parses, and skipped with a note when it does not.
pub fn has_template_extension(path: &Path) -> bool {
    has_infra_extension(path) || path.extension().is_some_and(|e| e.eq_ignore_ascii_case("tfvars"))
}

/// `serverless.ts`, `.js`, `.mjs`, `.cjs`: a Serverless service written as
/// code, which only running it can tell; found in a walk to be noted.
pub fn is_serverless_code(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    ["serverless.ts", "serverless.js", "serverless.mjs", "serverless.cjs"].contains(&name.as_str())
}

/// (rules/SQS000.md): a `.tf`, or YAML/JSON mentioning AWSTemplateFormatVersion,
/// `AWS::`, Transform, or `service:` with `provider:` as top-level keys
/// (each at the start of a line: the same keys indented, in a workflow
/// step or an Ansible task, are no Serverless service).
pub fn looks_like_infrastructure(path: &Path, bytes: &[u8]) -> bool {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("tf")) {
        return true;
    }
    let top_level = |key: &[u8]| bytes.split(|b| *b == b'\n').any(|line| line.starts_with(key));
    mentions_cloudformation(bytes) || (top_level(b"service:") && top_level(b"provider:"))
}

/// Whether a text mentions AWSTemplateFormatVersion, `AWS::` or Transform.
pub fn mentions_cloudformation(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
    has(b"AWSTemplateFormatVersion") || has(b"AWS::") || has(b"Transform")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infrastructure_is_recognised_by_content() {
        let p = Path::new("x.yaml");
        assert!(looks_like_infrastructure(p, b"Resources:\n  Q:\n    Type: AWS::SQS::Queue"));
        assert!(looks_like_infrastructure(p, b"service: x\nprovider:\n  name: aws"));
        // The same keys nested (a workflow step's `with:`) are no service.
        assert!(!looks_like_infrastructure(p, b"steps:\n  - with:\n      service: api\n      provider: gcp\n"));
        assert!(!looks_like_infrastructure(p, b"name: ci\non: push"));
        assert!(looks_like_infrastructure(Path::new("main.tf"), b""));
    }
}
