//! Fuzz target: `-i/--input` run-configuration files (rocprofv3's `.txt` / `.json` / `.yaml`),
//! through everything `rocprof-rs -i FILE -- app` does before the application starts (file
//! format, job list, each job's options parsed and resolved). The first byte picks the extension;
//! the rest is the file's text. Errors are expected; a panic is a bug.

#![no_main]

use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 4] = ["input.txt", "input.json", "input.yaml", "input.yml"];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(text);
    std::hint::black_box(rocprof_cli::fuzzing::input_file(NAMES[usize::from(pick & 3)], &text));
});
