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

use sqsguard_lint::outcome::Outcome;
use sqsguard_model::Model;

const PAGE: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");
const TABLES_JS: &str = include_str!("page.js");
const GRAPH_JS: &str = include_str!("graph.js");

/// The page of a live audit: `models` (one per account-Region read) list
/// every queue and draw the graph's links.
pub fn live(outcome: &Outcome, models: &[Model]) -> Result<String, String> {
    let page = data::page(outcome, Some(models), None, "a live audit".to_string());
    fill(&page)
}

/// The page of a JSON report (`report merge`): `report` is the outcome's
/// JSON document, `source` names the files it was read from.
pub fn of_report(outcome: &Outcome, report: &serde_json::Value, source: &str) -> Result<String, String> {
    let page = data::page(outcome, None, Some(report), source.to_string());
    fill(&page)
}

/// page.html through Handlebars: the title HTML-escaped, the style and
/// scripts as they are, and the data as script-safe JSON.
fn fill(page: &data::Page<'_>) -> Result<String, String> {
    let json = serde_json::to_string(page).map_err(|e| format!("the page's data: {e}"))?;
    // The graph's module first: the tables' script uses it.
    let js = [GRAPH_JS, TABLES_JS].concat();
    let values = serde_json::json!({
        "title": format!("sqsguard audit: {}", page.source),
        "css": CSS,
        "js": js,
        "data": script_safe(&json),
    });
    let mut hb = handlebars::Handlebars::new();
    hb.set_strict_mode(true);
    hb.render_template(PAGE, &values).map_err(|e| format!("the page template: {e}"))
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
        let page = of_report(&Outcome::default(), &serde_json::json!({"findings": []}), "a.json<b>");
        let page = page.unwrap_or_else(|e| e);
        // The title is HTML-escaped.
        assert!(page.contains("<title>sqsguard audit: a.json&lt;b&gt;</title>"), "{page}");
        for needle in ["src=", "href=", "@import", "url(", "{{", "fetch(", "XMLHttpRequest"] {
            assert!(!page.contains(needle), "the page holds {needle}");
        }
        assert!(page.contains("<script type=\"application/json\" id=\"audit-data\">"));
    }
}
