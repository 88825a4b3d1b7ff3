//! `rocprof-rs att-decode DIR [-d OUT]`: decodes thread traces captured elsewhere (by rocprofv3 on
//! a GPU, or kept from an earlier `--att` run) into the same outputs an `--att` run writes:
//! `ui_output_agent_<agent>_dispatch_<id>/` for ROCprof Compute Viewer, `stats_*.csv`, and the
//! hotspot report on stdout. Exit status 1 when any capture could not be decoded (each is named,
//! with the byte offset of the damage); the others are still written.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use crate::att::{decode_dir, Request};
use crate::options::DecoderChoice;

/// Decode thread traces (.att + code objects) in DIR into rocprofv3's ui_output directories,
/// stats CSVs and a hotspot report.
#[derive(Debug, Parser)]
#[command(name = "rocprof-rs att-decode")]
struct AttDecodeArgs {
    /// Directory with *_shader_engine_<se>_<dispatch>.att and *_code_object_id_<id>.out files
    /// (searched recursively; also seN.att + code.elf + meta.json).
    #[arg(value_name = "DIR")]
    dir: PathBuf,

    /// Where the outputs go (same relative places as the inputs); default: DIR.
    #[arg(short = 'd', long, value_name = "OUT")]
    output_directory: Option<PathBuf>,

    /// Decoder: native (default) or amd (AMD's librocprof-trace-decoder.so).
    #[arg(long, value_name = "native|amd")]
    att_decoder: Option<String>,

    /// AMD's decoder library, or directories holding it (implies --att-decoder amd).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    att_library_path: Vec<PathBuf>,

    /// Instructions listed per hotspot ranking.
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,

    /// Do not print the hotspot report.
    #[arg(short = 'q', long)]
    quiet: bool,
}

fn run(args: AttDecodeArgs) -> anyhow::Result<bool> {
    let backend = DecoderChoice::resolve(args.att_decoder.as_deref(), &args.att_library_path)?.load()?;
    let output = args.output_directory.clone().unwrap_or_else(|| args.dir.clone());
    let outcome = decode_dir(&Request {
        input: &args.dir,
        output: &output,
        backend: &backend,
        counter_names: Vec::new(),
        top: args.top,
        loss: Default::default(),
        verbose: true,
        prefixes: None,
    })?;
    if !args.quiet {
        print!("{}", outcome.report());
    }
    for e in &outcome.errors {
        eprintln!("rocprof-rs: error: {e}");
    }
    Ok(outcome.errors.is_empty())
}

/// Entry point from the subcommand table.
pub(crate) fn main(args: Vec<OsString>) -> ExitCode {
    let argv = std::iter::once(OsString::from("rocprof-rs att-decode")).chain(args);
    let args = match AttDecodeArgs::try_parse_from(argv) {
        Ok(a) => a,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid command line");
            eprintln!("rocprof-rs: error: {} (see rocprof-rs att-decode --help)", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("rocprof-rs: error: {e:#}");
            ExitCode::from(1)
        }
    }
}
