//! Tests of the resolver: parameters, unknowns, and each intrinsic function.

use super::*;
use sqsguard_source::SourceFile;
use sqsguard_syntax::yaml;

fn resolve_prop(text: &str, prop: &str) -> R {
    let f = SourceFile::new("t.yaml", text.to_string());
    let root = yaml::parse(&f).unwrap();
    let t = Template::find(&root).unwrap();
    let q = t.resource("Q").unwrap();
    Resolver::new(&t).resolve(q.properties.unwrap().get(prop).unwrap())
}

const HEAD: &str = "AWSTemplateFormatVersion: '2010-09-09'\nParameters:\n  VT: {Type: Number, Default: 60}\n  NoDefault: {Type: String}\n  Env: {Type: String, Default: prod}\nMappings:\n  Cfg: {prod: {Vt: 900}}\nConditions:\n  IsProd: !Equals [!Ref Env, prod]\nResources:\n  F: {Type: AWS::Lambda::Function}\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n";

#[test]
fn parameter_default_resolves_at_the_use_site() {
    let text = format!("{HEAD}      A: !Ref VT\n");
    let r = resolve_prop(&text, "A");
    assert_eq!(r.v, RV::Num(60.0));
    assert!(text[r.span.start..].starts_with("!Ref VT"));
}

#[test]
fn unknowns_stay_unknown() {
    for expr in ["!Ref NoDefault", "!ImportValue shared-queue-arn", "'{{resolve:ssm:/x}}'", "!GetAZs ''"] {
        let r = resolve_prop(&format!("{HEAD}      A: {expr}\n"), "A");
        assert!(matches!(r.v, RV::Unknown(_)), "{expr}: {:?}", r.v);
    }
}

#[test]
fn sub_join_findinmap_select_split() {
    let r = resolve_prop(&format!("{HEAD}      A: !Sub '${{AWS::StackName}}-${{Env}}-q.fifo'\n"), "A");
    let t = r.text().unwrap();
    assert_eq!(t.display(), "${AWS::StackName}-prod-q.fifo");
    assert!(t.ends_literal());
    let r = resolve_prop(&format!("{HEAD}      A: !Sub '${{F.Arn}}'\n"), "A");
    assert_eq!(r.text().unwrap().reference(), Some(("F", "Arn")));
    let r = resolve_prop(&format!("{HEAD}      A: !Join ['-', [a, !Ref Env]]\n"), "A");
    assert_eq!(r.literal().as_deref(), Some("a-prod"));
    let r = resolve_prop(&format!("{HEAD}      A: !FindInMap [Cfg, !Ref Env, Vt]\n"), "A");
    assert_eq!(r.v, RV::Num(900.0));
    let r = resolve_prop(&format!("{HEAD}      A: !Select [1, !Split [',', 'x,y,z']]\n"), "A");
    assert_eq!(r.literal().as_deref(), Some("y"));
}

#[test]
fn if_keeps_both_branches() {
    let r = resolve_prop(&format!("{HEAD}      A: !If [IsProd, 900, !Ref AWS::NoValue]\n"), "A");
    let alts = r.alternatives();
    assert_eq!(alts.len(), 2);
    assert_eq!(alts[0].1.v, RV::Num(900.0));
    assert_eq!(alts[1].1.v, RV::NoValue);
    assert_eq!(alts[1].0.to_string(), " (when condition IsProd is false)");
}
