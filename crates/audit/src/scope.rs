//! What an audit covers: the accounts named with `--accounts` (a list or
//! `@FILE`), a `--shard I/N` of the (account, Region) pairs, and the
//! pairs themselves, sorted so that every shard of every run slices them
//! alike. Pure: no AWS call is made here.

use std::fmt;

use sqsguard_lint::fingerprint::stable_hash;
use sqsguard_lint::outcome::ShardOf;

/// An AWS account ID: twelve digits.
pub(crate) fn account_id(text: &str) -> Result<String, String> {
    let id = text.trim();
    if id.len() == 12 && id.bytes().all(|b| b.is_ascii_digit()) {
        Ok(id.to_string())
    } else {
        Err(format!("{id:?} is not an AWS account ID (twelve digits)"))
    }
}

/// `--accounts 111111111111,222222222222` or `--accounts @FILE` (one ID a
/// line, `#` starts a comment, blank lines ignored): the IDs, sorted and
/// each once. `Err` is one line for the user.
pub fn accounts(arg: &str) -> Result<Vec<String>, String> {
    let (text, from) = match arg.strip_prefix('@') {
        Some(path) => {
            let text = sqsguard_source::read_named(std::path::Path::new(path))
                .map_err(|e| format!("--accounts @{path}: {}", sqsguard_source::plain_io_error(&e)))?;
            (text, Some(path))
        }
        None => (arg.replace(',', "\n"), None),
    };
    let mut ids = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        ids.push(account_id(line).map_err(|e| match from {
            Some(path) => format!("--accounts @{path}, line {}: {e}", n + 1),
            None => format!("--accounts: {e}"),
        })?);
    }
    if ids.is_empty() {
        return Err(format!("--accounts {arg}: no account ID"));
    }
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// `--shard I/N`: the I-th (1-based) of N slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub fn parse(arg: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {arg}: use I/N with 1 <= I <= N (for example 2/5)");
        let (i, n) = arg.split_once('/').ok_or_else(bad)?;
        let (index, count) =
            (i.trim().parse::<usize>().map_err(|_| bad())?, n.trim().parse::<usize>().map_err(|_| bad())?);
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// This shard's pairs of `pairs` (sorted): every N-th from the I-th,
    /// so each shard gets accounts and Regions of all kinds.
    pub(crate) fn of<T: Clone>(&self, pairs: &[T]) -> Vec<T> {
        pairs.iter().skip(self.index - 1).step_by(self.count).cloned().collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One account in one Region: what the audit reads at once.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Pair {
    /// `None` for the credentials' own account when no account was named
    /// (the audit learns it from the queue URLs, without a call).
    pub account: Option<String>,
    pub region: String,
    /// The Region was named, or the account said it is enabled; `false`
    /// for a Region of the partition's list, which may not be enabled.
    pub enabled: bool,
}

/// Every (account, Region) pair, sorted by account then Region.
pub(crate) fn pairs(accounts: &[Option<String>], regions: &[String]) -> Vec<Pair> {
    let mut out: Vec<Pair> = accounts
        .iter()
        .flat_map(|a| regions.iter().map(move |r| Pair { account: a.clone(), region: r.clone(), enabled: true }))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The accounts of this shard: with `--regions all` the pairs are only
/// known account by account, and an account's answer may differ between
/// two shards' runs, so the accounts are sliced and every shard keeps
/// whole accounts (`Some`: what was sliced). Otherwise all of them.
pub(crate) fn shard_accounts(
    shard: Option<Shard>,
    all_regions: bool,
    accounts: Vec<Option<String>>,
) -> (Vec<Option<String>>, Option<ShardOf>) {
    match (shard, all_regions) {
        (Some(shard), true) => {
            let names: Vec<String> = accounts.iter().map(|a| a.clone().unwrap_or_default()).collect();
            let of =
                ShardOf { index: shard.index, count: shard.count, of: "accounts".into(), digest: stable_hash(&names) };
            (shard.of(&accounts), Some(of))
        }
        _ => (accounts, None),
    }
}

/// The pairs of this shard, and what was sliced: all of `all` when the
/// accounts were sliced already (`sliced`), else every N-th pair.
pub(crate) fn shard_pairs(
    shard: Option<Shard>,
    sliced: Option<ShardOf>,
    all: Vec<Pair>,
) -> (Vec<Pair>, Option<ShardOf>) {
    match (shard, sliced) {
        (_, Some(of)) => (all, Some(of)),
        (Some(shard), None) => {
            let names: Vec<String> =
                all.iter().map(|p| format!("{}/{}", p.account.as_deref().unwrap_or_default(), p.region)).collect();
            let of =
                ShardOf { index: shard.index, count: shard.count, of: "pairs".into(), digest: stable_hash(&names) };
            (shard.of(&all), Some(of))
        }
        (None, None) => (all, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_ids_are_twelve_digits() {
        assert_eq!(accounts("222222222222, 111111111111,222222222222").unwrap(), ["111111111111", "222222222222"]);
        assert!(accounts("12345678901").unwrap_err().contains("\"12345678901\" is not an AWS account ID"));
        assert!(accounts("1111111111112").is_err());
        assert!(accounts("abcdefghijkl").is_err());
        assert!(accounts(",").unwrap_err().contains("no account ID"));
    }

    #[test]
    fn an_accounts_file_has_one_id_a_line_and_comments() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("accounts.txt");
        std::fs::write(&path, "# production\n111111111111  # payments\n\n222222222222\n").unwrap();
        let arg = format!("@{}", path.display());
        assert_eq!(accounts(&arg).unwrap(), ["111111111111", "222222222222"]);
        std::fs::write(&path, "111111111111\nprod\n").unwrap();
        assert!(accounts(&arg).unwrap_err().ends_with("line 2: \"prod\" is not an AWS account ID (twelve digits)"));
        let missing = format!("@{}", dir.path().join("none.txt").display());
        assert!(accounts(&missing).unwrap_err().ends_with("no such file"));
    }

    #[test]
    fn shards_split_the_sorted_pairs_without_overlap_or_gap() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        for bad in ["4/3", "0/3", "1/0", "3", "a/b", "-1/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let all = pairs(
            &[Some("222222222222".into()), Some("111111111111".into())],
            &["us-west-2".into(), "eu-west-1".into()],
        );
        assert_eq!(all[0], Pair { account: Some("111111111111".into()), region: "eu-west-1".into(), enabled: true });
        let mut joined: Vec<Pair> = (1..=3).flat_map(|i| Shard { index: i, count: 3 }.of(&all)).collect();
        joined.sort();
        assert_eq!(joined, all);
        assert_eq!(Shard { index: 3, count: 3 }.of(&all).len(), 1);
    }
}
