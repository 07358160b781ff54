use super::*;
use sqsguard_source::SourceFile;

fn parse(source: sqsguard_source::Source, language: Language) -> crate::index::Parsed {
    let syntax = crate::syntax::Syntax::Code(language);
    let tree = syntax.parse(&source).unwrap();
    crate::index::Parsed { source, language: syntax, tree }
}

fn index_of(path: &str, text: &str) -> FileIndex {
    let source = SourceFile::new(path, text.to_string());
    let language = Language::of_path(std::path::Path::new(path)).unwrap();
    index(&parse(source, language)).unwrap()
}

fn line_of(made: &Made, at: usize) -> usize {
    made.file.position(at).line
}

#[test]
fn typescript_constructs_with_their_ids_classes_bindings_and_props() {
    let text = r#"
class Pipeline extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const jobs = new sqs.Queue(this, "Jobs", {
      visibilityTimeout: Duration.seconds(30),
    });
    this.worker = new lambda.Function(this, `Worker`, { timeout });
    this.worker.addEventSource(new SqsEventSource(jobs, { batchSize: 10 }));
    for (const n of names) { new sqs.Queue(this, `${n}-Dlq`); }
  }
}
"#;
    let found = index_of("lib/pipeline.ts", text);
    let jobs = &found.made[0];
    assert_eq!((jobs.class.as_str(), jobs.id.as_deref()), ("Queue", Some("Jobs")));
    assert_eq!((jobs.within.as_deref(), jobs.bound.as_deref()), (Some("Pipeline"), Some("jobs")));
    assert_eq!(jobs.props.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["visibilityTimeout"]);
    assert_eq!(line_of(jobs, jobs.props[0].span.start), 6);
    assert_eq!(line_of(jobs, jobs.head.start), 5);
    let worker = &found.made[1];
    assert_eq!((worker.id.as_deref(), worker.bound.as_deref()), (Some("Worker"), Some("worker")));
    assert_eq!(worker.props[0].name, "timeout");
    assert_eq!(found.added.len(), 1);
    let added = &found.added[0];
    assert_eq!((added.receiver.as_str(), added.source.first.as_deref()), ("worker", Some("jobs")));
    assert_eq!(added.source.props[0].name, "batchSize");
    let dlq = found.made.iter().find(|m| m.in_loop).unwrap();
    assert_eq!(dlq.id, None);
}

#[test]
fn python_constructs_with_keyword_props() {
    let text = r#"
class WorkersStack(Stack):
    def __init__(self, scope, id):
        super().__init__(scope, id)
        jobs = sqs.Queue(self, "Jobs", visibility_timeout=Duration.seconds(30))
        fn = lambda_.Function(
            self,
            "Worker",
            timeout=Duration.minutes(2),
        )
        fn.add_event_source(SqsEventSource(jobs, batch_size=10))
        sqs.Queue(self, f"{name}Dlq")
        Duration.seconds(3)
"#;
    let found = index_of("app.py", text);
    let names: Vec<_> = found.made.iter().map(|m| (m.class.as_str(), m.id.as_deref())).collect();
    assert_eq!(
        names,
        [("Queue", Some("Jobs")), ("Function", Some("Worker")), ("SqsEventSource", None), ("Queue", None)]
    );
    assert_eq!(found.made[0].props[0].name, "visibility_timeout");
    assert_eq!(found.made[1].within.as_deref(), Some("WorkersStack"));
    assert_eq!(line_of(&found.made[1], found.made[1].head.start), 6);
    assert_eq!(found.added[0].receiver, "fn");
    assert_eq!(found.added[0].source.props[0].name, "batch_size");
}

#[test]
fn a_file_nested_deeper_than_the_code_reader_reads_is_not_indexed() {
    let deep = format!("const q = {}new sqs.Queue(this, \"Jobs\"){};\n", "[".repeat(450), "]".repeat(450));
    let source = SourceFile::new("deep.ts", deep);
    let why = index(&parse(source, Language::TypeScript)).err().unwrap();
    assert!(why.contains("nests deeper than 400 levels"), "{why}");
    let shallow = format!("const q = {}new sqs.Queue(this, \"Jobs\"){};\n", "[".repeat(100), "]".repeat(100));
    assert_eq!(index_of("shallow.ts", &shallow).made.len(), 1);
}
