//! Times the planner on random large requests (not part of the test suite).
use std::time::Instant;
fn main() {
    let db = rocprof_counters::Database::builtin();
    for target in ["gfx950", "gfx942", "gfx1100"] {
        let a = rocprof_counters::Agent::reference(target).unwrap();
        let names: Vec<&str> = db.target(target).unwrap().counters.iter().map(|c| c.name.as_str()).collect();
        let mut x: u64 = 12345;
        let mut worst = 0f64;
        let mut passes = 0;
        for _ in 0..200 {
            let k = 20 + (x % 13) as usize;
            let req: Vec<&str> = (0..k)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    names[(x % names.len() as u64) as usize]
                })
                .collect();
            let t = Instant::now();
            if let Ok(p) = rocprof_counters::plan(&a, &req) {
                passes = passes.max(p.passes.len());
            }
            worst = worst.max(t.elapsed().as_secs_f64());
        }
        println!("{target}: worst {worst:.3}s, max passes {passes}");
    }
}
