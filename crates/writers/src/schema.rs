//! The output schemas, pulled in from `schemas/` at compile time, and small helpers over them:
//! template rendering for the rocpd SQL, the list of rocpd tables, the generated alias views,
//! the named INSERT statements, and CSV headers.
//!
//! Nothing else in the writers spells a table or CSV column name: the SQL lives in the files,
//! and the writers bind values positionally in the order those files give.

/// Physical rocpd tables and metadata rows (`{{uuid}}`/`{{guid}}` placeholders).
pub const ROCPD_TABLES_SQL: &str = include_str!("../../../schemas/rocpd/tables.sql");
/// User-facing rocpd data views.
pub const ROCPD_DATA_VIEWS_SQL: &str = include_str!("../../../schemas/rocpd/data_views.sql");
/// rocpd summary views.
pub const ROCPD_SUMMARY_VIEWS_SQL: &str = include_str!("../../../schemas/rocpd/summary_views.sql");
/// The writer's INSERT statements, one per `-- name:` block.
pub const ROCPD_INSERTS_SQL: &str = include_str!("../../../schemas/rocpd/inserts.sql");

/// Header of `kernel_trace.csv`, one column per line.
pub const KERNEL_TRACE_COLUMNS: &str = include_str!("../../../schemas/csv/kernel_trace.columns");
/// Header of `agent_info.csv`, one column per line.
pub const AGENT_INFO_COLUMNS: &str = include_str!("../../../schemas/csv/agent_info.columns");
/// Header of every API trace file (`hsa_api_trace.csv`, `hip_api_trace.csv`,
/// `marker_api_trace.csv`, ...), one column per line.
pub const API_TRACE_COLUMNS: &str = include_str!("../../../schemas/csv/api_trace.columns");
/// Header of `memory_copy_trace.csv`.
pub const MEMORY_COPY_TRACE_COLUMNS: &str = include_str!("../../../schemas/csv/memory_copy_trace.columns");
/// Header of `memory_allocation_trace.csv`.
pub const MEMORY_ALLOCATION_TRACE_COLUMNS: &str = include_str!("../../../schemas/csv/memory_allocation_trace.columns");
/// Header of `scratch_memory_trace.csv` (with `Allocation_Size`, added after ROCm 6.4).
pub const SCRATCH_MEMORY_TRACE_COLUMNS: &str = include_str!("../../../schemas/csv/scratch_memory_trace.columns");
/// Header of every `*_stats.csv` and `domain_stats.csv`, one column per line.
pub const STATS_COLUMNS: &str = include_str!("../../../schemas/csv/stats.columns");
/// `counter_collection.csv` columns.
pub const COUNTER_COLLECTION_COLUMNS: &str = include_str!("../../../schemas/csv/counter_collection.columns");
/// `counter_collection_stats.csv` columns (ours: rocprofv3 has no counter statistics).
pub const COUNTER_STATS_COLUMNS: &str = include_str!("../../../schemas/csv/counter_collection_stats.columns");

/// The rocpd schema version written to `rocpd_metadata` (matches AMD's).
pub const ROCPD_SCHEMA_VERSION: &str = "3";

/// Our own version of the rocpd DDL and writer, stored as `PRAGMA user_version`. Bump it when
/// anything in `schemas/rocpd/` changes.
pub const ROCPD_USER_VERSION: u32 = 2;

/// The column names of a `.columns` file.
pub fn columns(list: &'static str) -> Vec<&'static str> {
    list.lines().map(str::trim).filter(|l| !l.is_empty()).collect()
}

/// A CSV header line as rocprofv3 writes it: every name double-quoted, comma-separated, `\n`.
pub fn csv_header(list: &'static str) -> String {
    let mut s = columns(list).iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(",");
    s.push('\n');
    s
}

/// Replaces the rocpd template placeholders. `uuid_suffix` is `_<uuid with underscores>` (or
/// empty for un-suffixed tables), `guid` the UUID with dashes.
pub fn render(template: &str, uuid_suffix: &str, guid: &str) -> String {
    template.replace("{{uuid}}", uuid_suffix).replace("{{guid}}", guid)
}

/// Base names of the physical rocpd tables, in DDL order.
pub fn rocpd_tables() -> Vec<&'static str> {
    const HEAD: &str = "CREATE TABLE IF NOT EXISTS \"";
    ROCPD_TABLES_SQL
        .lines()
        .filter_map(|l| l.trim().strip_prefix(HEAD))
        .filter_map(|rest| rest.split_once("{{uuid}}").map(|(name, _)| name))
        .collect()
}

/// One column of a physical rocpd table, as its DDL line declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnDef {
    /// Column name.
    pub name: &'static str,
    /// The declaration without the trailing comma (`"guid" TEXT DEFAULT '{{guid}}' NOT NULL`).
    pub decl: &'static str,
}

impl ColumnDef {
    /// Whether the column has a default value (rows need not store it, see
    /// [`rocpd_deferred_ddl`]).
    pub fn has_default(&self) -> bool {
        self.decl.contains(" DEFAULT ")
    }
}

/// The columns of every physical rocpd table, in DDL order (AMD's column order).
pub fn rocpd_table_columns() -> Vec<(&'static str, Vec<ColumnDef>)> {
    const HEAD: &str = "CREATE TABLE IF NOT EXISTS \"";
    let mut out: Vec<(&'static str, Vec<ColumnDef>)> = Vec::new();
    let mut current: Option<(&'static str, Vec<ColumnDef>)> = None;
    for line in ROCPD_TABLES_SQL.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix(HEAD) {
            current = rest.split_once("{{uuid}}").map(|(name, _)| (name, Vec::new()));
        } else if t.starts_with(");") {
            out.extend(current.take());
        } else if let Some(cols) = current.as_mut() {
            if let Some(rest) = t.strip_prefix('"') {
                if let Some((name, _)) = rest.split_once('"') {
                    cols.1.push(ColumnDef { name, decl: t.trim_end_matches(',') });
                }
            }
        }
    }
    out
}

/// The columns each INSERT of `inserts.sql` names, by table base name.
fn inserted_columns() -> Vec<(&'static str, Vec<&'static str>)> {
    let mut out: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    let mut rest = ROCPD_INSERTS_SQL;
    while let Some(i) = rest.find("INSERT INTO \"") {
        rest = &rest[i + "INSERT INTO \"".len()..];
        let Some((table, after)) = rest.split_once("{{uuid}}") else { break };
        let cols = after.split_once('(').and_then(|(_, c)| c.split_once(')')).map_or("", |(c, _)| c);
        let names: Vec<&'static str> = cols.split(',').map(|c| c.trim().trim_matches('"')).collect();
        match out.iter_mut().find(|(t, _)| *t == table) {
            Some((_, v)) => v.extend(names),
            None => out.push((table, names)),
        }
    }
    out
}

/// The physical tables split in two steps, so that rows do not store values every row shares:
/// `create` makes each table without the columns that have a default and that no INSERT of
/// `inserts.sql` names (the session `guid` of every row, the `'{}'` JSON columns the writer
/// leaves empty); `alter` adds those columns back (`ALTER TABLE ... ADD COLUMN` with the same
/// declaration) once the rows are in. SQLite then reads the default for every row written
/// before the ALTER without storing it: 36 bytes of guid per row and table, and 3 per empty
/// JSON column. Such columns come last in the physical table; the alias views
/// ([`rocpd_alias_views_sql`]) list the columns in AMD's order, and readers query those.
/// `create` also holds the INSERTs of the metadata rows that follow the tables in the DDL.
pub fn rocpd_deferred_ddl(uuid_suffix: &str, guid: &str) -> (String, String) {
    let inserted = inserted_columns();
    let deferred = |table: &str, c: &ColumnDef| {
        c.has_default()
            && !inserted.iter().any(|(t, cols)| *t == table && cols.contains(&c.name))
            && !ROCPD_TABLES_SQL.contains(&format!("INSERT INTO \"{table}{{{{uuid}}}}\""))
    };
    let defs = rocpd_table_columns();
    let mut create = String::new();
    let mut alter = String::new();
    let mut table: Option<&(&'static str, Vec<ColumnDef>)> = None;
    for line in ROCPD_TABLES_SQL.lines() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("CREATE TABLE IF NOT EXISTS \"") {
            table = rest.split_once("{{uuid}}").and_then(|(name, _)| defs.iter().find(|(n, _)| *n == name));
        } else if t.starts_with(");") {
            table = None;
        } else if let (Some((name, cols)), Some(rest)) = (table, t.strip_prefix('"')) {
            let col = rest.split_once('"').and_then(|(c, _)| cols.iter().find(|d| d.name == c));
            if let Some(c) = col.filter(|c| deferred(name, c)) {
                let decl = c.decl.split_whitespace().collect::<Vec<_>>().join(" ");
                alter.push_str(&format!("ALTER TABLE \"{name}{{{{uuid}}}}\" ADD COLUMN {decl};\n"));
                continue;
            }
        }
        create.push_str(line);
        create.push('\n');
    }
    (render(&create, uuid_suffix, guid), render(&alter, uuid_suffix, guid))
}

/// `CREATE VIEW <table> AS SELECT <columns in AMD's order> FROM <table><suffix>` for every
/// physical table: the plain names every rocpd reader queries.
pub fn rocpd_alias_views_sql(uuid_suffix: &str) -> String {
    rocpd_table_columns()
        .iter()
        .map(|(t, cols)| {
            let list = cols.iter().map(|c| format!("\"{}\"", c.name)).collect::<Vec<_>>().join(", ");
            format!("CREATE VIEW IF NOT EXISTS \"{t}\" AS SELECT {list} FROM \"{t}{uuid_suffix}\";\n")
        })
        .collect()
}

/// The INSERT statement named `name` in `inserts.sql`, still with placeholders.
pub fn rocpd_insert(name: &str) -> Option<&'static str> {
    let marker = format!("-- name: {name}\n");
    let start = ROCPD_INSERTS_SQL.find(&marker)? + marker.len();
    let rest = &ROCPD_INSERTS_SQL[start..];
    let end = rest.find(';')? + 1;
    Some(rest[..end].trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_tables_in_ddl_order() {
        let t = rocpd_tables();
        assert_eq!(t.len(), 20, "{t:?}");
        assert_eq!(t[0], "rocpd_metadata");
        assert_eq!(t[1], "rocpd_string");
        assert!(t.contains(&"rocpd_kernel_dispatch"));
        assert_eq!(*t.last().unwrap(), "rocpd_memory_allocate");
    }

    #[test]
    fn csv_headers_have_rocprofv3_column_counts() {
        assert_eq!(columns(KERNEL_TRACE_COLUMNS).len(), 22);
        assert_eq!(
            csv_header(COUNTER_COLLECTION_COLUMNS),
            "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\",\"Thread_Id\",\"Grid_Size\",\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\",\"SGPR_Count\",\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\",\"End_Timestamp\"\n"
        );
        assert_eq!(columns(AGENT_INFO_COLUMNS).len(), 53);
        assert_eq!(
            csv_header(API_TRACE_COLUMNS),
            "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n"
        );
        assert_eq!(columns(MEMORY_COPY_TRACE_COLUMNS).len(), 8);
        assert_eq!(columns(MEMORY_ALLOCATION_TRACE_COLUMNS).len(), 8);
        assert_eq!(columns(SCRATCH_MEMORY_TRACE_COLUMNS).len(), 9);
        assert_eq!(
            csv_header(STATS_COLUMNS),
            "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\"\n"
        );
    }

    #[test]
    fn deferred_columns_are_the_shared_defaults_only() {
        let (create, alter) = rocpd_deferred_ddl("_x", "g-1");
        assert!(
            alter.contains("ALTER TABLE \"rocpd_kernel_dispatch_x\" ADD COLUMN \"guid\" TEXT DEFAULT 'g-1' NOT NULL;")
        );
        assert!(alter
            .contains("ALTER TABLE \"rocpd_kernel_dispatch_x\" ADD COLUMN \"extdata\" JSONB DEFAULT '{}' NOT NULL;"));
        assert!(alter.contains("ALTER TABLE \"rocpd_event_x\" ADD COLUMN \"call_stack\" JSONB DEFAULT '{}' NOT NULL;"));
        // Written by the INSERTs: stays in place.
        assert!(!alter.contains("\"rocpd_pmc_event_x\" ADD COLUMN \"extdata\""), "{alter}");
        assert!(!alter.contains("\"rocpd_info_agent_x\" ADD COLUMN \"extdata\""), "{alter}");
        // The metadata rows are inserted by the DDL without naming the guid-less table's columns.
        assert!(!alter.contains("rocpd_metadata"), "{alter}");
        assert!(create.contains("\"dispatch_id\""));
        assert!(!create.lines().any(|l| l.trim_start().starts_with("\"guid\"")), "every guid deferred");
        let c = rusqlite::Connection::open_in_memory().unwrap();
        c.execute_batch(&create).unwrap();
        c.execute_batch(&alter).unwrap();
        c.execute_batch(&rocpd_alias_views_sql("_x")).unwrap();
        let cols = |t: &str| {
            let mut st = c.prepare(&format!("PRAGMA table_info(\"{t}\")")).unwrap();
            st.query_map([], |r| r.get::<_, String>(1)).unwrap().map(Result::unwrap).collect::<Vec<_>>()
        };
        for (t, defs) in rocpd_table_columns() {
            let names: Vec<String> = defs.iter().map(|d| d.name.to_string()).collect();
            assert_eq!(cols(t), names, "view {t} in DDL order");
            let mut physical = cols(&format!("{t}_x"));
            physical.sort();
            let mut sorted = names.clone();
            sorted.sort();
            assert_eq!(physical, sorted, "table {t} has every column");
        }
    }

    #[test]
    fn inserts_are_found_by_name_and_render() {
        let sql = rocpd_insert("event").unwrap();
        assert!(sql.starts_with("INSERT INTO \"rocpd_event{{uuid}}\""), "{sql}");
        assert!(sql.ends_with(';'));
        assert!(render(sql, "_ab", "a-b").contains("\"rocpd_event_ab\""));
        assert_eq!(rocpd_insert("no_such_table"), None);
    }
}
