//! The export formats of AMD's `rocpd query` beyond plain files: `dashboard` (an HTML page around
//! the table, AMD's built-in page or a Jinja2 template of the user's) and `clipboard` (the
//! table's text handed to the desktop's clipboard tool, as pandas' `to_clipboard` does).

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

use super::table::Table;

/// AMD's built-in dashboard page (query.py `_export_dashboard`), with the same three variables.
const BUILTIN_DASHBOARD: &str = r#"
        <!DOCTYPE html>
        <html lang="en">
        <head>
            <meta charset="UTF-8" />
            <title>Dashboard Report</title>
            <style>
                body { font-family: Arial, sans-serif; margin: 20px; }
                h1 { color: #333; }
                table { border-collapse: collapse; width: 100%; }
                th, td { border: 1px solid #aaa; padding: 8px; text-align: left; }
                th { background-color: #f0f0f0; }
                tr:nth-child(even) { background-color: #fafafa; }
            </style>
        </head>
        <body>
            <h1>{{ title }}</h1>
            <p><em>Generated on {{ timestamp }}</em></p>
            <div>
                {{ table_html | safe }}
            </div>
        </body>
        </html>
        "#;

/// The dashboard page of `table`: `template` (a Jinja2 file) or AMD's built-in page, rendered
/// with AMD's variables `title`, `timestamp` and `table_html`. Templates may use `{{ name }}`
/// (HTML-escaped where Jinja2's autoescape would be on) and `{{ name | safe }}`; any
/// other Jinja2 construct is refused by name rather than written out wrong.
pub(crate) fn dashboard(table: &Table, template: Option<&Path>, timestamp: &str) -> Result<String> {
    let text = match template {
        Some(p) => std::fs::read_to_string(p).with_context(|| format!("reading --template-path {}", p.display()))?,
        None => BUILTIN_DASHBOARD.to_string(),
    };
    let source = template.map_or_else(|| "the built-in dashboard".to_string(), |p| p.display().to_string());
    // AMD's select_autoescape(["html", "xml"]): on for the built-in page and for template files
    // named *.html / *.xml, off for any other template file.
    let autoescape = template.is_none_or(|p| p.extension().is_some_and(|e| e == "html" || e == "xml"));
    let html = table.html_with_classes(&["dashboard-table"]);
    let value = |name: &str| -> Option<String> {
        match name {
            "title" => Some("SQLite Query Dashboard".into()),
            "timestamp" => Some(timestamp.into()),
            "table_html" => Some(html.clone()),
            _ => None,
        }
    };
    if let Some(pos) = text.find("{%").or_else(|| text.find("{#")) {
        let stmt: String = text[pos..].chars().take_while(|c| *c != '\n').take(40).collect();
        bail!("{source}: Jinja2 statements and comments ({stmt}) are not supported; only {{{{ title }}}}, {{{{ timestamp }}}} and {{{{ table_html | safe }}}} substitutions");
    }
    let mut out = String::with_capacity(text.len() + html.len());
    let mut rest = text.as_str();
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else { bail!("{source}: unclosed {{{{") };
        let expr = after[..close].trim();
        let (name, filter) = match expr.split_once('|') {
            Some((n, f)) => (n.trim(), Some(f.trim())),
            None => (expr, None),
        };
        let Some(v) = value(name) else {
            bail!("{source}: unknown variable '{name}' (the dashboard provides title, timestamp and table_html)")
        };
        match filter {
            None if autoescape => out.push_str(&escape_html(&v)),
            None => out.push_str(&v),
            Some("safe") => out.push_str(&v),
            Some(f) => bail!("{source}: the Jinja2 filter '{f}' is not supported (only 'safe')"),
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Jinja2's (markupsafe's) escaping.
fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&#34;").replace('\'', "&#39;")
}

/// Local time as Python's `datetime.now().strftime("%Y-%m-%d %H:%M:%S")` prints it.
pub(crate) fn now_local() -> String {
    Command::new("date")
        .arg("+%Y-%m-%d %H:%M:%S")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// Hands `text` to the clipboard tool pandas would use on Linux: `wl-copy` under Wayland, else
/// `xclip -selection clipboard` or `xsel -b -i` under X11. An error names what is missing.
pub(crate) fn to_clipboard(text: &str) -> Result<()> {
    let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some_and(|v| !v.is_empty());
    let x11 = std::env::var_os("DISPLAY").is_some_and(|v| !v.is_empty());
    let mut tools: Vec<(&str, &[&str])> = Vec::new();
    if wayland {
        tools.push(("wl-copy", &[]));
    }
    if x11 {
        tools.push(("xclip", &["-selection", "clipboard"]));
        tools.push(("xsel", &["-b", "-i"]));
    }
    if tools.is_empty() {
        bail!("--format clipboard needs a desktop session (neither DISPLAY nor WAYLAND_DISPLAY is set)");
    }
    for (tool, args) in &tools {
        let child = Command::new(tool).args(*args).stdin(Stdio::piped()).stdout(Stdio::null()).spawn();
        let mut child = match child {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e).with_context(|| format!("starting {tool}")),
        };
        child.stdin.take().context("clipboard tool stdin")?.write_all(text.as_bytes())?;
        let status = child.wait()?;
        if !status.success() {
            bail!("{tool} failed ({status})");
        }
        return Ok(());
    }
    let names: Vec<&str> = tools.iter().map(|(t, _)| *t).collect();
    bail!("--format clipboard: no clipboard tool found (tried {})", names.join(", "))
}
