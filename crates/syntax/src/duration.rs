//! Durations as people write them in specs, configs and flags: `45`,
//! `15s`, `5m`, `2h`, `4d`.

use super::{Kind, Node};

/// Seconds in a duration written as a YAML number (`45`) or string (`5m`).
pub fn of_node(node: &Node) -> Option<u64> {
    match &node.kind {
        Kind::Number(n) => n.parse::<u64>().ok(),
        Kind::String(s) => seconds(s),
        _ => None,
    }
}

/// Seconds in a duration, or `None` when `text` is not one.
pub fn seconds(text: &str) -> Option<u64> {
    let text = text.trim();
    if let Ok(n) = text.parse::<u64>() {
        return Some(n);
    }
    let (digits, unit) = text.split_at(text.len().checked_sub(1)?);
    let n: u64 = digits.parse().ok()?;
    let factor = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        _ => return None,
    };
    n.checked_mul(factor)
}

#[cfg(test)]
mod tests {
    use super::seconds;

    #[test]
    fn units_and_bare_numbers() {
        assert_eq!(seconds("45"), Some(45));
        assert_eq!(seconds("15s"), Some(15));
        assert_eq!(seconds("5m"), Some(300));
        assert_eq!(seconds("2h"), Some(7200));
        assert_eq!(seconds("4d"), Some(345_600));
        assert_eq!(seconds("4w"), None);
        assert_eq!(seconds("m"), None);
        assert_eq!(seconds(""), None);
        assert_eq!(seconds("99999999999999999999d"), None);
    }
}
