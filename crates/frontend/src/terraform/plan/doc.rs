//! A plan document as serde reads it in the first pass: the few
//! structures a reader needs, every other value borrowed as raw text (which
//! also gives its byte offset), and the members of a raw object in order.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::value::RawValue;

/// Keys that hold a dead-letter target somewhere below them, in any
/// resource type, as they appear in a plan's text.
pub(super) const DEAD_LETTER_MARKERS: &[&str] = &["\"dead_letter_config\"", "\"redrive_policy\"", "\"on_failure\""];

#[derive(Deserialize)]
pub(super) struct Doc<'a> {
    pub(super) format_version: Option<String>,
    #[serde(borrow)]
    pub(super) planned_values: Option<Planned<'a>>,
    #[serde(borrow, default)]
    pub(super) resource_changes: Vec<Change<'a>>,
    #[serde(borrow)]
    pub(super) configuration: Option<Configuration<'a>>,
}

#[derive(Deserialize)]
pub(super) struct Planned<'a> {
    #[serde(borrow)]
    pub(super) root_module: Option<PlannedModule<'a>>,
}

#[derive(Deserialize)]
pub(super) struct PlannedModule<'a> {
    #[serde(borrow, default)]
    pub(super) resources: Vec<PlannedResource<'a>>,
    #[serde(borrow, default)]
    pub(super) child_modules: Vec<PlannedModule<'a>>,
}

#[derive(Deserialize)]
pub(super) struct PlannedResource<'a> {
    /// The raw string token: its offset is where findings about the
    /// resource point.
    #[serde(borrow)]
    pub(super) address: &'a RawValue,
    #[serde(borrow, default)]
    pub(super) mode: Cow<'a, str>,
    #[serde(rename = "type", borrow, default)]
    pub(super) kind: Cow<'a, str>,
    #[serde(borrow)]
    pub(super) values: Option<&'a RawValue>,
}

#[derive(Deserialize)]
pub(super) struct Change<'a> {
    #[serde(borrow, default)]
    pub(super) address: Cow<'a, str>,
    #[serde(borrow)]
    pub(super) change: Option<ChangeBody<'a>>,
}

#[derive(Deserialize)]
pub(super) struct ChangeBody<'a> {
    #[serde(borrow)]
    pub(super) after_unknown: Option<&'a RawValue>,
}

#[derive(Deserialize)]
pub(super) struct Configuration<'a> {
    #[serde(borrow)]
    pub(super) root_module: Option<&'a RawValue>,
}

/// One module of `configuration`, read when a resource of it is asked about.
#[derive(Deserialize, Default)]
pub(super) struct ConfigModule<'a> {
    #[serde(borrow, default)]
    pub(super) resources: Vec<ConfigResource<'a>>,
    #[serde(borrow, default)]
    pub(super) module_calls: BTreeMap<String, ModuleCall<'a>>,
    #[serde(borrow, default)]
    pub(super) outputs: BTreeMap<String, Output<'a>>,
}

#[derive(Deserialize)]
pub(super) struct ConfigResource<'a> {
    /// Borrowed from the text (a configuration address has no instance
    /// key to escape): a large plan's configuration is held while its
    /// resources are read.
    #[serde(borrow, default)]
    pub(super) address: Cow<'a, str>,
    #[serde(borrow)]
    pub(super) expressions: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) for_each_expression: Option<Expression<'a>>,
}

#[derive(Deserialize)]
pub(super) struct ModuleCall<'a> {
    #[serde(borrow)]
    pub(super) expressions: Option<&'a RawValue>,
    #[serde(borrow)]
    pub(super) module: Option<&'a RawValue>,
}

#[derive(Deserialize)]
pub(super) struct Output<'a> {
    #[serde(borrow)]
    pub(super) expression: Option<&'a RawValue>,
}

#[derive(Deserialize)]
pub(super) struct Expression<'a> {
    #[serde(borrow)]
    pub(super) constant_value: Option<&'a RawValue>,
    #[serde(borrow, default)]
    pub(super) references: Vec<Cow<'a, str>>,
}

/// A JSON object's members in order, each value left raw.
struct Entries<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Entries<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some((k, v)) = map.next_entry::<Cow<'de, str>, &'de RawValue>()? {
                    out.push((k, v));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

pub(super) fn entries(raw: &RawValue) -> Vec<(Cow<'_, str>, &RawValue)> {
    entries_of(raw.get())
}

/// The members of the object written in `text` (none when it is not one).
pub(super) fn entries_of(text: &str) -> Vec<(Cow<'_, str>, &RawValue)> {
    serde_json::from_str::<Entries<'_>>(text).map(|e| e.0).unwrap_or_default()
}
