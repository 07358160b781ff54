//! What the page shows, as one serializable value: the counts, a row per
//! account-Region, a row per queue, a row per finding (with the index of
//! its queue's row), what was not audited, the notes and the graph.
//!
//! Two sources: a live audit, whose models list every queue read (with
//! its FIFO setting, dead-letter queue and consumers) and draw the graph
//! with its links; or a JSON report, which names only the queues that
//! have findings, so the page lists those and says that the rest are
//! counted, not listed. Every lookup goes through a map built once.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use sqsguard_finding::{Finding, Severity};
use sqsguard_lint::graph::{self, Graph, Piece};
use sqsguard_lint::outcome::{Outcome, Unaudited};
use sqsguard_model::{Index, Model, Origin, Queue, Target, Value};

#[derive(Serialize)]
pub(super) struct Page<'a> {
    pub version: u32,
    /// Where the data came from, for the heading.
    pub source: String,
    /// Whether `queues` lists every queue audited (a live audit) or only
    /// those with findings (a JSON report).
    pub complete: bool,
    pub summary: Counts,
    pub pairs: Vec<PairRow>,
    pub queues: Vec<QueueRow>,
    pub findings: Vec<FindingRow<'a>>,
    pub unaudited: &'a [Unaudited],
    pub notes: Vec<NoteRow<'a>>,
    pub graph: Graph,
}

#[derive(Serialize, Default)]
pub(super) struct Counts {
    pub queues: usize,
    pub account_regions: Option<usize>,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub findings: usize,
    pub unaudited: usize,
    pub suppressed: usize,
    pub api_calls: Option<usize>,
}

#[derive(Serialize, Default)]
pub(super) struct PairRow {
    pub account: String,
    pub region: String,
    /// Queues listed on the page in this pair.
    pub queues: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Not read, or read in part.
    pub unaudited: bool,
}

#[derive(Serialize)]
pub(super) struct QueueRow {
    pub name: String,
    pub url: String,
    pub account: String,
    pub region: String,
    /// `None`: not known (a JSON report says nothing of it).
    pub fifo: Option<bool>,
    pub dlq: Option<String>,
    pub consumers: Option<Vec<String>>,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

#[derive(Serialize)]
pub(super) struct FindingRow<'a> {
    pub rule: &'a str,
    pub name: &'a str,
    pub severity: Severity,
    pub message: Cow<'a, str>,
    pub fix: Cow<'a, str>,
    pub resource: &'a str,
    /// What people call the resource (`jobs-worker on jobs`), where the
    /// audit knew it.
    pub label: Option<&'a str>,
    pub account: &'a str,
    pub region: &'a str,
    /// The index of its queue's row, when it is about a queue.
    pub queue: Option<usize>,
}

#[derive(Serialize)]
pub(super) struct NoteRow<'a> {
    pub account: &'a str,
    pub region: &'a str,
    pub message: &'a str,
}

/// The account and Region of an origin, as the page writes them (`-`
/// when the audit did not learn the account).
fn place(origin: &Origin) -> (&str, &str) {
    let (account, region) = origin.account_region();
    (account.unwrap_or("-"), region.unwrap_or("-"))
}

/// A queue's name: the last segment of its URL.
fn queue_name(url: &str) -> &str {
    url.rsplit('/').find(|s| !s.is_empty()).unwrap_or(url)
}

fn is_url(resource: &str) -> bool {
    resource.starts_with("https://") || resource.starts_with("http://")
}

/// An account, a Region and a resource in it (a queue's URL, a mapping's UUID).
type Place = (String, String, String);

/// Every queue of a live audit's models as a row, each row's place
/// (account, Region, URL), and the queue each mapping reads (account,
/// Region, UUID -> URL).
fn live_rows(models: &[Model]) -> (Vec<QueueRow>, HashMap<Place, usize>, HashMap<Place, String>) {
    let mut queues: Vec<QueueRow> = Vec::new();
    // (account, Region, URL) -> its row.
    let mut row_of: HashMap<(String, String, String), usize> = HashMap::new();
    // (account, Region, mapping UUID) -> the URL of the queue it reads.
    let mut mapping_queue: HashMap<(String, String, String), String> = HashMap::new();
    for model in models {
        let index = Index::new(model);
        for (qi, q) in model.queues.iter().enumerate() {
            let row = queue_row(model, &index, qi, q);
            row_of.insert((row.account.clone(), row.region.clone(), q.resource.clone()), queues.len());
            queues.push(row);
        }
        for c in &model.consumers {
            let (account, region) = place(&c.origin);
            let target = c.queue.iter().find_map(|a| match a.value {
                Value::Known(Target::Queue(q)) => model.queues.get(q),
                _ => None,
            });
            if let Some(q) = target {
                mapping_queue.insert((account.into(), region.into(), c.resource.clone()), q.resource.clone());
            }
        }
    }
    (queues, row_of, mapping_queue)
}

/// A queue's row in a live audit's page: its type, dead-letter queue and
/// consumers as the model knows them.
fn queue_row(model: &Model, index: &Index<'_>, qi: usize, q: &Queue) -> QueueRow {
    let (account, region) = place(&q.origin);
    let fifo = q.fifo.iter().find_map(|a| a.value.known().copied());
    let fifo = fifo.or_else(|| q.fifo.iter().all(|a| matches!(a.value, Value::Absent)).then_some(false));
    let target = q.redrive.iter().find_map(|a| a.value.known()).map(|p| p.target.iter().find_map(|a| a.value.known()));
    let dlq = target.map(|t| match t {
        Some(Target::Queue(t)) => model.queues.get(*t).map_or("?", |d| queue_name(&d.resource)).to_string(),
        Some(Target::External(text)) => text.rsplit(':').next().unwrap_or(text).to_string(),
        Some(Target::Function(_)) | None => "?".to_string(),
    });
    let consumers = index
        .consumers_of(qi)
        .map(|c| match c.function.iter().find_map(|a| a.value.known()) {
            Some(Target::Function(f)) => model.functions.get(*f).map_or_else(
                || c.resource.clone(),
                |f| f.resource.rsplit(':').next().unwrap_or(&f.resource).to_string(),
            ),
            Some(Target::External(text)) => text.clone(),
            _ => c.resource.clone(),
        })
        .collect();
    QueueRow {
        name: queue_name(&q.resource).to_string(),
        url: q.resource.clone(),
        account: account.into(),
        region: region.into(),
        fifo,
        dlq,
        consumers: Some(consumers),
        errors: 0,
        warnings: 0,
        infos: 0,
    }
}

/// The page of `outcome`: with `models` (a live audit's, one per pair
/// read) every queue is listed and the graph has its links; without, the
/// queues are those the findings name and `report` (the outcome's JSON
/// document) draws the graph.
pub(super) fn page<'a>(
    outcome: &'a Outcome,
    models: Option<&[Model]>,
    report: Option<&serde_json::Value>,
    source: String,
) -> Page<'a> {
    let (mut queues, mut row_of, mapping_queue) = live_rows(models.unwrap_or_default());
    let mut findings = Vec::with_capacity(outcome.findings.len());
    let mut counts = Counts::default();
    for f in &outcome.findings {
        let (account, region) = place(&f.origin);
        let key = |resource: &str| (account.to_string(), region.to_string(), resource.to_string());
        let url = match mapping_queue.get(&key(&f.resource)) {
            Some(url) => Some(url.as_str()),
            None => is_url(&f.resource).then_some(f.resource.as_str()),
        };
        let queue = url.map(|url| {
            *row_of.entry(key(url)).or_insert_with(|| {
                queues.push(QueueRow {
                    name: queue_name(url).to_string(),
                    url: url.to_string(),
                    account: account.into(),
                    region: region.into(),
                    // AWS requires a FIFO queue's name to end in `.fifo`.
                    fifo: Some(queue_name(url).ends_with(".fifo")),
                    dlq: None,
                    consumers: None,
                    errors: 0,
                    warnings: 0,
                    infos: 0,
                });
                queues.len() - 1
            })
        });
        let tally = |e: &mut usize, w: &mut usize, i: &mut usize| match f.severity {
            Severity::Error => *e += 1,
            Severity::Warning => *w += 1,
            Severity::Info => *i += 1,
        };
        tally(&mut counts.errors, &mut counts.warnings, &mut counts.infos);
        if let Some(q) = queue.and_then(|q| queues.get_mut(q)) {
            tally(&mut q.errors, &mut q.warnings, &mut q.infos);
        }
        findings.push(row(f, account, region, queue));
    }
    counts.findings = outcome.findings.len();
    counts.queues = outcome.files;
    counts.account_regions = outcome.account_regions;
    counts.unaudited = outcome.unaudited.len();
    counts.suppressed = outcome.suppressed;
    counts.api_calls = outcome.api_calls;
    let pairs = pairs(&queues, &outcome.findings, &outcome.unaudited);
    let notes = outcome
        .notes
        .iter()
        .map(|n| {
            let (account, region) = place(&n.origin);
            NoteRow { account, region, message: &n.message }
        })
        .collect();
    let graph = match (models, report) {
        (Some(models), _) => live_graph(models, &outcome.findings),
        (None, Some(doc)) => graph::audit::from_report(doc, &source).unwrap_or_else(|why| Graph {
            notes: vec![format!("the graph could not be drawn: {why}")],
            ..Graph::default()
        }),
        (None, None) => Graph::default(),
    };
    Page {
        version: 1,
        source,
        complete: models.is_some(),
        summary: counts,
        pairs,
        queues,
        findings,
        unaudited: &outcome.unaudited,
        notes,
        graph,
    }
}

fn row<'a>(f: &'a Finding, account: &'a str, region: &'a str, queue: Option<usize>) -> FindingRow<'a> {
    FindingRow {
        rule: f.code(),
        name: f.name(),
        severity: f.severity,
        message: f.full_message(),
        fix: f.full_fix(),
        resource: &f.resource,
        label: match &f.origin {
            Origin::Live(live) => live.name.as_deref(),
            _ => None,
        },
        account,
        region,
        queue,
    }
}

/// A row per account-Region that has a queue, a finding or a gap, sorted.
fn pairs(queues: &[QueueRow], findings: &[Finding], unaudited: &[Unaudited]) -> Vec<PairRow> {
    let mut rows: BTreeMap<(String, String), PairRow> = BTreeMap::new();
    fn at<'r>(rows: &'r mut BTreeMap<(String, String), PairRow>, account: &str, region: &str) -> &'r mut PairRow {
        rows.entry((account.to_string(), region.to_string())).or_insert_with(|| PairRow {
            account: account.to_string(),
            region: region.to_string(),
            ..PairRow::default()
        })
    }
    for q in queues {
        at(&mut rows, &q.account, &q.region).queues += 1;
    }
    for f in findings {
        let (account, region) = place(&f.origin);
        let row = at(&mut rows, account, region);
        match f.severity {
            Severity::Error => row.errors += 1,
            Severity::Warning => row.warnings += 1,
            Severity::Info => row.infos += 1,
        }
    }
    for u in unaudited {
        at(&mut rows, u.account.as_deref().unwrap_or("-"), &u.region).unaudited = true;
    }
    rows.into_values().collect()
}

/// The graph of a live audit: one cluster per account-Region, each with
/// the findings of its pair on its nodes.
fn live_graph(models: &[Model], findings: &[Finding]) -> Graph {
    let mut by_pair: HashMap<(&str, &str), Vec<Finding>> = HashMap::new();
    for f in findings {
        by_pair.entry(place(&f.origin)).or_default().push(f.clone());
    }
    let scopes: Vec<(String, (String, String))> = models
        .iter()
        .map(|m| {
            let origin = m.queues.first().map(|q| &q.origin).or_else(|| m.consumers.first().map(|c| &c.origin));
            let (account, region) = origin.map_or(("-", "-"), place);
            (format!("account {account} in {region}"), (account.to_string(), region.to_string()))
        })
        .collect();
    let none: Vec<Finding> = Vec::new();
    let pieces: Vec<Piece<'_>> = models
        .iter()
        .zip(&scopes)
        .map(|(model, (scope, (account, region)))| Piece {
            scope,
            model,
            findings: by_pair.get(&(account.as_str(), region.as_str())).unwrap_or(&none),
        })
        .collect();
    graph::from_models(&pieces)
}
