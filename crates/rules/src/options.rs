//! The rule options `.sqsguard.yaml` can set (`rules: {SQS001: {multiplier: 4}}`).
//!
//! A configurable rule owns its options: a struct in its file, declared with
//! `options!` (each field's type, kind, default and what the config schema
//! says of it) and named in its `rule!` (`options: ItsOptions::SPECS`). The
//! config reads every rule's options through those declarations into
//! [`Options`]; the rule's check gets its struct back with
//! [`Options::of`]. Nothing here names a rule.

/// What kind of value an option takes (the config schema says the same,
/// and a test holds them together).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionKind {
    /// A whole number in `min..=max` (no upper bound when `max` is `None`).
    Integer { min: u64, max: Option<u64> },
    /// Seconds, or a duration such as `5m` or `2h`.
    Duration,
}

/// One option a rule takes under `rules: {CODE: {NAME: value}}`, as its
/// options struct declares it.
#[derive(Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// What it means and its default: the config schema's description.
    pub description: &'static str,
}

/// A rule's options struct, as `options!` writes it: [`Default`] is what
/// the rule's page says.
pub trait RuleOptions: Default {
    /// The code of the rule that owns them (the key under `rules:`).
    fn code() -> &'static str;
    /// Take the value the config gave option `name` (seconds for a
    /// duration).
    fn set(&mut self, name: &str, value: u64);
}

/// The option values a config gave, by rule code and option name (seconds
/// for a duration); [`Default`] is a config that sets none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Options {
    given: Vec<(&'static str, &'static str, u64)>,
}

impl Options {
    /// Record `value` for option `name` of rule `code` (a later value for
    /// the same option replaces it).
    pub fn give(&mut self, code: &'static str, name: &'static str, value: u64) {
        self.given.retain(|&(c, n, _)| (c, n) != (code, name));
        self.given.push((code, name, value));
    }

    /// A rule's options: its defaults, with what the config gave over them.
    pub fn of<T: RuleOptions>(&self) -> T {
        let mut options = T::default();
        for &(code, name, value) in &self.given {
            if code == T::code() {
                options.set(name, value);
            }
        }
        options
    }
}

/// The type of an option's field, made from the number the config gave.
pub trait OptionValue {
    fn from_config(value: u64) -> Self;
}

impl OptionValue for u64 {
    fn from_config(value: u64) -> Self {
        value
    }
}

impl OptionValue for i64 {
    fn from_config(value: u64) -> Self {
        // The schema bounds every integer option far below i64::MAX.
        i64::try_from(value).unwrap_or(i64::MAX)
    }
}

impl OptionValue for f64 {
    fn from_config(value: u64) -> Self {
        value as f64
    }
}

/// A rule's options struct, in the rule's file (where `RULE` is): each field
/// with its doc (the config schema's description of the option), its kind
/// and its default, what the rule's page says.
///
/// ```ignore
/// options! {
///     /// What `rules: {SQS008: {minimum: N}}` sets.
///     pub struct ReceiveCountOptions {
///         /// The lowest acceptable maxReceiveCount. Default 3.
///         #[kind(OptionKind::Integer { min: 1, max: Some(1000) })]
///         pub minimum: i64 = guidance::MIN_MAX_RECEIVE_COUNT,
///     }
/// }
/// ```
macro_rules! options {
    (
        $(#[doc = $sdoc:literal])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                #[kind($kind:expr)]
                pub $field:ident: $ty:ty = $default:expr,
            )*
        }
    ) => {
        $(#[doc = $sdoc])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $name {
            $(
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)* }
            }
        }

        impl $name {
            /// The options as `rule!` declares them.
            pub(crate) const SPECS: &'static [$crate::OptionSpec] = &[$(
                $crate::OptionSpec {
                    name: stringify!($field),
                    kind: $kind,
                    description: concat!($($doc),*).trim_ascii(),
                },
            )*];
        }

        impl $crate::RuleOptions for $name {
            fn code() -> &'static str {
                RULE.id.code
            }

            fn set(&mut self, name: &str, value: u64) {
                $(
                    if name == stringify!($field) {
                        self.$field = $crate::OptionValue::from_config(value);
                    }
                )*
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rule, RuleId};

    static RULE: Rule = Rule { id: RuleId { code: "SQS999", name: "test-rule" }, ..Rule::DEFAULT };

    options! {
        /// A rule's options, as a rule file declares them.
        pub struct TestOptions {
            /// A count, written on
            /// two lines.
            #[kind(OptionKind::Integer { min: 1, max: Some(10) })]
            pub count: i64 = 3,
            /// A duration.
            #[kind(OptionKind::Duration)]
            pub wait: f64 = 300.0,
        }
    }

    #[test]
    fn a_rules_options_are_its_defaults_with_what_its_config_gave() {
        assert_eq!(Options::default().of::<TestOptions>(), TestOptions { count: 3, wait: 300.0 });
        let mut options = Options::default();
        options.give("SQS999", "wait", 900);
        assert_eq!(options.of::<TestOptions>(), TestOptions { count: 3, wait: 900.0 });
        options.give("SQS999", "count", 7);
        options.give("SQS999", "count", 8);
        assert_eq!(options.of::<TestOptions>(), TestOptions { count: 8, wait: 900.0 }, "the later value wins");
        // Another rule's option of the same name is not this rule's.
        options.give("SQS998", "count", 1);
        assert_eq!(options.of::<TestOptions>().count, 8);
    }

    #[test]
    fn the_declaration_is_the_options_names_kinds_and_descriptions() {
        let specs: Vec<(&str, OptionKind, &str)> =
            TestOptions::SPECS.iter().map(|s| (s.name, s.kind, s.description)).collect();
        assert_eq!(
            specs,
            [
                ("count", OptionKind::Integer { min: 1, max: Some(10) }, "A count, written on two lines."),
                ("wait", OptionKind::Duration, "A duration."),
            ]
        );
        assert_eq!(<TestOptions as RuleOptions>::code(), "SQS999");
    }
}
