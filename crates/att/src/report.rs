//! The terminal answer to "where do my waves stall?": per traced dispatch, its kernel, the waves
//! traced, the top instructions by total stall and by total latency (address, disassembly, hit
//! count, cycles, share of the dispatch's total) and what was lost.

use std::fmt::Write as _;

use rocprof_sqtt::Info;

use crate::decode::Decoded;
use crate::listing::{Listing, Row};

/// Data a shader engine's capture lost (known from the capture's control buffer).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SeLoss {
    /// Shader engine.
    pub se: u32,
    /// Trace bytes that did not fit the buffer.
    pub bytes_lost: u64,
    /// Waves whose trace was cut short or lost.
    pub waves_lost: u64,
}

/// One hot instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hot {
    /// Code-object id.
    pub codeobj: u64,
    /// ELF virtual address.
    pub vaddr: u64,
    /// Disassembly.
    pub text: String,
    /// Executions.
    pub hits: u64,
    /// Total stall cycles.
    pub stall: i64,
    /// Total latency cycles.
    pub latency: i64,
}

/// The report of one dispatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Which dispatch.
    pub label: String,
    /// Kernels (demangled) the traced waves ran.
    pub kernels: Vec<String>,
    /// Waves with at least one traced instruction.
    pub waves: usize,
    /// Traced instructions.
    pub instructions: u64,
    /// Sum of stalls over every instruction.
    pub total_stall: i64,
    /// Sum of latencies.
    pub total_latency: i64,
    /// Top rows by stall.
    pub by_stall: Vec<Hot>,
    /// Top rows by latency.
    pub by_latency: Vec<Hot>,
    /// Shader engines whose stream reports lost data.
    pub data_lost_ses: Vec<u32>,
    /// Shader engines with waves that have no end in the trace (cut short).
    pub incomplete_ses: Vec<u32>,
    /// Loss known from the capture.
    pub capture_loss: Vec<SeLoss>,
}

fn hot(r: &Row) -> Hot {
    Hot { codeobj: r.codeobj, vaddr: r.vaddr, text: r.text.clone(), hits: r.hits, stall: r.stall, latency: r.latency }
}

/// Builds the report of `d` with the `top` rows of each ranking.
pub fn summarize(d: &Decoded, listing: &Listing, top: usize, capture_loss: &[SeLoss]) -> Summary {
    let waves = d.ses.iter().flat_map(|s| &s.decode.waves).filter(|w| !w.instructions.is_empty()).count();
    let instructions = d.ses.iter().flat_map(|s| &s.decode.waves).map(|w| w.instructions.len() as u64).sum();
    let rows: Vec<&Row> = listing.rows.iter().filter(|r| !r.is_label && r.hits > 0).collect();
    let rank = |key: fn(&Row) -> i64| {
        let mut v: Vec<&Row> = rows.iter().copied().filter(|r| key(r) > 0).collect();
        v.sort_by(|a, b| key(b).cmp(&key(a)).then(a.line.cmp(&b.line)));
        v.into_iter().take(top).map(hot).collect::<Vec<_>>()
    };
    let mut kernels: Vec<String> = Vec::new();
    for r in &rows {
        let name = &listing.kernels[r.kernel].name;
        if !kernels.contains(name) {
            kernels.push(name.clone());
        }
    }
    if kernels.is_empty() {
        kernels.extend(d.capture.kernel.iter().cloned());
    }
    Summary {
        label: d.capture.label(),
        kernels,
        waves,
        instructions,
        total_stall: listing.rows.iter().map(|r| r.stall).sum(),
        total_latency: listing.rows.iter().map(|r| r.latency).sum(),
        by_stall: rank(|r| r.stall),
        by_latency: rank(|r| r.latency),
        data_lost_ses: d.ses.iter().filter(|s| s.decode.info.contains(&Info::DataLost)).map(|s| s.se).collect(),
        incomplete_ses: d.ses.iter().filter(|s| s.decode.info.contains(&Info::WaveIncomplete)).map(|s| s.se).collect(),
        capture_loss: capture_loss
            .iter()
            .filter(|l| l.bytes_lost > 0 || l.waves_lost > 0)
            .map(|l| {
                // Waves that started in the trace but whose end did not fit the buffer.
                let cut = d.ses.iter().find(|s| s.se == l.se).map_or(0, |s| {
                    let starts = s.decode.occupancy.iter().filter(|o| o.start).count();
                    let ends = s.decode.occupancy.iter().filter(|o| !o.start).count();
                    starts.saturating_sub(ends) as u64
                });
                SeLoss { waves_lost: l.waves_lost.max(cut), ..*l }
            })
            .collect(),
    }
}

fn share(part: i64, total: i64) -> String {
    if total <= 0 {
        return "-".into();
    }
    format!("{:.1}%", part as f64 * 100.0 / total as f64)
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

fn table(out: &mut String, title: &str, rows: &[Hot], key: fn(&Hot) -> i64, total: i64) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "  top by {title}:");
    let _ = writeln!(out, "    {:>8}  {:<44} {:>6} {:>12} {:>7}", "pc", "instruction", "hits", "cycles", "share");
    for h in rows {
        let _ = writeln!(
            out,
            "    {:>8}  {:<44} {:>6} {:>12} {:>7}",
            format!("{:#x}", h.vaddr),
            clip(&h.text, 44),
            h.hits,
            key(h),
            share(key(h), total)
        );
    }
}

/// Renders the reports as text for a terminal.
pub fn render(summaries: &[Summary]) -> String {
    let mut out = String::new();
    for s in summaries {
        let kernels = if s.kernels.is_empty() { "(unknown kernel)".to_string() } else { s.kernels.join(", ") };
        let _ = writeln!(
            out,
            "ATT {}: {} — {} waves traced, {} instructions, {} stall cycles",
            s.label, kernels, s.waves, s.instructions, s.total_stall
        );
        table(&mut out, "stall", &s.by_stall, |h| h.stall, s.total_stall);
        table(&mut out, "latency", &s.by_latency, |h| h.latency, s.total_latency);
        let mut loss: Vec<String> = s
            .capture_loss
            .iter()
            .map(|l| format!("SE{}: {} bytes and {} waves lost (buffer full)", l.se, l.bytes_lost, l.waves_lost))
            .collect();
        if !s.data_lost_ses.is_empty() {
            loss.push(format!("the stream of SE {:?} reports lost data", s.data_lost_ses));
        }
        if !s.incomplete_ses.is_empty() {
            loss.push(format!("waves cut short on SE {:?}", s.incomplete_ses));
        }
        let _ = writeln!(out, "  loss: {}", if loss.is_empty() { "none".to_string() } else { loss.join("; ") });
    }
    out
}
