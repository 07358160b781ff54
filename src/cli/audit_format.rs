//! The formats of `audit` and `report merge`: lint's, and `html`, a page
//! only an audit makes (lint and drift findings are about lines of files,
//! which a page of queues does not show). [`super::audit_out`] writes them.

use clap::ValueEnum;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AuditFormat {
    /// A code frame per finding, then the notes and a summary.
    Pretty,
    /// One line per finding: `account/Region: CODE message`.
    Concise,
    Json,
    Sarif,
    Junit,
    Github,
    /// One self-contained page: accounts and Regions, queues and findings
    /// (sortable, filterable), the graph, what was not audited.
    Html,
}
