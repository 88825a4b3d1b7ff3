//! Exporting a query's result in the formats of AMD's `rocpd query` / `rocpd summary`: the
//! table's own formats ([`Table`]) and the extra ones (dashboard page, clipboard), with the file
//! naming and messages of AMD's `export_sqlite_query`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::table::Table;

/// Output formats of `rocpd query --format` and `rocpd summary -f` that rocprof-rs writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    Console,
    Csv,
    Html,
    Json,
    Md,
    /// `rocpd query` only: an HTML page around the table (see [`super::extra::dashboard`]).
    Dashboard,
    /// `rocpd query` only: the table's text to the desktop clipboard.
    Clipboard,
}

/// The formats of `rocpd summary -f` (AMD's choices without `pdf`, see the README).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SummaryFormat {
    Console,
    Csv,
    Html,
    Json,
    Md,
}

impl From<SummaryFormat> for Format {
    fn from(f: SummaryFormat) -> Self {
        match f {
            SummaryFormat::Console => Format::Console,
            SummaryFormat::Csv => Format::Csv,
            SummaryFormat::Html => Format::Html,
            SummaryFormat::Json => Format::Json,
            SummaryFormat::Md => Format::Md,
        }
    }
}

/// Prints `table` (console) or writes it to `path` with the format's extension, as AMD's
/// `export_sqlite_query`: an empty result writes nothing and says so on stderr. Returns the file.
/// `template` is the dashboard's `--template-path`.
pub(crate) fn export(
    table: &Table,
    sql: &str,
    format: Format,
    path: &Path,
    template: Option<&Path>,
) -> Result<Option<PathBuf>> {
    if table.rows.is_empty() {
        eprintln!("No results found for query: {sql}");
        return Ok(None);
    }
    let (ext, text) = match format {
        Format::Console => {
            print!("{}", table.console());
            return Ok(None);
        }
        Format::Clipboard => {
            super::extra::to_clipboard(&table.with_index())?;
            return Ok(None);
        }
        Format::Csv => ("csv", table.csv()?),
        Format::Html => ("html", table.html()),
        Format::Json => ("json", table.json()?),
        Format::Md => ("md", table.markdown()),
        Format::Dashboard => ("dashboard", super::extra::dashboard(table, template, &super::extra::now_local())?),
    };
    let mut name = path.as_os_str().to_owned();
    if !path.to_string_lossy().ends_with(&format!(".{ext}")) {
        name.push(format!(".{ext}"));
    }
    let file = std::path::absolute(PathBuf::from(name))?;
    let Some(dir) = file.parent() else { bail!("{} has no directory", file.display()) };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut body = text;
    if !matches!(format, Format::Csv | Format::Dashboard) && !body.ends_with('\n') {
        body.push('\n');
    }
    std::fs::write(&file, body).with_context(|| format!("writing {}", file.display()))?;
    println!("Exported to: {}\n", file.display());
    Ok(Some(file))
}
