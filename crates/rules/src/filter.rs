//! `--select` / `--ignore` and the config's lists: which rules report.

/// Which rules to report.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Code prefixes to keep (empty: all).
    pub select: Vec<String>,
    /// Code prefixes to drop.
    pub ignore: Vec<String>,
}

impl Filter {
    /// Whether findings of `code` are reported. SQS000 (a file that could
    /// not be read) is reported whatever `select` says: a file that was not
    /// linted never passes in silence. Only `ignore` drops it.
    pub fn keeps(&self, code: &str) -> bool {
        let matches = |p: &String| super::selects(p, code);
        let selected =
            self.select.is_empty() || self.select.iter().any(matches) || code == super::UNPARSABLE_FILE.id.code;
        selected && !self.ignore.iter().any(matches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_matches_code_prefixes() {
        let f = Filter { select: vec!["SQS00".into()], ignore: vec!["sqs004".into()] };
        assert!(f.keeps("SQS001"));
        assert!(!f.keeps("SQS004"));
        assert!(!f.keeps("SQS012"));
        assert!(Filter::default().keeps("SQS017"));
        assert!(f.keeps("SQS000"), "selecting others never hides an unreadable file");
        assert!(!Filter { ignore: vec!["SQS000".into()], ..f }.keeps("SQS000"));
    }
}
