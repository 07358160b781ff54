use super::*;
use sqsguard_model::Origin;
use sqsguard_source::SourceFile;

/// A construct of `text` whose props are the `name: value` (or
/// `name=value`) members between `{`/`(` and the matching close.
fn construct(path: &str, text: &str, members: &[&str]) -> Construct {
    let file = SourceFile::new(path, text.to_string());
    let python = path.ends_with(".py");
    let props = members
        .iter()
        .map(|m| {
            let start = text.find(m).unwrap();
            let sep = if python { '=' } else { ':' };
            let name = m.split(sep).next().unwrap().trim().to_string();
            let value_start = start + m.find(sep).unwrap() + 1;
            let value_start = value_start + text[value_start..].len() - text[value_start..].trim_start().len();
            Prop { name, span: Span::new(start, start + m.len()), value: Span::new(value_start, start + m.len()) }
        })
        .collect::<Vec<_>>();
    let close = if python { text.rfind(')') } else { text.rfind('}') };
    let last = props.last().map(|p| p.span).or_else(|| {
        // Python: after the id argument.
        python.then(|| {
            let at = text.find("\"Jobs\"").unwrap();
            Span::new(at, at + 6)
        })
    });
    Construct { file, python, props, close, last }
}

fn remedy(field: Field, value: Scalar) -> Remedy {
    Remedy {
        resource: "Jobs".into(),
        field: Some(field),
        ops: vec![Op::Set(value)],
        at: Origin::path(std::path::Path::new("t.json")),
        absent: false,
        conditional: false,
        given: None,
        applicability: super::super::Applicability::Safe,
    }
}

fn fixed(c: &Construct, owner: CdkOwner, field: Field, value: Scalar) -> Result<String, Unfixable> {
    let fix = fix(&remedy(field, value), owner, c)?;
    let edit = &fix.edits[0];
    let mut text = c.file.text.clone();
    text.replace_range(edit.span.start..edit.span.end, &edit.replacement);
    Ok(text)
}

#[test]
fn a_duration_keeps_its_unit_when_the_value_divides_else_seconds() {
    let text = "new sqs.Queue(this, \"Jobs\", {\n  visibilityTimeout: Duration.minutes(2),\n});";
    let c = construct("a.ts", text, &["visibilityTimeout: Duration.minutes(2)"]);
    let q = CdkOwner::Queue;
    assert!(fixed(&c, q, Field::VisibilityTimeout, Scalar::Int(720)).unwrap().contains("Duration.minutes(12)"));
    assert!(fixed(&c, q, Field::VisibilityTimeout, Scalar::Int(750)).unwrap().contains("Duration.seconds(750)"));
    assert_eq!(fixed(&c, q, Field::VisibilityTimeout, Scalar::Int(120)), Err(SAME));
}

#[test]
fn an_absent_property_is_added_as_the_others_are_written() {
    let text = "new sqs.Queue(this, \"Jobs\", {\n  fifo: true,\n});\nconst t = cdk.Duration.seconds(5);";
    let c = construct("a.ts", text, &["fifo: true"]);
    let out = fixed(&c, CdkOwner::Queue, Field::VisibilityTimeout, Scalar::Int(180)).unwrap();
    assert!(out.contains("  fifo: true,\n  visibilityTimeout: cdk.Duration.seconds(180),\n});"), "{out}");
    let one_line = "new SqsEventSource(q, { batchSize: 10 });";
    let c = construct("a.ts", one_line, &["batchSize: 10"]);
    let list = Scalar::List(vec!["ReportBatchItemFailures".into()]);
    let out = fixed(&c, CdkOwner::Mapping, Field::FunctionResponseTypes, list).unwrap();
    assert_eq!(out, "new SqsEventSource(q, { batchSize: 10, reportBatchItemFailures: true });");
}

#[test]
fn python_keyword_arguments_in_snake_case() {
    let text = "q = sqs.Queue(\n    self,\n    \"Jobs\",\n    visibility_timeout=Duration.seconds(30),\n)\n";
    let c = construct("a.py", text, &["visibility_timeout=Duration.seconds(30)"]);
    let out = fixed(&c, CdkOwner::Queue, Field::VisibilityTimeout, Scalar::Int(720)).unwrap();
    assert!(out.contains("visibility_timeout=Duration.seconds(720),\n)"), "{out}");
    let bare = "q = sqs.Queue(self, \"Jobs\")\nDuration.seconds(1)";
    let c = construct("a.py", bare, &[]);
    let out = fixed(&c, CdkOwner::Queue, Field::FifoQueue, Scalar::Bool(true)).unwrap();
    assert!(out.starts_with("q = sqs.Queue(self, \"Jobs\", fifo=True)"), "{out}");
}

#[test]
fn a_value_that_is_no_literal_or_no_duration_in_the_file_has_no_fix() {
    let text = "new sqs.Queue(this, \"Jobs\", {\n  visibilityTimeout: timeout,\n});";
    let c = construct("a.ts", text, &["visibilityTimeout: timeout"]);
    assert_eq!(fixed(&c, CdkOwner::Queue, Field::VisibilityTimeout, Scalar::Int(60)), Err(NOT_LITERAL));
    let c = construct("a.ts", "new sqs.Queue(this, \"Jobs\", { fifo: true });", &["fifo: true"]);
    assert_eq!(fixed(&c, CdkOwner::Queue, Field::VisibilityTimeout, Scalar::Int(60)), Err(NO_DURATION));
    let mut c = construct("a.ts", "new sqs.Queue(this, \"Jobs\");", &[]);
    c.close = None;
    assert_eq!(fixed(&c, CdkOwner::Queue, Field::BatchSize, Scalar::Int(1)), Err(NOT_A_PROP));
    assert_eq!(fixed(&c, CdkOwner::Queue, Field::FifoQueue, Scalar::Bool(true)), Err(NOT_IN_PLACE));
}
