//! Optional logs for tests.
//!
//! * `ROCPROF_RS_SIM_DISPATCH_LOG=<path>`: every AQL packet exactly as a hardware queue received it, one line
//!   per packet: `queue=<id> index=<n> <128 lowercase hex chars>` (the 64 bytes in memory order, header
//!   included). Lines are written before the packet executes and flushed immediately.
//! * `ROCPROF_RS_SIM_PM4_LOG=<path>`: the parsed contents of every PM4-IB vendor packet and every PM4
//!   violation (see `pm4.rs`).

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

static DISPATCH: Mutex<Option<File>> = Mutex::new(None);
static PM4: Mutex<Option<File>> = Mutex::new(None);

fn open_one(slot: &Mutex<Option<File>>, path: Option<&Path>) {
    let mut g = slot.lock().unwrap_or_else(|e| e.into_inner());
    *g = path.and_then(|p| match std::fs::OpenOptions::new().create(true).append(true).open(p) {
        Ok(f) => Some(f),
        Err(e) => {
            crate::diag!("cannot open log {}: {e}", p.display());
            None
        }
    });
}

pub(crate) fn open(dispatch: Option<&Path>, pm4: Option<&Path>) {
    open_one(&DISPATCH, dispatch);
    open_one(&PM4, pm4);
}

/// Formats one dispatch-log line (without the newline).
pub(crate) fn format_line(queue: u64, index: u64, pkt: &[u8; 64]) -> String {
    let mut s = format!("queue={queue} index={index} ");
    for b in pkt {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

pub(crate) fn record(queue: u64, index: u64, pkt: &[u8; 64]) {
    let mut g = DISPATCH.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(f) = g.as_mut() {
        let mut line = format_line(queue, index, pkt);
        line.push('\n');
        let _ = f.write_all(line.as_bytes());
    }
}

/// Whether `ROCPROF_RS_SIM_PM4_LOG` is open (callers skip formatting lines otherwise).
pub(crate) fn pm4_enabled() -> bool {
    PM4.lock().unwrap_or_else(|e| e.into_inner()).is_some()
}

pub(crate) fn pm4_line(line: &str) {
    let mut g = PM4.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(f) = g.as_mut() {
        let _ = writeln!(f, "{line}");
    }
}

pub(crate) fn flush() {
    for slot in [&DISPATCH, &PM4] {
        if let Some(f) = slot.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            let _ = f.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_format_is_128_hex_chars() {
        let mut p = [0u8; 64];
        p[0] = 0x02;
        p[1] = 0x13;
        p[63] = 0xab;
        let l = format_line(3, 17, &p);
        let hex = l.strip_prefix("queue=3 index=17 ").unwrap();
        assert_eq!(hex.len(), 128);
        assert!(hex.starts_with("0213"));
        assert!(hex.ends_with("ab"));
    }
}
