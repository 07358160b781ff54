//! Raises on a record's failure path, and those that are not, in each
//! language.

use super::super::handler::read;
use super::*;
use sqsguard_source::SourceFile;

/// The lines (1-based) of the handler's raises on a failure path.
fn lines(language: Language, name: &str, text: &str) -> Vec<usize> {
    let source = SourceFile::new("app", text.to_string());
    let unit = Unit::parse(&source, language).unwrap();
    let handler = read(&unit, name, 0).unwrap();
    handler.raises.iter().filter_map(|o| o.location().map(|l| l.line)).collect()
}

#[test]
fn python_re_raises_in_the_record_loop_and_nowhere_else() {
    let text = r#"def handler(event, context):
    failures = []
    for record in event["Records"]:
        try:
            work(record)
        except ValueError:
            failures.append({"itemIdentifier": record["messageId"]})
            raise
        except KeyError as e:
            if fatal(e):
                raise RuntimeError("stop") from e
    for attempt in range(3):
        try:
            flush()
        except IOError:
            raise
    try:
        for record in event["Records"]:
            try:
                work(record)
            except ValueError:
                raise
    except ValueError:
        pass
    return {"batchItemFailures": failures}
"#;
    // Not the retry loop's (no records), nor the one an outer try catches.
    assert_eq!(lines(Language::Python, "handler", text), [8, 11]);
}

#[test]
fn javascript_throws_in_a_catch_of_for_of_records() {
    let text = r#"export const handler = async (event) => {
  const batchItemFailures = [];
  for (const record of event.Records) {
    try {
      await work(record);
    } catch (err) {
      batchItemFailures.push({ itemIdentifier: record.messageId });
      throw err;
    }
  }
  for (const record of event.Records) {
    try { await work(record); } catch (err) { batchItemFailures.push({ itemIdentifier: record.messageId }); }
    if (!record.body) throw new Error("empty");
  }
  return { batchItemFailures };
};
"#;
    assert_eq!(lines(Language::JavaScript, "handler", text), [8]);
}

#[test]
fn java_throws_from_a_catch_in_the_records_loop() {
    let text = r#"class H implements RequestHandler<SQSEvent, SQSBatchResponse> {
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    for (SQSEvent.SQSMessage m : event.getRecords()) {
      try {
        work(m);
      } catch (Exception e) {
        failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
        throw new RuntimeException(e);
      }
    }
    return new SQSBatchResponse(failures);
  }
}
"#;
    assert_eq!(lines(Language::Java, "handleRequest", text), [9]);
}

#[test]
fn go_returns_an_error_inside_the_records_loop_not_nil() {
    let text = r#"package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
)

func handle(ctx context.Context, event events.SQSEvent) (events.SQSEventResponse, error) {
	var failures []events.SQSBatchItemFailure
	for _, record := range event.Records {
		if err := work(record); err != nil {
			failures = append(failures, events.SQSBatchItemFailure{ItemIdentifier: record.MessageId})
			return events.SQSEventResponse{BatchItemFailures: failures}, err
		}
		if record.Body == "" {
			return events.SQSEventResponse{}, nil
		}
	}
	return events.SQSEventResponse{BatchItemFailures: failures}, nil
}

func main() { lambda.Start(handle) }
"#;
    assert_eq!(lines(Language::Go, "", text), [15]);
}

#[test]
fn a_raise_after_the_record_loop_on_what_it_wrote_and_no_other() {
    let python = r#"def handler(event, context):
    failures = []
    seen = 0
    for record in event["Records"]:
        seen += 1
        try:
            work(record)
        except ValueError:
            failures.append({"itemIdentifier": record["messageId"]})
    if seen == 0:
        raise ValueError("an empty batch")
    if not ready():
        raise RuntimeError("not ready")
    if failures:
        raise RuntimeError(f"{len(failures)} failed")
    return {"batchItemFailures": failures}
"#;
    assert_eq!(lines(Language::Python, "handler", python), [15]);
    let javascript = r#"export const handler = async (event) => {
  let failed = false;
  const batchItemFailures = [];
  for (const record of event.Records) {
    try { await work(record); } catch (err) { failed = true; batchItemFailures.push({ itemIdentifier: record.messageId }); }
  }
  if (failed) { throw new Error("a record failed"); }
  return { batchItemFailures };
};
"#;
    assert_eq!(lines(Language::JavaScript, "handler", javascript), [7]);
    let go = r#"package main
func handler(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	var failures []events.SQSBatchItemFailure
	for _, r := range ev.Records {
		if err := work(r); err != nil {
			failures = append(failures, events.SQSBatchItemFailure{ItemIdentifier: r.MessageId})
		}
	}
	if cfg == nil {
		return events.SQSEventResponse{}, errNoConfig
	}
	if len(failures) > 0 {
		return events.SQSEventResponse{BatchItemFailures: failures}, errFailed
	}
	return events.SQSEventResponse{BatchItemFailures: failures}, nil
}

func main() { lambda.Start(handler) }
"#;
    assert_eq!(lines(Language::Go, "", go), [13]);
}

#[test]
fn a_throw_in_a_catch_of_a_for_each_callback_over_the_records() {
    let text = r#"export const handler = async (event) => {
  const batchItemFailures = [];
  event.Records.forEach((record) => {
    try {
      work(record);
    } catch (err) {
      batchItemFailures.push({ itemIdentifier: record.messageId });
      throw err;
    }
  });
  [1, 2].forEach((n) => {
    try { work(n); } catch (err) { throw err; }
  });
  try {
    event.Records.forEach((record) => {
      try { work(record); } catch (err) { throw err; }
    });
  } catch (err) {
    console.log(err);
  }
  return { batchItemFailures };
};
"#;
    // Not the loop over other things, nor the one a try around catches.
    assert_eq!(lines(Language::JavaScript, "handler", text), [8]);
}
