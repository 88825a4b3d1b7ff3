//! Renderings of a [`DiffReport`]: the terminal table, markdown for a pull-request comment,
//! JUnit XML for CI systems' test views, and JSON (`schemas/diff/report.schema.json`).

use std::fmt::Write as _;

use crate::diff::{DiffReport, Item, Status};

/// Formats a duration in ns with a unit that keeps 3-4 significant digits.
pub fn format_ns(ns: f64) -> String {
    let a = ns.abs();
    if !a.is_finite() {
        return "-".into();
    }
    if a >= 1e9 {
        format!("{:.3} s", ns / 1e9)
    } else if a >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else if a >= 1e3 {
        format!("{:.3} us", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

fn format_value(item: &Item, v: f64) -> String {
    if item.unit == "ns" {
        format_ns(v)
    } else if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.6}").trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn format_percent(p: Option<f64>) -> String {
    p.map_or_else(|| "-".into(), |p| format!("{p:+.1}%"))
}

fn format_ci(ci: Option<[f64; 2]>) -> String {
    ci.map_or_else(|| "-".into(), |[lo, hi]| format!("{lo:+.1}% .. {hi:+.1}%"))
}

fn format_p(p: Option<f64>) -> String {
    match p {
        None => "-".into(),
        Some(p) if p >= 0.001 => format!("{p:.3}"),
        Some(p) => format!("{p:.1e}"),
    }
}

fn metric_of(side: Option<&crate::diff::SideStats>, item: &Item) -> String {
    side.map_or_else(|| "-".into(), |s| format_value(item, s.metric_value))
}

fn samples_of(side: Option<&crate::diff::SideStats>) -> String {
    side.map_or_else(|| "-".into(), |s| s.samples.to_string())
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Regression => "REGRESSION",
        Status::Changed => "CHANGED",
        Status::Improvement => "improvement",
        Status::OnlyInHead => "only in head",
        Status::OnlyInBase => "only in base",
        Status::InsufficientSamples => "too few samples",
        Status::Unchanged => "unchanged",
    }
}

/// One line summing up the verdict, e.g. `1 regression, 4 unchanged: FAIL (exit 1)`.
pub fn verdict_line(r: &DiffReport) -> String {
    let s = &r.summary;
    let mut parts = Vec::new();
    let mut push = |n: usize, one: &str, many: &str| {
        if n > 0 {
            parts.push(format!("{n} {}", if n == 1 { one } else { many }));
        }
    };
    push(s.regressions, "regression", "regressions");
    push(s.changed, "changed counter", "changed counters");
    push(s.improvements, "improvement", "improvements");
    push(s.unchanged, "unchanged", "unchanged");
    push(s.only_in_base, "only in base", "only in base");
    push(s.only_in_head, "only in head", "only in head");
    push(s.insufficient_samples, "with too few samples", "with too few samples");
    if parts.is_empty() {
        parts.push("nothing to compare".into());
    }
    format!("{}: {} (exit {})", parts.join(", "), if r.exit_status == 0 { "PASS" } else { "FAIL" }, r.exit_status)
}

/// The terminal table, regressions first; `color` adds ANSI colours to the status column (the
/// CLI turns it on only when stdout is a terminal and `NO_COLOR` is unset).
pub fn terminal_table(r: &DiffReport, color: bool) -> String {
    let metric = r.options.metric.as_str();
    let header = [
        "STATUS".to_string(),
        "KIND".into(),
        "NAME".into(),
        "BASE N".into(),
        "HEAD N".into(),
        format!("BASE {}", metric.to_uppercase()),
        format!("HEAD {}", metric.to_uppercase()),
        "CHANGE".into(),
        format!("{:.0}% CI", r.options.confidence_level * 100.0),
        "P (ADJ)".into(),
    ];
    let rows: Vec<[String; 10]> = r
        .items
        .iter()
        .map(|it| {
            [
                status_word(it.status).to_string(),
                it.kind.as_str().to_string(),
                it.display_name(),
                samples_of(it.base.as_ref()),
                samples_of(it.head.as_ref()),
                metric_of(it.base.as_ref(), it),
                metric_of(it.head.as_ref(), it),
                format_percent(it.change_percent),
                format_ci(it.ci_percent),
                format_p(it.p_adjusted),
            ]
        })
        .collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "rocprof-rs diff: base {} run(s), head {} run(s); {} of each item, threshold {}%, alpha {}",
        r.base.databases.len(),
        r.head.databases.len(),
        metric,
        r.options.threshold_percent,
        r.options.alpha
    );
    let line = |cells: &[String], status: Option<Status>| -> String {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            let right = (3..10).contains(&i);
            let cell = if right { format!("{c:>w$}") } else { format!("{c:<w$}") };
            let painted = match (i, status, color) {
                (0, Some(Status::Regression), true) => format!("\x1b[1;31m{cell}\x1b[0m"),
                (0, Some(Status::Changed), true) => format!("\x1b[1;33m{cell}\x1b[0m"),
                (0, Some(Status::Improvement), true) => format!("\x1b[32m{cell}\x1b[0m"),
                _ => cell,
            };
            s.push_str(&painted);
            s.push_str(if i + 1 < cells.len() { "  " } else { "" });
        }
        s.trim_end().to_string()
    };
    out.push_str(&line(&header, None));
    out.push('\n');
    for (row, it) in rows.iter().zip(&r.items) {
        out.push_str(&line(row, Some(it.status)));
        out.push('\n');
    }
    out.push_str(&verdict_line(r));
    out.push('\n');
    out
}

/// Escapes text for a markdown table cell inside a code span.
fn md_code(s: &str) -> String {
    format!("`{}`", s.replace('`', "'").replace('|', "\\|"))
}

fn md_row(out: &mut String, it: &Item) {
    let mark = match it.status {
        Status::Regression => ":red_circle: regression",
        Status::Changed => ":warning: changed",
        Status::Improvement => ":green_circle: improvement",
        Status::OnlyInHead => "only in head",
        Status::OnlyInBase => "only in base",
        Status::InsufficientSamples => "too few samples",
        Status::Unchanged => "unchanged",
    };
    let _ = writeln!(
        out,
        "| {mark} | {} | {} | {} | {} | {} | {} | {} | {} |",
        it.kind.as_str(),
        md_code(&it.display_name()),
        samples_of(it.base.as_ref()),
        samples_of(it.head.as_ref()),
        metric_of(it.base.as_ref(), it),
        metric_of(it.head.as_ref(), it),
        format_percent(it.change_percent),
        format_ci(it.ci_percent).replace(" .. ", " … "),
    );
}

fn md_table(out: &mut String, r: &DiffReport, items: &[&Item]) {
    let m = r.options.metric.as_str();
    let _ = writeln!(
        out,
        "| status | kind | name | base n | head n | base {m} | head {m} | change | {:.0}% CI |",
        r.options.confidence_level * 100.0
    );
    out.push_str("|---|---|---|---:|---:|---:|---:|---:|---:|\n");
    for it in items {
        md_row(out, it);
    }
}

/// Markdown for a pull-request comment: the verdict, the items that need a look, and every item
/// in a collapsed section.
pub fn markdown(r: &DiffReport) -> String {
    let s = &r.summary;
    let mut out = String::new();
    let title = if r.exit_status != 0 {
        let mut what = Vec::new();
        if s.regressions > 0 {
            what.push(format!("{} regression{}", s.regressions, if s.regressions == 1 { "" } else { "s" }));
        }
        if s.failing > s.regressions {
            what.push(format!(
                "{} other change{}",
                s.failing - s.regressions,
                if s.failing - s.regressions == 1 { "" } else { "s" }
            ));
        }
        format!(":x: {}", what.join(", "))
    } else {
        ":white_check_mark: no regression".to_string()
    };
    let _ = writeln!(out, "## rocprof-rs performance diff: {title}\n");
    let _ = writeln!(
        out,
        "Base: {} run(s), head: {} run(s). Compared: the {} of each item; threshold {}%; \
         Mann-Whitney U test, Holm-adjusted, alpha {}; {:.0}% bootstrap confidence interval (seed {}).\n",
        r.base.databases.len(),
        r.head.databases.len(),
        r.options.metric.as_str(),
        r.options.threshold_percent,
        r.options.alpha,
        r.options.confidence_level * 100.0,
        r.options.seed
    );
    let notable: Vec<&Item> = r
        .items
        .iter()
        .filter(|it| {
            matches!(
                it.status,
                Status::Regression | Status::Changed | Status::Improvement | Status::OnlyInBase | Status::OnlyInHead
            )
        })
        .collect();
    if notable.is_empty() {
        out.push_str("No significant change of at least the threshold.\n\n");
    } else {
        md_table(&mut out, r, &notable);
        out.push('\n');
    }
    let _ = writeln!(out, "{}\n", verdict_line(r));
    let all: Vec<&Item> = r.items.iter().collect();
    let _ = writeln!(out, "<details><summary>All {} items</summary>\n", all.len());
    md_table(&mut out, r, &all);
    out.push_str("\n</details>\n");
    out
}

/// Escapes text for an XML attribute or text node; characters XML 1.0 forbids are dropped.
fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

/// The one-line description of an item used in JUnit messages.
fn item_message(r: &DiffReport, it: &Item) -> String {
    format!(
        "{}: {} {} -> {} ({}, {:.0}% CI {}, p(adj) {}, n {} -> {})",
        status_word(it.status),
        r.options.metric.as_str(),
        metric_of(it.base.as_ref(), it),
        metric_of(it.head.as_ref(), it),
        format_percent(it.change_percent),
        r.options.confidence_level * 100.0,
        format_ci(it.ci_percent),
        format_p(it.p_adjusted),
        samples_of(it.base.as_ref()),
        samples_of(it.head.as_ref()),
    )
}

/// JUnit XML: one test suite, one test case per item (class name `rocprof-rs.diff.<kind>`);
/// items that fail under `--fail-on` are failures, items not compared (one side only, too few
/// samples) are skipped, the rest pass with their numbers in `system-out`.
pub fn junit(r: &DiffReport) -> String {
    let failures = r.items.iter().filter(|i| i.fails).count();
    let skipped = r
        .items
        .iter()
        .filter(|i| {
            !i.fails && matches!(i.status, Status::OnlyInBase | Status::OnlyInHead | Status::InsufficientSamples)
        })
        .count();
    let n = r.items.len();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<testsuites name=\"rocprof-rs diff\" tests=\"{n}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">");
    let _ = writeln!(
        out,
        "  <testsuite name=\"rocprof-rs diff\" tests=\"{n}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" time=\"0\">"
    );
    let _ = writeln!(out, "    <properties>");
    for (k, v) in [
        ("metric", r.options.metric.as_str().to_string()),
        ("threshold_percent", r.options.threshold_percent.to_string()),
        ("alpha", r.options.alpha.to_string()),
        ("fail_on", r.options.fail_on.as_str().to_string()),
        ("base_runs", r.base.databases.len().to_string()),
        ("head_runs", r.head.databases.len().to_string()),
    ] {
        let _ = writeln!(out, "      <property name=\"{k}\" value=\"{}\"/>", xml_escape(&v));
    }
    let _ = writeln!(out, "    </properties>");
    for it in &r.items {
        let _ = write!(
            out,
            "    <testcase classname=\"rocprof-rs.diff.{}\" name=\"{}\" time=\"0\"",
            it.kind.as_str(),
            xml_escape(&it.display_name())
        );
        let msg = xml_escape(&item_message(r, it));
        if it.fails {
            let _ = writeln!(
                out,
                ">\n      <failure type=\"{}\" message=\"{msg}\">{msg}</failure>\n    </testcase>",
                it.status.as_str()
            );
        } else if matches!(it.status, Status::OnlyInBase | Status::OnlyInHead | Status::InsufficientSamples) {
            let _ = writeln!(out, ">\n      <skipped message=\"{msg}\"/>\n    </testcase>");
        } else {
            let _ = writeln!(out, ">\n      <system-out>{msg}</system-out>\n    </testcase>");
        }
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}

/// The JSON report (pretty-printed, newline-terminated).
pub fn json(r: &DiffReport) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("the report serialises (no maps with non-string keys)");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_get_readable_units() {
        assert_eq!(format_ns(850.0), "850 ns");
        assert_eq!(format_ns(12_345.0), "12.345 us");
        assert_eq!(format_ns(3_000_000.0), "3.000 ms");
        assert_eq!(format_ns(2.5e9), "2.500 s");
        assert_eq!(format_p(Some(0.0342)), "0.034");
        assert_eq!(format_p(Some(1.5e-20)), "1.5e-20");
        assert_eq!(format_ci(Some([9.04, 11.26])), "+9.0% .. +11.3%");
    }

    #[test]
    fn xml_escaping_covers_template_names() {
        assert_eq!(xml_escape("void k<float>(a&b, \"c\")\u{1}"), "void k&lt;float&gt;(a&amp;b, &quot;c&quot;)");
        assert_eq!(md_code("a|b`c"), "`a\\|b'c`");
    }
}
