//! Counter collection options (rocprofv3 section 4): `--pmc`, `-E/--extra-counters`, and the
//! input-file-only `pmc_groups` / `pmc_group_interval` (as hidden `--pmc-groups` /
//! `--pmc-group-interval`, which is how `-i` files reach them), plus our `--no-replay`.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;

use crate::config::PmcRequest;

/// The option group.
#[derive(Debug, Default, Args)]
pub(crate) struct PmcArgs {
    /// Hardware or derived counters to collect on every selected kernel dispatch, space- or
    /// comma-separated (NAME or NAME:device=N). A set that does not fit one pass is split and the
    /// application runs once per pass (see --no-replay); `rocprof-rs avail` lists the counters.
    #[arg(long, value_name = "COUNTER", num_args = 0..)]
    pmc: Option<Vec<String>>,

    /// YAML file with extra (derived) counter definitions added to the counter database.
    #[arg(short = 'E', long, value_name = "FILE")]
    extra_counters: Option<PathBuf>,

    /// Fail with the pass plan instead of running the application once per pass when the
    /// counters do not fit one pass.
    #[arg(long)]
    no_replay: bool,

    /// Counter groups multiplexed in one run (input files' `pmc_groups`): groups separated by
    /// `;`, counters by `,` or space.
    #[arg(long, value_name = "GROUPS", hide = true)]
    pmc_groups: Option<String>,

    /// Dispatches per agent before switching to the next group (input files' `pmc_group_interval`).
    #[arg(long, value_name = "N", hide = true)]
    pmc_group_interval: Option<u64>,
}

impl PmcArgs {
    /// The request, or `None` when no counters were asked for.
    pub(crate) fn into_request(self) -> Result<Option<PmcRequest>> {
        let items = self.pmc.map(|v| v.join(" ")).filter(|s| !s.trim().is_empty());
        let groups: Vec<String> = self
            .pmc_groups
            .as_deref()
            .map(|g| g.split(';').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect())
            .unwrap_or_default();
        if items.is_some() && !groups.is_empty() {
            bail!("cannot specify both --pmc and (input file) pmc_groups");
        }
        if self.pmc_group_interval == Some(0) {
            bail!("pmc_group_interval must be at least 1");
        }
        // rocprofv3 accepts -E and an interval alone (they only matter with counters); so do we.
        if items.is_none() && groups.is_empty() {
            return Ok(None);
        }
        let mut parsed = Vec::new();
        for text in items.iter().chain(groups.iter()) {
            let list = rocprof_counters::parse_pmc_items(text)?;
            if list.is_empty() {
                bail!("--pmc '{text}' names no counter");
            }
            parsed.push(list);
        }
        if let Some(f) = &self.extra_counters {
            if !f.is_file() {
                bail!("-E/--extra-counters: {} does not exist or is not a file", f.display());
            }
        }
        Ok(Some(PmcRequest {
            groups: parsed,
            multiplexed: items.is_none(),
            interval: self.pmc_group_interval.unwrap_or(1),
            extra_counters: self.extra_counters,
            no_replay: self.no_replay,
        }))
    }
}
