//! Property test: random token soup never panics the parser, the planner or the evaluator.

use rocprof_counters::{evaluate_expr, Database, Expr, Samples};

use crate::{agent, put_all};

/// Tiny deterministic xorshift generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

const TOKENS: &[&str] = &[
    "SQ_WAVES",
    "GRBM_COUNT",
    "TCC_HIT",
    "GPU_UTIL",
    "CU_NUM",
    "simd_count",
    "FOO",
    "reduce",
    "select",
    "accumulate",
    "sum",
    "max",
    "min",
    "avr",
    "HIGH_RES",
    "LOW_RES",
    "NONE",
    "DIMENSION_XCC",
    "DIMENSION_SHADER_ENGINE",
    "DIMENSION_INSTANCE",
    "(",
    ")",
    "[",
    "]",
    ",",
    "=",
    ":",
    "+",
    "-",
    "*",
    "/",
    "0",
    "1",
    "7",
    "1.5",
    ".",
    "e",
    "$",
    " ",
    "\u{e9}",
    "|",
];

#[test]
fn random_expressions_never_panic() {
    let a = agent("gfx942");
    let db = Database::builtin();
    let t = db.target("gfx942").unwrap();
    let mut s = Samples::new();
    for c in ["SQ_WAVES", "GRBM_COUNT", "GRBM_GUI_ACTIVE", "TCC_HIT"] {
        put_all(&mut s, &a, c, 3.0);
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut parsed = 0;
    for _ in 0..20_000 {
        let n = 1 + rng.next() % 12;
        let text: String = (0..n).map(|_| rng.pick(TOKENS)).collect();
        if let Ok(e) = Expr::parse(&text) {
            parsed += 1;
            let _ = evaluate_expr(t, &a, &e, &s);
        }
    }
    // The soup is meant to hit both outcomes.
    assert!(parsed > 100, "only {parsed} parsed");
    // Well-formed structured expressions evaluate.
    let e = Expr::parse("reduce(select(SQ_WAVES,[DIMENSION_XCC=[0:3]]),sum)/(1+CU_NUM-CU_NUM)").unwrap();
    assert_eq!(evaluate_expr(t, &a, &e, &s).unwrap().as_scalar(), Some(4.0 * 4.0 * 3.0));
}

#[test]
fn random_requests_never_panic_the_planner() {
    let mut rng = Rng(42);
    let names: Vec<String> =
        Database::builtin().target("gfx950").unwrap().counters.iter().map(|c| c.name.clone()).collect();
    let a = agent("gfx950");
    for _ in 0..30 {
        let k = 1 + (rng.next() % 24) as usize;
        let req: Vec<&str> = (0..k).map(|_| names[(rng.next() % names.len() as u64) as usize].as_str()).collect();
        match rocprof_counters::plan(&a, &req) {
            Ok(p) => {
                // Every requested counter is placed exactly once, in a pass that fits.
                for name in &req {
                    assert_eq!(p.placements.iter().filter(|x| x.counter == *name).count(), 1);
                }
                for pass in &p.passes {
                    assert!(pass.usage.iter().all(|u| u.used <= u.slots), "{pass:?}");
                }
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

#[test]
fn mutated_database_text_never_panics() {
    // Start from a small valid database and flip, drop or duplicate bytes and lines.
    let base = "format 1\n\
                target gfx908 family=gfx9 xcc=1 se=8 sa_per_se=1 cu=120 simd_per_cu=4 wave=64\n\
                block SQ enum=6 instances=1 counters=8 attr=0x6 event_max=303\n\
                base SQ_WAVES SQ 4\n\
                derived W reduce(SQ_WAVES,sum)*2\n\
                end\n";
    assert!(Database::parse(base).is_ok());
    let mut rng = Rng(7);
    let mut rejected = 0;
    for _ in 0..5_000 {
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..1 + rng.next() % 3 {
            let at = (rng.next() % bytes.len() as u64) as usize;
            match rng.next() % 3 {
                0 => bytes[at] = b" =x0\n#(9"[(rng.next() % 8) as usize],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, bytes[at]),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if Database::parse(&text).is_err() {
            rejected += 1;
        }
    }
    assert!(rejected > 1_000, "only {rejected} mutations rejected");
}

#[test]
fn longest_accepted_operator_chain_evaluates() {
    // 512 ones joined by `+` is 1023 tokens, just under the limit; it evaluates to 512
    // without exhausting the test thread's stack.
    let a = agent("gfx908");
    let db = Database::builtin();
    let e = Expr::parse(&vec!["1"; 512].join("+")).unwrap();
    let v = evaluate_expr(db.target("gfx908").unwrap(), &a, &e, &Samples::new()).unwrap();
    assert_eq!(v.as_scalar(), Some(512.0));
}
