//! The subset of the SARIF 2.1.0 object model the reporter writes, as
//! plain serde structs; field names follow the spec (camelCase).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::Summary;

#[derive(Serialize)]
pub(super) struct Log {
    #[serde(rename = "$schema")]
    pub(super) schema: &'static str,
    pub(super) version: &'static str,
    pub(super) runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Run {
    pub(super) tool: Tool,
    pub(super) invocations: Vec<Invocation>,
    /// Our columns count characters (Unicode scalar values), not the UTF-16
    /// code units SARIF assumes by default.
    pub(super) column_kind: &'static str,
    pub(super) results: Vec<SarifResult>,
    pub(super) properties: RunProperties,
}

#[derive(Serialize)]
pub(super) struct RunProperties {
    pub(super) summary: Summary,
}

#[derive(Serialize)]
pub(super) struct Tool {
    pub(super) driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Driver {
    pub(super) name: &'static str,
    pub(super) version: &'static str,
    pub(super) information_uri: &'static str,
    pub(super) rules: Vec<ReportingDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ReportingDescriptor {
    pub(super) id: &'static str,
    pub(super) name: &'static str,
    pub(super) short_description: Text,
    pub(super) full_description: Text,
    pub(super) help: Help,
    pub(super) help_uri: String,
    pub(super) default_configuration: Configuration,
}

#[derive(Serialize)]
pub(super) struct Text {
    pub(super) text: String,
}

#[derive(Serialize)]
pub(super) struct Help {
    pub(super) text: String,
    pub(super) markdown: String,
}

#[derive(Serialize)]
pub(super) struct Configuration {
    pub(super) level: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SarifResult {
    pub(super) rule_id: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) rule_index: Option<usize>,
    pub(super) level: &'static str,
    pub(super) message: Text,
    pub(super) locations: Vec<Location>,
    /// A CDK finding's place in the synthesized template.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) related_locations: Vec<RelatedLocation>,
    pub(super) partial_fingerprints: BTreeMap<&'static str, String>,
    /// What `lint --fix` would change (`--unsafe-fixes` for an unsafe one).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) fixes: Vec<SarifFix>,
    /// Live findings: the account and Region of the resource.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) properties: BTreeMap<&'static str, String>,
}

/// A proposed fix (SARIF 2.1.0, 3.55): replacements in one artifact.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct SarifFix {
    pub(super) description: Text,
    pub(super) artifact_changes: Vec<ArtifactChange>,
    pub(super) properties: BTreeMap<&'static str, &'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ArtifactChange {
    pub(super) artifact_location: ArtifactLocation,
    pub(super) replacements: Vec<Replacement>,
}

/// `deleted_region` is replaced by `inserted_content`; a region whose end
/// is its start is an insertion point.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Replacement {
    pub(super) deleted_region: Region,
    pub(super) inserted_content: ArtifactContent,
}

#[derive(Serialize)]
pub(super) struct ArtifactContent {
    pub(super) text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) physical_location: Option<PhysicalLocation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) logical_locations: Vec<LogicalLocation>,
}

/// A place the result is about besides its own (SARIF 2.1.0, 3.27.22).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct RelatedLocation {
    pub(super) id: usize,
    pub(super) physical_location: PhysicalLocation,
    pub(super) message: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PhysicalLocation {
    pub(super) artifact_location: ArtifactLocation,
    pub(super) region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct ArtifactLocation {
    pub(super) uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Region {
    pub(super) start_line: usize,
    pub(super) start_column: usize,
    pub(super) end_line: usize,
    /// Exclusive, as SARIF says (ours is inclusive).
    pub(super) end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct LogicalLocation {
    pub(super) name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) fully_qualified_name: Option<String>,
    pub(super) kind: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Invocation {
    pub(super) execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
pub(super) struct Notification {
    pub(super) level: &'static str,
    pub(super) message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) locations: Vec<Location>,
}
