//! `--format github`: GitHub Actions workflow commands (`::error file=...`).

use crate::lint::Outcome;

pub fn render(outcome: &Outcome) -> String {
    let _ = outcome;
    String::new()
}
