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
    pub fn keeps(&self, code: &str) -> bool {
        let matches = |p: &String| super::selects(p, code);
        (self.select.is_empty() || self.select.iter().any(matches)) && !self.ignore.iter().any(matches)
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
    }
}
