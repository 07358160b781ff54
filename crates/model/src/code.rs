//! The pipeline as its code writes it: the handler a mapping invokes, and
//! the SDK calls of producers and workers, as the code front-end
//! (`sqsguard-code`) reads them. Each fact is located in the code; what
//! could not be read is said ([`Reports::Unknown`], `Value::Unknown`),
//! never taken for a "no".

use std::path::PathBuf;

use super::{FunctionIdx, Origin, Target, Value};

/// The languages sqsguard reads code in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    Python,
    JavaScript,
    TypeScript,
    /// TypeScript with JSX (`.tsx`): a grammar of its own.
    Tsx,
    Go,
    Java,
}

impl Language {
    /// The language of a code file, by its extension (`.py`; `.js`,
    /// `.mjs`, `.cjs`, `.jsx`; `.ts`, `.mts`, `.cts`; `.tsx`; `.go`;
    /// `.java`), in any case.
    pub fn of_path(path: &std::path::Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "py" => Language::Python,
            "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
            "ts" | "mts" | "cts" => Language::TypeScript,
            "tsx" => Language::Tsx,
            "go" => Language::Go,
            "java" => Language::Java,
            _ => return None,
        })
    }

    /// What the user calls it.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "Python",
            Language::JavaScript => "JavaScript",
            Language::TypeScript | Language::Tsx => "TypeScript",
            Language::Go => "Go",
            Language::Java => "Java",
        }
    }
}

/// Where a function's code is, as its template says.
#[derive(Clone, Debug)]
pub struct CodeRef {
    /// The handler setting as written (`app.handler`, `src/index.main`,
    /// `com.example.Orders::handleRequest`; for Go, the binary's name).
    pub handler: String,
    /// The runtime (`python3.12`, `nodejs20.x`, `java21`, `provided.al2023`),
    /// when known: it says the language.
    pub runtime: Option<String>,
    pub place: CodePlace,
    /// Where the handler (or the code) is set in the template: what a note
    /// about a handler that was not found points at.
    pub origin: Origin,
    /// The environment variables the function sets, and the queue each
    /// names when it names one of the analysed set.
    pub env: Vec<EnvVar>,
}

/// Where the code of a function is.
#[derive(Clone, Debug)]
pub enum CodePlace {
    /// A folder (SAM `CodeUri`, an archive's `source_dir`, a CDK asset),
    /// already joined to the folder of the template that names it.
    Folder(PathBuf),
    /// One file (an archive's `source_file`).
    File(PathBuf),
    /// Code written in the template (`Code.ZipFile`), with where it starts.
    Inline { text: String, origin: Origin },
}

/// One environment variable of a function.
#[derive(Clone, Debug)]
pub struct EnvVar {
    pub name: String,
    /// The queue it names (its URL, ARN or name), when known.
    pub queue: Value<Target>,
}

/// A Lambda function's handler, read from its code.
#[derive(Clone, Debug)]
pub struct Handler {
    /// The function whose handler it is.
    pub function: FunctionIdx,
    pub language: Language,
    /// The handler's name where it is defined.
    pub origin: Origin,
    /// Whether it returns batch item failures.
    pub reports: Reports,
    /// Response keys that mean `batchItemFailures` or `itemIdentifier` and
    /// are spelt otherwise.
    pub misspelt: Vec<Misspelt>,
    /// `itemIdentifier`s filled from something other than the record's
    /// message ID.
    pub wrong_identifiers: Vec<WrongIdentifier>,
    /// Where it ends the invocation with an error on a record's failure
    /// path: a raise or throw in an `except`/`catch` of the loop over the
    /// event's records that no `try` around it catches; in Go, an error
    /// (not `nil`) returned inside that loop.
    pub raises: Vec<Origin>,
}

/// Whether a handler returns batch item failures.
#[derive(Clone, Debug)]
pub enum Reports {
    /// It does: where, and how (`a batchItemFailures key`,
    /// `Powertools' process_partial_response`, `SQSBatchResponse`).
    Yes { origin: Origin, how: String },
    /// Its whole body was read and it never does.
    No,
    /// It may: it returns what code that was not read returns (the reason).
    Unknown(String),
}

/// A response key spelt otherwise than AWS reads it.
#[derive(Clone, Debug)]
pub struct Misspelt {
    pub origin: Origin,
    /// As written.
    pub written: String,
    /// What Lambda reads: `batchItemFailures` or `itemIdentifier`.
    pub meant: &'static str,
}

/// An `itemIdentifier` filled from something other than the message ID.
#[derive(Clone, Debug)]
pub struct WrongIdentifier {
    pub origin: Origin,
    /// What it is filled from, as written (`record["receiptHandle"]`).
    pub from: String,
}

/// The SQS API operations the code rules read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    ReceiveMessage,
    SendMessage,
    SendMessageBatch,
    DeleteMessage,
    DeleteMessageBatch,
    ChangeMessageVisibility,
    ChangeMessageVisibilityBatch,
}

impl Operation {
    /// The API's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Operation::ReceiveMessage => "ReceiveMessage",
            Operation::SendMessage => "SendMessage",
            Operation::SendMessageBatch => "SendMessageBatch",
            Operation::DeleteMessage => "DeleteMessage",
            Operation::DeleteMessageBatch => "DeleteMessageBatch",
            Operation::ChangeMessageVisibility => "ChangeMessageVisibility",
            Operation::ChangeMessageVisibilityBatch => "ChangeMessageVisibilityBatch",
        }
    }

    /// Whether the caller consumes the queue with it: it receives, deletes
    /// or extends messages (a worker), rather than sending (a producer).
    pub fn consumes(self) -> bool {
        !matches!(self, Operation::SendMessage | Operation::SendMessageBatch)
    }

    /// Whether it names a received message by its receipt handle.
    pub fn takes_receipt_handle(self) -> bool {
        matches!(
            self,
            Operation::DeleteMessage
                | Operation::DeleteMessageBatch
                | Operation::ChangeMessageVisibility
                | Operation::ChangeMessageVisibilityBatch
        )
    }

    /// Whether it has entries that can fail one by one.
    pub fn is_batch(self) -> bool {
        matches!(
            self,
            Operation::SendMessageBatch | Operation::DeleteMessageBatch | Operation::ChangeMessageVisibilityBatch
        )
    }
}

/// One call of the SQS API in code.
#[derive(Clone, Debug)]
pub struct SdkCall {
    /// Whose code it is: the function's resource when a template owns the
    /// file, else the enclosing function as written (`poll`,
    /// `Worker.run`), `-` at the top level of a file.
    pub owner: String,
    pub language: Language,
    /// The call (the method or command name).
    pub origin: Origin,
    pub operation: Operation,
    /// The request's parameters that are written, by the API's names
    /// (`WaitTimeSeconds`, `MessageGroupId`; for a batch, those every entry
    /// sets).
    pub args: Vec<Arg>,
    /// Whether `args` is every parameter the request sets: false when the
    /// request (or a batch's entries) is built where sqsguard does not read
    /// it, or spread from another value (`**params`, `...params`). A rule
    /// about a parameter that is not written fires only when it is true.
    pub complete: bool,
    /// A batch call's entries, each with the parameters it writes: empty
    /// for a call that is not a batch, or whose entries are not read.
    pub entries: Vec<Vec<Arg>>,
    /// How many entries a batch call's list writes out, when it is written
    /// out (`[{...}, {...}]`): `None` when it is built (a loop, an append,
    /// a comprehension, a `map`) or not read.
    pub written_entries: Option<usize>,
    /// The call is made again and again: written inside a loop (`while`,
    /// `for`) of its own function or of the file's top level, or in a
    /// function that names itself in its body (a recursive poll) or that
    /// a scheduler runs at a fixed rate (`setInterval`,
    /// `scheduleAtFixedRate`, `@Scheduled`). A loop in a caller is not
    /// followed.
    pub in_loop: bool,
    /// The queue it calls, when the queue expression resolves to one.
    pub queue: Value<Target>,
    /// What happens to a batch call's result.
    pub result: ResultUse,
    /// A receive's: the shortest HTTP read, socket or attempt timeout set
    /// where its SDK client is built, when the code sets one there.
    pub client_timeout: Option<ClientTimeout>,
    /// A visibility change's: the period of the timer or loop that makes
    /// it again and again, when it is one and its period can be read.
    pub heartbeat: Option<Heartbeat>,
    /// A receive's: where the messages it returns go (SQS207).
    pub received: Option<Received>,
    /// Values of the message body that differ on every call (a clock, a
    /// UUID, a random number), where they are and as written.
    pub nondeterministic: Vec<(Origin, String)>,
}

/// An SDK client's HTTP timeout, as the code sets it.
#[derive(Clone, Debug)]
pub struct ClientTimeout {
    pub seconds: f64,
    /// As the code names it: `read_timeout`, `requestTimeout`,
    /// `socketTimeout`, `Timeout`, `apiCallAttemptTimeout`.
    pub name: String,
    /// Where it is set.
    pub origin: Origin,
}

/// Where the messages a receive returns go, as far as its file shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Received {
    /// Every use of them, of their list and of their receipt handles was
    /// read in the file: none deletes them, none hands them to other code.
    Kept,
    /// They are deleted or may be, where sqsguard does not look: the file
    /// deletes messages, or they leave what was read (why: `it is passed
    /// to process`, `it is returned`).
    Elsewhere(String),
}

/// A timer or loop that repeats a call.
#[derive(Clone, Debug)]
pub struct Heartbeat {
    /// Its period.
    pub seconds: f64,
    /// What repeats it: `setInterval`, `sleep`, `time.NewTicker`,
    /// `scheduleAtFixedRate`.
    pub how: String,
    /// Where the timer is made, or the loop waits.
    pub origin: Origin,
}

/// A request parameter written in a call.
#[derive(Clone, Debug)]
pub struct Arg {
    /// The API's name (`WaitTimeSeconds`).
    pub name: &'static str,
    /// Its integer value, when it is a literal one.
    pub int: Option<i64>,
    pub origin: Origin,
    /// The part of a message it reads, when it reads one where the code
    /// can tell (a `ReceiptHandle` written as `m["MessageId"]`): read for
    /// a receipt handle only.
    pub reads: Option<PartRead>,
}

/// A part of a received message (or of a Lambda event's record) read in
/// code: `m["MessageId"]`, `msg.ReceiptHandle`, `message.body()`,
/// `message.message_id`.
#[derive(Clone, Debug)]
pub struct PartRead {
    pub part: MessagePart,
    /// The part's name where it is written (the key, the property, the
    /// method): what a fix renames.
    pub name: Origin,
    /// The access is written in the argument itself, not in a value a
    /// name is bound to elsewhere (which other code may read too).
    pub direct: bool,
}

/// What of a message a value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessagePart {
    ReceiptHandle,
    MessageId,
    Body,
    Md5OfBody,
    /// One of its attributes or message attributes.
    Attribute,
    /// Not the message's at all: the queue's URL, written as the call's
    /// `QueueUrl` is.
    QueueUrl,
}

impl MessagePart {
    /// As the API names it.
    pub fn name(self) -> &'static str {
        match self {
            MessagePart::ReceiptHandle => "ReceiptHandle",
            MessagePart::MessageId => "MessageId",
            MessagePart::Body => "Body",
            MessagePart::Md5OfBody => "MD5OfBody",
            MessagePart::Attribute => "an attribute",
            MessagePart::QueueUrl => "the queue URL",
        }
    }
}

/// What the code does with a batch call's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultUse {
    /// Not a batch call, or it cannot be told.
    Unknown,
    /// The result is dropped.
    Discarded,
    /// Kept, but its `Failed` list is never read.
    FailedUnread,
    /// Its `Failed` list is read (or the result leaves the function: it
    /// may be read elsewhere).
    Checked,
}

impl SdkCall {
    /// The argument named `name`, when written.
    pub fn arg(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|a| a.name == name)
    }

    /// Its parameters as written: each entry's own for a batch, the
    /// call's for any other.
    pub fn written(&self) -> Vec<&Arg> {
        if self.operation.is_batch() { self.entries.iter().flatten().collect() } else { self.args.iter().collect() }
    }
}
