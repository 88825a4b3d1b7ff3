//! `rocprof-rs rocpd summary`: AMD's `rocpd summary` — one `<view>_summary` view per timed data
//! view (`kernels`, `memory_copies`, ...), per region category (`hip`, `hsa`, `markers`, ...),
//! optionally per rank (`--summary-by-rank`) and over domains (`--domain-summary`), built with
//! the same SQL and exported as `<output-path>/[<output-file>_]<view>.<ext>`.

use anyhow::Result;

use super::export::{export, Format};
use super::import::Import;
use super::table::Table;

/// Summary settings.
pub(crate) struct Settings<'a> {
    pub(crate) format: Format,
    pub(crate) output_path: &'a std::path::Path,
    pub(crate) output_file: &'a str,
    pub(crate) domain_summary: bool,
    pub(crate) by_rank: bool,
    pub(crate) region_categories: Option<&'a [String]>,
}

/// `(view name, SELECT)` of the summary of `view`, grouped by `name_column` (and by process).
fn summary_query(view: &str, name_column: &str, by_rank: bool) -> (String, String) {
    let (suffix, group_by, agg_group_by, total_group_by, extra_select, extra_agg, join, total_join) = if by_rank {
        (
            "_summary_by_rank",
            format!("guid, {name_column}"),
            format!("T.guid, T.nid, T.{name_column}"),
            "guid",
            "AD.pid AS ProcessID, P.hostname AS Hostname,",
            "\n                    T.guid,\n                    T.nid,\n                    T.pid,",
            format!("T.guid = A.guid AND T.{name_column} = A.name"),
            "JOIN total_duration TD ON AD.guid = TD.guid JOIN processes P ON AD.pid = P.pid",
        )
    } else {
        (
            "_summary",
            name_column.to_string(),
            format!("T.{name_column}"),
            "",
            "",
            "",
            format!("T.{name_column} = A.name"),
            "CROSS JOIN total_duration TD",
        )
    };
    let avg_cols = group_by.replace(name_column, &format!("{name_column} AS name"));
    let total_cols = if total_group_by.is_empty() { String::new() } else { format!("{total_group_by},") };
    let total_grp = if total_group_by.is_empty() { String::new() } else { format!("GROUP BY {total_group_by}") };
    let order_pid = if by_rank { "AD.pid," } else { "" };
    let sql = format!(
        "WITH
            avg_data AS (
                SELECT {avg_cols}, AVG(duration) AS avg_duration
                FROM {view} GROUP BY {group_by}
            ),
            aggregated_data AS (
                SELECT{extra_agg}
                    T.{name_column} as name,
                    COUNT(*) AS calls,
                    SUM(T.duration) AS total_duration,
                    A.avg_duration AS average_duration,
                    MIN(T.duration) AS min_duration,
                    MAX(T.duration) AS max_duration,
                    SQRT(SUM(CAST((T.duration - A.avg_duration) AS REAL) * CAST((T.duration - A.avg_duration) AS REAL)) / (COUNT(*) - 1)) AS std_dev_duration
                FROM {view} T
                JOIN avg_data A ON {join}
                GROUP BY {agg_group_by}
            ),
            total_duration AS (
                SELECT {total_cols} SUM(total_duration) AS grand_total_duration
                FROM aggregated_data {total_grp}
            )
        SELECT
            {extra_select}
            AD.name AS Name,
            AD.calls AS Calls,
            AD.total_duration AS \"DURATION (nsec)\",
            AD.average_duration AS \"AVERAGE (nsec)\",
            (CAST(AD.total_duration AS REAL) / TD.grand_total_duration) * 100 AS \"PERCENT (INC)\",
            AD.min_duration AS \"MIN (nsec)\",
            AD.max_duration AS \"MAX (nsec)\",
            AD.std_dev_duration AS \"STD_DEV\"
        FROM aggregated_data AD {total_join}
        ORDER BY {order_pid} AD.total_duration DESC"
    );
    (format!("{view}{suffix}"), sql)
}

/// `(view name, SELECT)` of the domain summary over every `*_summary` (or `*_summary_by_rank`)
/// view; None when there is none.
fn domain_query(import: &Import, by_rank: bool) -> Result<Option<(String, String)>> {
    let (suffix, name, group_cols, select_cols, total_group, join, order) = if by_rank {
        (
            "_summary_by_rank",
            "domain_summary_by_rank",
            "ProcessID, Hostname,",
            "GD.ProcessID, GD.Hostname,",
            "GROUP BY ProcessID",
            "JOIN total_duration TD ON GD.ProcessID = TD.ProcessID",
            "ORDER BY GD.ProcessID",
        )
    } else {
        (
            "_summary",
            "domain_summary",
            "",
            "",
            "",
            "CROSS JOIN total_duration TD",
            "ORDER BY GD.\"DURATION (nsec)\" DESC",
        )
    };
    let views: Vec<String> = import.temp_views()?.into_iter().filter(|v| v.ends_with(suffix)).collect();
    if views.is_empty() {
        return Ok(None);
    }
    let unions: Vec<String> = views
        .iter()
        .map(|v| format!(" SELECT '{}' as domain, * FROM {v} ", v.trim_end_matches(suffix).to_uppercase()))
        .collect();
    let rank_group = if by_rank { ", ProcessID" } else { "" };
    let sql = format!(
        "WITH
            all_domains AS ({}),
            grouped_domains AS (
                SELECT domain, {group_cols}
                    SUM(calls) AS calls,
                    SUM(\"DURATION (nsec)\") AS \"DURATION (nsec)\",
                    SUM(\"AVERAGE (nsec)\") AS \"AVERAGE (nsec)\",
                    MIN(\"MIN (nsec)\") AS \"MIN (nsec)\",
                    MAX(\"MAX (nsec)\") AS \"MAX (nsec)\",
                    SUM(\"STD_DEV\") AS \"STD_DEV\"
                FROM all_domains GROUP BY domain{rank_group}
            ),
            total_duration AS (
                SELECT {group_cols} SUM(\"DURATION (nsec)\") AS grand_total_duration
                FROM grouped_domains {total_group}
            )
        SELECT {select_cols}
            GD.domain AS Name,
            GD.calls AS Calls,
            GD.\"DURATION (nsec)\",
            GD.\"AVERAGE (nsec)\",
            (CAST(GD.\"DURATION (nsec)\" AS REAL) / TD.grand_total_duration) * 100 AS \"PERCENT (INC)\",
            GD.\"MIN (nsec)\",
            GD.\"MAX (nsec)\",
            GD.\"STD_DEV\"
        FROM grouped_domains GD {join}
        {order}",
        unions.join(" UNION ALL ")
    );
    Ok(Some((name.to_string(), sql)))
}

fn create_view(import: &Import, name: &str, sql: &str) -> Result<()> {
    import.conn.execute_batch(&format!("CREATE TEMPORARY VIEW IF NOT EXISTS `{name}` AS {sql}"))?;
    Ok(())
}

/// Summary views of the timed data views (those with a `duration` column).
fn data_summaries(import: &Import, by_rank: bool) -> Result<()> {
    for view in import.temp_views()? {
        if ["rocpd", "region", "counter", "pmc"].iter().any(|p| view.contains(p)) {
            continue;
        }
        if !import.columns(&view)?.iter().any(|c| c == "duration") {
            continue;
        }
        let name_column = match view.as_str() {
            "memory_allocations" => "type",
            "scratch_memory" => "operation",
            _ => "name",
        };
        for rank in [false, true] {
            if rank && !by_rank {
                continue;
            }
            let (name, sql) = summary_query(&view, name_column, rank);
            create_view(import, &name, &sql)?;
        }
    }
    Ok(())
}

/// One view per region category (`HIP_RUNTIME_API` and `HIP_COMPILER_API` make `hip`), and
/// `markers` named by their message, each with its summary.
fn region_summaries(import: &Import, by_rank: bool, wanted: Option<&[String]>) -> Result<()> {
    let categories: Vec<String> = Table::query(&import.conn, "SELECT DISTINCT(category) FROM regions_and_samples")?
        .rows
        .into_iter()
        .filter_map(|r| match r.into_iter().next() {
            Some(super::table::Cell::Text(s)) => Some(s),
            _ => None,
        })
        .collect();
    let mut prefixes: Vec<String> = match wanted {
        Some(w) => w.to_vec(),
        None => categories.iter().map(|c| c.split('_').next().unwrap_or_default().to_string()).collect(),
    };
    prefixes.sort();
    prefixes.dedup();
    for p in prefixes.iter().filter(|p| !p.to_uppercase().contains("MARKER")) {
        let members: Vec<&String> = categories.iter().filter(|c| c.starts_with(&format!("{p}_"))).collect();
        if members.is_empty() {
            continue;
        }
        let view = p.to_lowercase();
        let cond: Vec<String> = members.iter().map(|c| format!("category LIKE '{}'", c.replace('\'', "''"))).collect();
        import.conn.execute_batch(&format!(
            "CREATE TEMPORARY VIEW IF NOT EXISTS `{view}` AS SELECT * FROM regions_and_samples WHERE {};",
            cond.join(" OR ")
        ))?;
        for rank in [false, true] {
            if rank && !by_rank {
                continue;
            }
            let (name, sql) = summary_query(&view, "name", rank);
            create_view(import, &name, &sql)?;
        }
    }
    if !prefixes.iter().any(|p| p == "MARKER") {
        return Ok(());
    }
    import.conn.execute_batch(
        "CREATE TEMPORARY VIEW IF NOT EXISTS `markers` AS \
         SELECT JSON_EXTRACT(extdata, '$.message') AS marker_name, * FROM regions_and_samples \
         WHERE category LIKE 'MARKER_%';",
    )?;
    for rank in [false, true] {
        if rank && !by_rank {
            continue;
        }
        let (name, sql) = summary_query("markers", "marker_name", rank);
        create_view(import, &name, &sql)?;
    }
    Ok(())
}

/// Writes every summary view (and the per-rank ones) as AMD's `generate_all_summaries`.
pub(crate) fn run(import: &Import, s: &Settings<'_>) -> Result<Vec<std::path::PathBuf>> {
    data_summaries(import, s.by_rank)?;
    region_summaries(import, s.by_rank, s.region_categories)?;
    if s.domain_summary {
        for rank in [false, true] {
            if rank && !s.by_rank {
                continue;
            }
            if let Some((name, sql)) = domain_query(import, rank)? {
                create_view(import, &name, &sql)?;
            }
        }
    }
    let mut files = Vec::new();
    let groups: &[(&str, &str)] = if s.by_rank {
        &[("Summary files:", "_summary"), ("Summary files by rank:", "_summary_by_rank")]
    } else {
        &[("Summary files:", "_summary")]
    };
    for (title, suffix) in groups {
        println!("\n{title}");
        for view in import.temp_views()?.into_iter().filter(|v| v.ends_with(suffix)) {
            let sql = format!("SELECT * FROM `{view}`");
            let table = Table::query(&import.conn, &sql)?;
            if table.rows.is_empty() {
                continue;
            }
            if s.format == Format::Console {
                println!("\n{}:", view.to_uppercase());
            }
            let name = if s.output_file.is_empty() { view.clone() } else { format!("{}_{view}", s.output_file) };
            files.extend(export(&table, &sql, s.format, &s.output_path.join(name), None)?);
        }
    }
    Ok(files)
}
