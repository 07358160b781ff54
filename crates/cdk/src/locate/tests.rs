use std::collections::HashMap;

use super::*;
use crate::syntax::Syntax;
use sqsguard_model::code::Language;
use sqsguard_source::Overlay;

const STACK: &str = r#"
class Orders extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new sqs.Queue(this, "Jobs");
  }
}
class Billing extends Construct {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    const jobs = new sqs.Queue(this, "Jobs", { visibilityTimeout: Duration.seconds(30) });
    const worker = new lambda.Function(this, "Worker", { timeout: Duration.minutes(2) });
    worker.addEventSource(new SqsEventSource(jobs, { batchSize: 10 }));
    for (const name of ["a", "b"]) {
      new sqs.Queue(this, "Looped");
    }
  }
}
class AppStack extends Stack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new Orders(this, "Orders");
    new Billing(this, "Billing");
    new sqs.Queue(this, `${id}-Dynamic`);
  }
}
"#;

const CLASSES: [(&str, &str); 4] = [
    ("AppStack/Orders/Jobs", "aws-cdk-lib.aws_sqs.Queue"),
    ("AppStack/Billing/Jobs", "aws-cdk-lib.aws_sqs.Queue"),
    ("AppStack/Billing/Worker", "aws-cdk-lib.aws_lambda.Function"),
    ("AppStack/Billing/Looped", "aws-cdk-lib.aws_sqs.Queue"),
];

/// The line the construct of `path` is found on by its ids (no creation
/// stacks), or why it is not.
fn line_of(path: &str) -> Result<usize, String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("stack.ts");
    std::fs::write(&file, STACK).unwrap();
    let lookup = Lookup::new(dir.path(), vec![file], Syntax::Code(Language::TypeScript), Overlay::default(), None);
    let classes: HashMap<String, String> = CLASSES.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect();
    let classes_of = || Ok(&classes);
    let traces = HashMap::new();
    let source = Source { lookup: &lookup, traces: &traces, classes: &classes_of };
    let owner = Owner::of(path);
    match source.locate(&owner) {
        Found::At(made) => {
            assert_eq!(source.kind(&owner, made).is_some(), !path.contains("Looped"));
            Ok(made.file.position(made.head.start).line)
        }
        Found::No(why) => Err(why),
    }
}

#[test]
fn the_same_id_under_two_parents_is_told_apart_by_the_parents_classes() {
    assert_eq!(line_of("AppStack/Orders/Jobs/Resource"), Ok(5));
    assert_eq!(line_of("AppStack/Billing/Jobs/Resource"), Ok(11));
    assert_eq!(line_of("AppStack/Billing/Worker/Resource"), Ok(12));
}

#[test]
fn a_mapping_is_the_event_source_added_to_its_function() {
    assert_eq!(line_of("AppStack/Billing/Worker/SqsEventSource:AppStackBillingJobs1A2B3C4D/Resource"), Ok(13));
}

#[test]
fn a_construct_in_a_loop_or_with_an_id_built_at_run_time_is_not_located() {
    let looped = line_of("AppStack/Billing/Looped/Resource").unwrap_err();
    assert!(looped.contains("in a loop"), "{looped}");
    let dynamic = line_of("AppStack/AppStack-Dynamic/Resource").unwrap_err();
    assert!(dynamic.contains("no construct with the id"), "{dynamic}");
}

#[test]
fn without_tree_json_a_search_says_so() {
    let lookup = Lookup::default();
    let classes_of = || Err("tree.json cannot be read".to_string());
    let traces = HashMap::new();
    let source = Source { lookup: &lookup, traces: &traces, classes: &classes_of };
    let Found::No(why) = source.locate(&Owner::of("AppStack/Orders/Jobs/Resource")) else { panic!("found") };
    assert!(why.contains("no readable tree.json"), "{why}");
}

/// The line and property names of the construct `path` names in `text`
/// (a file of `language` named `name`), or why it is not found.
fn found_in(
    name: &str,
    text: &str,
    language: Syntax,
    classes: &[(&str, &str)],
    path: &str,
) -> Result<(usize, Vec<String>), String> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, text).unwrap();
    let lookup = Lookup::new(dir.path(), vec![file], language, Overlay::default(), None);
    let classes: HashMap<String, String> = classes.iter().map(|(p, c)| (p.to_string(), c.to_string())).collect();
    let classes_of = || Ok(&classes);
    let traces = HashMap::new();
    let source = Source { lookup: &lookup, traces: &traces, classes: &classes_of };
    match source.locate(&Owner::of(path)) {
        Found::At(made) => {
            Ok((made.file.position(made.head.start).line, made.props.iter().map(|p| p.name.clone()).collect()))
        }
        Found::No(why) => Err(why),
    }
}

#[test]
fn java_constructs_by_new_and_by_builder_with_their_builder_props() {
    let text = r#"
public class Pipeline extends Construct {
    public Pipeline(final Construct scope, final String id) {
        super(scope, id);
        Queue jobs = Queue.Builder.create(this, "Jobs")
                .visibilityTimeout(Duration.seconds(30))
                .build();
        Function worker = new Function(this, "Worker", FunctionProps.builder()
                .timeout(Duration.minutes(2))
                .build());
        worker.addEventSource(new SqsEventSource(jobs, SqsEventSourceProps.builder().batchSize(10).build()));
    }
}
public class WorkersStack extends Stack {
    public WorkersStack(final Construct scope, final String id) {
        super(scope, id);
        new Pipeline(this, "Orders");
    }
}
"#;
    let classes = [
        ("Workers/Orders/Jobs", "aws-cdk-lib.aws_sqs.Queue"),
        ("Workers/Orders/Worker", "aws-cdk-lib.aws_lambda.Function"),
    ];
    let at = |path| found_in("Pipeline.java", text, Syntax::Code(Language::Java), &classes, path);
    assert_eq!(at("Workers/Orders/Jobs/Resource"), Ok((5, vec!["visibilityTimeout".to_string()])));
    assert_eq!(at("Workers/Orders/Worker/Resource"), Ok((8, vec!["timeout".to_string()])));
    let mapping = at("Workers/Orders/Worker/SqsEventSource:WorkersOrdersJobs1A2B3C4D/Resource");
    assert_eq!(mapping, Ok((11, vec!["batchSize".to_string()])));
}

#[test]
fn go_constructs_by_their_new_functions_with_their_fields() {
    let text = r#"
package main

func NewPipeline(scope constructs.Construct, id string) constructs.Construct {
	this := constructs.NewConstruct(scope, &id)
	jobs := awssqs.NewQueue(this, jsii.String("Jobs"), &awssqs.QueueProps{
		VisibilityTimeout: awscdk.Duration_Seconds(jsii.Number(30)),
	})
	worker := awslambda.NewFunction(this, jsii.String("Worker"), &awslambda.FunctionProps{
		Timeout: awscdk.Duration_Minutes(jsii.Number(2)),
	})
	worker.AddEventSource(awslambdaeventsources.NewSqsEventSource(jobs, &awslambdaeventsources.SqsEventSourceProps{
		BatchSize: jsii.Number(10),
	}))
	return this
}

func NewWorkersStack(scope constructs.Construct, id string) awscdk.Stack {
	stack := awscdk.NewStack(scope, &id, nil)
	NewPipeline(stack, "Orders")
	return stack
}
"#;
    let classes = [
        ("Workers/Orders/Jobs", "aws-cdk-lib.aws_sqs.Queue"),
        ("Workers/Orders/Worker", "aws-cdk-lib.aws_lambda.Function"),
    ];
    let at = |path| found_in("workers.go", text, Syntax::Code(Language::Go), &classes, path);
    assert_eq!(at("Workers/Orders/Jobs/Resource"), Ok((6, vec!["VisibilityTimeout".to_string()])));
    assert_eq!(at("Workers/Orders/Worker/Resource"), Ok((9, vec!["Timeout".to_string()])));
    let mapping = at("Workers/Orders/Worker/SqsEventSource:WorkersOrdersJobs1A2B3C4D/Resource");
    assert_eq!(mapping, Ok((12, vec!["BatchSize".to_string()])));
}

#[test]
fn csharp_constructs_with_their_object_initializer_props() {
    let text = r#"
namespace Workers
{
    public class Pipeline : Construct
    {
        public Pipeline(Construct scope, string id) : base(scope, id)
        {
            var jobs = new Queue(this, "Jobs", new QueueProps
            {
                VisibilityTimeout = Duration.Seconds(30)
            });
            var worker = new Function(this, "Worker", new FunctionProps { Timeout = Duration.Minutes(2) });
            worker.AddEventSource(new SqsEventSource(jobs, new SqsEventSourceProps { BatchSize = 10 }));
        }
    }

    public class WorkersStack : Stack
    {
        internal WorkersStack(Construct scope, string id) : base(scope, id)
        {
            new Pipeline(this, "Orders");
        }
    }
}
"#;
    let classes = [
        ("Workers/Orders/Jobs", "aws-cdk-lib.aws_sqs.Queue"),
        ("Workers/Orders/Worker", "aws-cdk-lib.aws_lambda.Function"),
    ];
    let at = |path| found_in("Pipeline.cs", text, Syntax::CSharp, &classes, path);
    assert_eq!(at("Workers/Orders/Jobs/Resource"), Ok((8, vec!["VisibilityTimeout".to_string()])));
    assert_eq!(at("Workers/Orders/Worker/Resource"), Ok((12, vec!["Timeout".to_string()])));
    let mapping = at("Workers/Orders/Worker/SqsEventSource:WorkersOrdersJobs1A2B3C4D/Resource");
    assert_eq!(mapping, Ok((13, vec!["BatchSize".to_string()])));
}
