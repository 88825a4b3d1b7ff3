//! `rocprof-rs`: the command-line front end (placeholder until issue 3 lands).
fn main() {
    eprintln!("rocprof-rs: error: not built yet");
    std::process::exit(2);
}
