//! Tests of the YAML reader: tags, the core schema, aliases and their
//! budget, nesting, duplicate keys, a BOM, spans and syntax errors.

use super::*;
use sqsguard_source::SourceFile;

fn tree(text: &str) -> (std::sync::Arc<SourceFile>, Node) {
    let f = SourceFile::new("t.yaml", text.to_string());
    let n = parse(&f).unwrap();
    (f, n)
}

fn text(f: &SourceFile, s: Span) -> &str {
    &f.text[s.start..s.end]
}

#[test]
fn short_tags_become_long_form_with_tag_span() {
    let (f, n) = tree("A: !Ref Param\nB: !GetAtt Queue.Arn\nC: !Sub\n  - '${x}'\n  - x: 1\n");
    let a = n.get("A").unwrap().single_entry().unwrap();
    assert_eq!(a.key, "Ref");
    assert_eq!(text(&f, a.key_span), "!Ref");
    assert_eq!(a.value.as_str(), Some("Param"));
    assert_eq!(text(&f, a.value.span), "Param");
    let b = n.get("B").unwrap().get("Fn::GetAtt").unwrap().as_seq().unwrap();
    assert_eq!((b[0].as_str(), b[1].as_str()), (Some("Queue"), Some("Arn")));
    assert_eq!(text(&f, b[1].span), "Arn");
    let c = n.get("C").unwrap().get("Fn::Sub").unwrap().as_seq().unwrap();
    assert_eq!(c.len(), 2);
}

#[test]
fn scalars_follow_the_core_schema() {
    let (_, n) = tree("a: 30\nb: '30'\nc: true\nd: yes\ne: ~\n");
    assert_eq!(n.get("a").unwrap().kind, Kind::Number("30".into()));
    assert_eq!(n.get("b").unwrap().kind, Kind::String("30".into()));
    assert_eq!(n.get("c").unwrap().kind, Kind::Bool(true));
    assert_eq!(n.get("d").unwrap().kind, Kind::String("yes".into()));
    assert_eq!(n.get("e").unwrap().kind, Kind::Null);
}

#[test]
fn aliases_expand_within_budget_and_bombs_are_refused() {
    let (_, n) = tree("a: &x {k: 1}\nb: *x\n");
    assert_eq!(n.get("b").unwrap().get("k").unwrap().kind, Kind::Number("1".into()));

    let mut bomb = String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for i in 1..12 {
        let prev = (b'a' + i - 1) as char;
        let cur = (b'a' + i) as char;
        bomb.push_str(&format!(
            "{cur}: &{cur} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"
        ));
    }
    let f = SourceFile::new("bomb.yaml", bomb);
    let err = parse(&f).unwrap_err();
    assert!(err.message.contains("alias bomb"), "{}", err.message);
    assert!(f.position(err.span.start).line > 1);
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep = "[".repeat(10_000) + &"]".repeat(10_000);
    let f = SourceFile::new("deep.yaml", deep);
    let err = parse(&f).unwrap_err();
    assert!(err.message.contains("nesting deeper"), "{}", err.message);
}

#[test]
fn a_flow_or_quoted_value_may_close_at_its_keys_column() {
    // What libyaml (PyYAML, cfn-lint) accepts and strict YAML 1.2
    // parsers refuse: the closing line at the column of the key.
    let quoted = "P:\n  PolicyDocument: !Sub '{\n    \"Version\": \"2012-10-17\"\n  }'\n  Next: 1\n";
    let (f, n) = tree(quoted);
    let doc = n.get("P").unwrap().get("PolicyDocument").unwrap().single_entry().unwrap();
    assert_eq!(doc.key, "Fn::Sub");
    assert_eq!(doc.value.as_str(), Some("{ \"Version\": \"2012-10-17\" }"));
    assert!(text(&f, doc.value.span).starts_with("'{") && text(&f, doc.value.span).ends_with("}'"));
    assert!(n.get("P").unwrap().get("Next").is_some());
    let flow = "P:\n  PolicyDocument: {\n    \"Version\": \"2012-10-17\"\n  }\n  List: [\n    a\n  ]\n";
    let (_, n) = tree(flow);
    let p = n.get("P").unwrap();
    assert_eq!(p.get("PolicyDocument").unwrap().get("Version").unwrap().as_str(), Some("2012-10-17"));
    assert_eq!(p.get("List").unwrap().as_seq().unwrap().len(), 1);
}

#[test]
fn a_key_written_twice_is_refused_at_the_second() {
    let f = SourceFile::new("t.yaml", "Q:\n  A: 1\n  B: {A: 2}\n  A: 3\n".to_string());
    let err = parse(&f).unwrap_err();
    assert_eq!(
        err.message,
        "duplicate key \"A\": it is already set on line 2, and a key may appear only once in a mapping"
    );
    let at = f.position(err.span.start);
    assert_eq!((at.line, at.column), (4, 3));
    assert_eq!(&f.text[err.span.start..err.span.end], "A");
    // Quoted or not, it is the same key; in two mappings it is no repeat.
    assert!(parse(&SourceFile::new("t.yaml", "a: 1\n'a': 2\n".to_string())).is_err());
    assert!(parse(&SourceFile::new("t.yaml", "a: {k: 1}\nb: {k: 1}\nc: [{k: 1}, {k: 2}]\n".to_string())).is_ok());
}

#[test]
fn a_byte_order_mark_is_stepped_over_and_offsets_stay_the_files() {
    let (f, n) = tree("\u{feff}Resources:\n  Q: !Ref X\n");
    let q = n.get("Resources").unwrap().entry("Q").unwrap();
    assert_eq!(text(&f, q.key_span), "Q");
    assert_eq!(text(&f, q.value.single_entry().unwrap().value.span), "X");
    assert_eq!(f.position(q.key_span.start).line, 2);
}

#[test]
fn core_tags_decide_the_kind() {
    let (_, n) = tree("a: !!str 30\nb: !!int '30'\nc: !!null ''\n");
    assert_eq!(n.get("a").unwrap().kind, Kind::String("30".into()));
    assert_eq!(n.get("b").unwrap().kind, Kind::Number("30".into()));
    assert_eq!(n.get("c").unwrap().kind, Kind::Null);
}

#[test]
fn a_control_character_is_refused_where_it_is() {
    let f = SourceFile::new("t.yaml", "a: 1\nb: x\u{7}y\n".to_string());
    let err = parse(&f).unwrap_err();
    assert_eq!(err.message, "YAML syntax error: control characters are not allowed (U+0007)");
    assert_eq!(&f.text[err.span.start..], "\u{7}y\n");
}

#[test]
fn a_block_scalar_starts_at_its_text() {
    let (f, n) = tree("a: |\n  line\nb: !Sub |\n  ${X}\n");
    assert!(text(&f, n.get("a").unwrap().span).starts_with("line"));
    assert_eq!(text(&f, n.get("b").unwrap().single_entry().unwrap().key_span), "!Sub");
}

#[test]
fn syntax_errors_carry_a_position() {
    let f = SourceFile::new("bad.yaml", "a: 1\nb: [1, 2\nc: 3\n".to_string());
    let err = parse(&f).unwrap_err();
    assert!(err.message.starts_with("YAML syntax error"));
    assert!(err.message.contains("that starts on line 2"), "{}", err.message);
    assert!(f.position(err.span.start).line >= 2);
}
