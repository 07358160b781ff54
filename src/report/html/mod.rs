//! `audit --format html` and `report merge --format html`: one
//! self-contained page (no network: its CSS and JavaScript are inline, and
//! it loads nothing). The data is one JSON document in a
//! `<script type="application/json">`, with every `<`, `>` and `&`
//! written as a `\u` escape so no text of the audit can end the script or
//! open a tag; the page's own JavaScript (page.js, graph.js) builds the
//! tables and the SVG graph from it with `textContent` and DOM calls only,
//! never HTML of the data's. Tables are paged, and the graph is drawn for
//! one account-Region at a time, so a page of 10,000 queues stays usable.

mod data;

use crate::model::Model;
use crate::outcome::Outcome;

const PAGE: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");
const TABLES_JS: &str = include_str!("page.js");
const GRAPH_JS: &str = include_str!("graph.js");

/// The page of a live audit: `models` (one per account-Region read) list
/// every queue and draw the graph's links.
pub fn live(outcome: &Outcome, models: &[Model]) -> String {
    let page = data::page(outcome, Some(models), None, "a live audit".to_string());
    fill(&page)
}

/// The page of a JSON report (`report merge`): `report` is the outcome's
/// JSON document, `source` names the files it was read from.
pub fn of_report(outcome: &Outcome, report: &serde_json::Value, source: &str) -> String {
    let page = data::page(outcome, None, Some(report), source.to_string());
    fill(&page)
}

fn fill(page: &data::Page<'_>) -> String {
    // Only strings, numbers and derived structures: serializing cannot fail.
    let json = script_safe(&serde_json::to_string(page).unwrap_or_else(|_| "{}".into()));
    let title = format!("sqsguard audit: {}", page.source);
    let mut out = String::with_capacity(PAGE.len() + CSS.len() + TABLES_JS.len() + GRAPH_JS.len() + json.len());
    let mut rest = PAGE;
    // Each `{{name}}` of the template once, left to right: what is put in
    // is never read again for markers.
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start..].find("}}") else { break };
        out.push_str(&rest[..start]);
        match &rest[start + 2..start + len] {
            "css" => out.push_str(CSS),
            "js" => {
                // The graph's module first: the tables' script uses it.
                out.push_str(GRAPH_JS);
                out.push_str(TABLES_JS);
            }
            "data" => out.push_str(&json),
            "title" => out.push_str(&text(&title)),
            other => {
                out.push_str("{{");
                out.push_str(other);
                out.push_str("}}");
            }
        }
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

/// JSON that can sit inside a `<script>` element: `<`, `>`, `&` and the
/// line separators JavaScript once refused in strings written as `\u`
/// escapes. They occur only inside JSON strings, where the escape means
/// the same character.
fn script_safe(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// Text for HTML element content.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_text_of_the_audit_can_close_the_data_script() {
        let json = serde_json::to_string(&serde_json::json!({"name": "q</script><b>&\"\u{2028}"})).unwrap_or_default();
        let safe = script_safe(&json);
        assert!(!safe.contains('<') && !safe.contains('>') && !safe.contains('&'), "{safe}");
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap_or_default();
        assert_eq!(back["name"], "q</script><b>&\"\u{2028}");
    }

    #[test]
    fn the_page_holds_no_address_it_would_fetch() {
        let page = of_report(&Outcome::default(), &serde_json::json!({"findings": []}), "a.json");
        for needle in ["src=", "href=", "@import", "url(", "{{", "fetch(", "XMLHttpRequest"] {
            assert!(!page.contains(needle), "the page holds {needle}");
        }
        assert!(page.contains("<script type=\"application/json\" id=\"audit-data\">"));
    }
}
