//! A query's result and its export in the formats of AMD's `rocpd query` / `rocpd summary`
//! (`console`, `csv`, `html`, `json`, `md`), with the file naming and messages of AMD's
//! `export_sqlite_query`: `<path>.<ext>` (the extension added when missing), "Exported to: <abs>".

use std::fmt::Write as _;

use anyhow::{Context, Result};
use rusqlite::types::ValueRef;
use rusqlite::Connection;

/// One cell.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl Cell {
    /// As pandas prints it in CSV and console output: floats as Python's `repr`, NULL empty.
    pub(crate) fn text(&self) -> String {
        match self {
            Cell::Null => String::new(),
            Cell::Int(i) => i.to_string(),
            Cell::Real(f) => py_float(*f),
            Cell::Text(s) => s.clone(),
        }
    }

    fn json(&self) -> serde_json::Value {
        match self {
            Cell::Null => serde_json::Value::Null,
            Cell::Int(i) => (*i).into(),
            Cell::Real(f) => serde_json::Number::from_f64(*f).map_or(serde_json::Value::Null, Into::into),
            Cell::Text(s) => s.clone().into(),
        }
    }
}

/// Python's `repr(float)`: the shortest round-trip digits, positional for exponents -4..16,
/// else `d.ddde+XX`; integral values keep `.0`.
pub(crate) fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let sci = format!("{f:e}"); // shortest digits: "-1.2345e3"
    let (mant, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let (sign, mant) = mant.strip_prefix('-').map_or(("", mant), |m| ("-", m));
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    if (-4..16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        let s = if point <= 0 {
            format!("0.{}{digits}", "0".repeat((-point) as usize))
        } else if point as usize >= digits.len() {
            format!("{digits}{}.0", "0".repeat(point as usize - digits.len()))
        } else {
            format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
        };
        format!("{sign}{s}")
    } else {
        let m = if digits.len() > 1 { format!("{}.{}", &digits[..1], &digits[1..]) } else { digits };
        format!("{sign}{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

/// Column names and rows of a result.
#[derive(Debug, Default)]
pub(crate) struct Table {
    pub(crate) columns: Vec<String>,
    pub(crate) rows: Vec<Vec<Cell>>,
}

impl Table {
    /// Runs `sql` (one statement) and collects its rows.
    pub(crate) fn query(conn: &Connection, sql: &str) -> Result<Self> {
        let mut st = conn.prepare(sql).with_context(|| format!("SQLite error in: {sql}"))?;
        let columns: Vec<String> = st.column_names().into_iter().map(str::to_string).collect();
        let n = columns.len();
        let mut rows = Vec::new();
        let mut q = st.query([])?;
        while let Some(r) = q.next()? {
            let mut row = Vec::with_capacity(n);
            for i in 0..n {
                row.push(match r.get_ref(i)? {
                    ValueRef::Null => Cell::Null,
                    ValueRef::Integer(v) => Cell::Int(v),
                    ValueRef::Real(v) => Cell::Real(v),
                    ValueRef::Text(t) => Cell::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Blob(b) => Cell::Text(format!("<{} bytes>", b.len())),
                });
            }
            rows.push(row);
        }
        Ok(Self { columns, rows })
    }

    /// The table as console text: columns right-aligned to their widest cell.
    pub(crate) fn console(&self) -> String {
        let cells: Vec<Vec<String>> = self.rows.iter().map(|r| r.iter().map(Cell::text).collect()).collect();
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|i| {
                cells.iter().map(|r| r[i].chars().count()).chain([self.columns[i].chars().count()]).max().unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        let line = |out: &mut String, vals: &mut dyn Iterator<Item = &str>| {
            let parts: Vec<String> = vals.zip(&widths).map(|(v, w)| format!("{v:>w$}")).collect();
            out.push_str(&parts.join(" "));
            out.push('\n');
        };
        line(&mut out, &mut self.columns.iter().map(String::as_str));
        for r in &cells {
            line(&mut out, &mut r.iter().map(String::as_str));
        }
        out
    }

    /// pandas' `to_string()` with its row index (what `to_clipboard(excel=False)` copies): the
    /// index column left-aligned under a blank header, the others right-aligned.
    pub(crate) fn with_index(&self) -> String {
        let mut t = Table { columns: Vec::with_capacity(self.columns.len() + 1), rows: Vec::new() };
        t.columns.push(String::new());
        t.columns.extend(self.columns.iter().cloned());
        let width = self.rows.len().saturating_sub(1).to_string().len();
        t.rows = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| std::iter::once(Cell::Text(format!("{i:<width$}"))).chain(r.iter().cloned()).collect())
            .collect();
        t.console()
    }

    pub(crate) fn csv(&self) -> Result<String> {
        let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
        w.write_record(&self.columns)?;
        for r in &self.rows {
            w.write_record(r.iter().map(Cell::text))?;
        }
        Ok(String::from_utf8(w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?)?)
    }

    pub(crate) fn json(&self) -> Result<String> {
        let records: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|r| serde_json::Value::Object(self.columns.iter().cloned().zip(r.iter().map(Cell::json)).collect()))
            .collect();
        Ok(serde_json::to_string_pretty(&records)?)
    }

    /// AMD's markdown table (its `_df_to_markdown_fallback` layout).
    pub(crate) fn markdown(&self) -> String {
        let mut out = format!("| {} |\n", self.columns.join(" | "));
        let _ = writeln!(out, "|{}|", vec!["---"; self.columns.len()].join("|"));
        for r in &self.rows {
            let vals: Vec<String> = r.iter().map(Cell::text).collect();
            let _ = writeln!(out, "| {} |", vals.join(" | "));
        }
        out
    }

    pub(crate) fn html(&self) -> String {
        self.html_with_classes(&[])
    }

    /// pandas' `to_html(index=False, classes=...)`: the classes follow `dataframe`.
    pub(crate) fn html_with_classes(&self, classes: &[&str]) -> String {
        let esc = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        let class: Vec<&str> = std::iter::once("dataframe").chain(classes.iter().copied()).collect();
        let mut out = format!(
            "<table border=\"1\" class=\"{}\">\n  <thead>\n    <tr style=\"text-align: right;\">\n",
            class.join(" ")
        );
        for c in &self.columns {
            let _ = writeln!(out, "      <th>{}</th>", esc(c));
        }
        out.push_str("    </tr>\n  </thead>\n  <tbody>\n");
        for r in &self.rows {
            out.push_str("    <tr>\n");
            for c in r {
                let _ = writeln!(out, "      <td>{}</td>", esc(&c.text()));
            }
            out.push_str("    </tr>\n");
        }
        out.push_str("  </tbody>\n</table>");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_pythons_repr() {
        // Values and texts from CPython's repr().
        for (v, s) in [
            (12.0, "12.0"),
            (0.1, "0.1"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (123456789.125, "123456789.125"),
            (1e16, "1e+16"),
            (9999999999999998.0, "9999999999999998.0"),
            (-2.5, "-2.5"),
            (33.333333333333336, "33.333333333333336"),
            (1.5e-7, "1.5e-07"),
        ] {
            assert_eq!(py_float(v), s, "{v}");
        }
    }

    #[test]
    fn csv_quotes_only_where_needed_and_nulls_are_empty() {
        let t = Table {
            columns: vec!["Name".into(), "Calls".into(), "STD_DEV".into()],
            rows: vec![vec![Cell::Text("f(int, float)".into()), Cell::Int(3), Cell::Null]],
        };
        assert_eq!(t.csv().unwrap(), "Name,Calls,STD_DEV\n\"f(int, float)\",3,\n");
    }
}
