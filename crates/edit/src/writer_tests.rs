//! The writer's own cases: what it edits, and why it refuses.

use super::*;
use sqsguard_model::Field;
use sqsguard_source::SourceFile;

fn remedy(file: &Source, at: Span, op: Op) -> Remedy {
    Remedy {
        resource: "Q".into(),
        field: Some(Field::VisibilityTimeout),
        ops: vec![op],
        at: Origin::file(file, at),
        absent: false,
        conditional: false,
        given: None,
        applicability: Applicability::Safe,
    }
}

fn template(text: &str) -> (Source, Writer) {
    let file: Source = SourceFile::new("t.yaml", text.to_string());
    let root = sqsguard_syntax::yaml::parse(&file).unwrap_or_else(|e| panic!("{}", e.message));
    let writer = Writer::template(&file, root);
    (file, writer)
}

const QUEUE: &str = "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 30\n";

#[test]
fn a_literal_is_replaced_in_the_tree_the_front_end_parsed() {
    let (file, mut writer) = template(QUEUE);
    let at = Span::new(QUEUE.find("30").unwrap_or(0), QUEUE.find("30").unwrap_or(0) + 2);
    let fix = writer.fix(&remedy(&file, at, Op::Set(Scalar::Int(180)))).unwrap_or_else(|e| panic!("{}", e.0));
    assert_eq!(fix.edits.len(), 1);
    assert_eq!(fix.edits[0].replacement, "180");
    assert_eq!(fix.edits[0].span, at);
    assert_eq!(fix.applicability, Applicability::Safe);
}

#[test]
fn a_remedy_with_no_fix_says_why() {
    let (file, mut writer) = template(QUEUE);
    let at = Span::new(0, 9);
    let mut r = remedy(&file, at, Op::Set(Scalar::Int(180)));
    r.conditional = true;
    assert_eq!(writer.fix(&r).err(), Some(CONDITIONAL));
    r.conditional = false;
    r.given = Some("--stage prod".into());
    assert_eq!(writer.fix(&r).err(), Some(GIVEN));
    r.given = None;
    // `Resources:` is no value of the resource's field.
    assert_eq!(writer.fix(&r).err(), Some(CANNOT));
    let other: Source = SourceFile::new("plan.json", "{}".to_string());
    assert_eq!(writer.fix(&remedy(&other, at, Op::Set(Scalar::Int(1)))).err(), Some(NOT_HELD));
}

#[test]
fn a_document_that_is_no_template_holds_nothing_to_edit() {
    let (file, mut writer) = template("jobs:\n  build:\n    runs-on: ubuntu-latest\n");
    let at = Span::new(0, 4);
    assert_eq!(writer.fix(&remedy(&file, at, Op::Set(Scalar::Int(1)))).err(), Some(NOT_HELD));
}
