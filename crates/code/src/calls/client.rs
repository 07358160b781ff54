//! Which AWS service a client is: a call is SQS's only behind an SQS
//! client (or a client that is not known, in a file that uses SQS).
//! `boto3.client("pinpoint").send_messages(...)` is Pinpoint's.

use tree_sitter::Node;

use super::*;
use crate::unit::Binding as Bound;

impl<'a> Reader<'a> {
    /// The service of the client `node` is (or is bound to), lowercase:
    /// boto3 `client("sqs")` / `resource("sqs")`, JavaScript `new
    /// SQSClient()` / `new AWS.SQS()`, Go `sqs.NewFromConfig(cfg)`, Java
    /// `SqsClient.builder()...build()`, `AmazonSQSClientBuilder...`.
    /// `None` when it is not known.
    pub(super) fn service_of(&self, node: Node<'a>, steps: usize) -> Option<String> {
        if steps > MAX_STEPS {
            return None;
        }
        let node = self.strip(node);
        match node.kind() {
            "identifier" | "field_identifier" => {
                let b = self.bound(self.text_of(node), node.start_byte())?;
                self.service_of(b.value, steps + 1)
            }
            // Python: `boto3.client("sqs")`, `session.resource("sqs", ...)`.
            "call" => {
                let f = node.child_by_field_name("function")?;
                let name = f.child_by_field_name("attribute").map_or(self.text_of(f), |a| self.text_of(a));
                if !matches!(name, "client" | "resource") {
                    return None;
                }
                let first = node.child_by_field_name("arguments")?.named_child(0)?;
                let first = if first.kind() == "keyword_argument" {
                    (first.child_by_field_name("name").map(|n| self.text_of(n)) == Some("service_name"))
                        .then(|| first.child_by_field_name("value"))??
                } else {
                    first
                };
                (first.kind() == "string").then(|| unquote(self.text_of(first)).to_ascii_lowercase())
            }
            // JavaScript: `new AWS.SQS()`, or a client of an
            // `@aws-sdk/client-*` package (`new SQSClient({})`).
            "new_expression" => {
                let class = self.text_of(node.child_by_field_name("constructor")?);
                if let Some(service) = class.strip_prefix("AWS.") {
                    return Some(service.to_ascii_lowercase());
                }
                let import = self.unit.imports.iter().find(|i| match &i.binding {
                    Bound::Name { local, .. } | Bound::Module(local) => local == class,
                    Bound::Every => false,
                })?;
                import.source.strip_prefix("@aws-sdk/client-").map(str::to_ascii_lowercase)
            }
            // Go: `sqs.NewFromConfig(cfg)`, `sqs.New(sess)`.
            "call_expression" => {
                let f = node.child_by_field_name("function")?;
                let (package, made) = (f.child_by_field_name("operand")?, f.child_by_field_name("field")?);
                matches!(self.text_of(made), "NewFromConfig" | "New" | "NewFromConfigWithOptions")
                    .then(|| self.text_of(package).to_ascii_lowercase())
            }
            // Java: `SqsClient.builder()...build()`, `SqsClient.create()`,
            // `AmazonSQSClientBuilder.defaultClient()`.
            "method_invocation" => {
                let mut at = node;
                while let Some(object) = at.child_by_field_name("object") {
                    at = object;
                }
                let class = self.text_of(at);
                let class = class.rsplit('.').next().unwrap_or(class);
                let service = class
                    .strip_suffix("ClientBuilder")
                    .or_else(|| class.strip_suffix("AsyncClient"))
                    .or_else(|| class.strip_suffix("Client"))?;
                let service = service.strip_prefix("Amazon").unwrap_or(service);
                let service = service.strip_suffix("Async").unwrap_or(service);
                (!service.is_empty()).then(|| service.to_ascii_lowercase())
            }
            _ => None,
        }
    }

    /// Whether a call the patterns found is SQS's by its client: `false`
    /// when the client is known to be another service's, or (not known)
    /// when neither the file nor the request (a `QueueUrl`) names SQS; and
    /// a JavaScript command imported from another service's package is
    /// not SQS's.
    pub(super) fn sqs_client(&self, call: Node<'a>, receiver: Option<Node<'a>>, request: &Request<'a>) -> bool {
        if let Some(service) = receiver.and_then(|r| self.service_of(r, 0)) {
            return service.contains("sqs");
        }
        if call.kind() == "new_expression"
            && let Some(class) = call.child_by_field_name("constructor").map(|c| self.text_of(c))
            && let Some(import) =
                self.unit.imports.iter().find(|i| matches!(&i.binding, Bound::Name { local, .. } if local == class))
        {
            return import.source.to_ascii_lowercase().contains("sqs");
        }
        self.uses_sqs || request.params.iter().any(|p| p.0 == "QueueUrl")
    }

    /// Whether the client is the SDK's batching layer rather than SQS's
    /// own API: Java v2's `SqsAsyncBatchManager` (`sqsAsyncClient
    /// .batchManager()`), v1's `AmazonSQSBufferedAsyncClient`. It receives
    /// with its own wait and batch size, and sends and deletes in batches
    /// of its making, so what the code writes is not all SQS is sent.
    pub(super) fn batching_client(&self, node: Node<'a>, steps: usize) -> bool {
        let text = self.text_of(node).to_ascii_lowercase();
        if text.contains("batchmanager") || text.contains("buffered") {
            return true;
        }
        let node = self.strip(node);
        matches!(node.kind(), "identifier" | "field_identifier")
            && steps < MAX_STEPS
            && self
                .bound(self.text_of(node), node.start_byte())
                .is_some_and(|b| self.batching_client(b.value, steps + 1))
    }
}
