//! The statistics behind `diff`: a seeded random generator, medians, the Mann-Whitney U test
//! (exact for small untied samples, normal approximation with tie and continuity corrections
//! otherwise), Holm's step-down adjustment for many comparisons, and a seeded two-level
//! (runs, then records) percentile bootstrap for the confidence interval of a relative change.
//!
//! Why these: kernel and API timings are not normal (right-skewed, multi-modal, with outliers
//! from preemption or clock changes), so a t-test's assumptions do not hold; the rank test
//! needs none, and the median it pairs with ignores the outliers. Runs of one build can differ
//! as a whole (another process on the machine, a clock state): resampling runs first and then
//! records within each drawn run widens the interval when runs disagree, where a plain pooled
//! bootstrap would report a falsely narrow one.

/// A small, fast, seedable generator (SplitMix64, Steele/Lea/Flood 2014). Not cryptographic;
/// the same seed gives the same sequence on every platform, which makes reports reproducible.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.0)
    }

    /// A uniform index below `n` (`n > 0`), by Lemire's multiply-shift; the bias is below
    /// `n / 2^64`, far under anything a bootstrap can see.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// SplitMix64's finaliser: a bijective 64-bit mix, also usable as a counter-based hash.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Median of `v` (reorders it); NaN for an empty slice.
pub fn median_in_place(v: &mut [f64]) -> f64 {
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    let (_, &mut hi, _) = v.select_nth_unstable_by(n / 2, f64::total_cmp);
    if n % 2 == 1 {
        hi
    } else {
        let lo = v[..n / 2].iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo + hi) / 2.0
    }
}

/// Median of `v`; NaN for an empty slice.
pub fn median(v: &[f64]) -> f64 {
    median_in_place(&mut v.to_vec())
}

/// Arithmetic mean; NaN for an empty slice.
pub fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Sample standard deviation (n - 1); 0 for fewer than two values.
pub fn stddev(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let m = mean(v);
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
}

/// Outcome of a Mann-Whitney U test of `a` against `b`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RankTest {
    /// U statistic of `b` (the number of pairs where the `b` value is larger, ties counting half).
    pub u: f64,
    /// Two-sided p-value.
    pub p_value: f64,
    /// Whether the p-value is exact (small samples without ties) or the normal approximation.
    pub exact: bool,
    /// Probability that a random `b` value exceeds a random `a` value (ties count half):
    /// `U / (n_a n_b)`, 0.5 when the two are alike.
    pub effect: f64,
}

/// Largest `n_a * n_b` for which the exact distribution of U is computed.
const EXACT_MAX_PRODUCT: usize = 400;

/// Two-sided Mann-Whitney U test (Wilcoxon rank-sum) of `a` against `b`; `None` when either is
/// empty. Exact when both samples are small and have no ties; otherwise the normal
/// approximation with the tie-corrected variance and a continuity correction.
pub fn mann_whitney_u(a: &[f64], b: &[f64]) -> Option<RankTest> {
    let (na, nb) = (a.len(), b.len());
    if na == 0 || nb == 0 {
        return None;
    }
    let mut all: Vec<(f64, bool)> = a.iter().map(|&x| (x, false)).chain(b.iter().map(|&x| (x, true))).collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    let n = all.len();
    let mut rank_sum_b = 0.0;
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && all[j].0 == all[i].0 {
            j += 1;
        }
        let t = (j - i) as f64;
        // Ranks i+1 ..= j share their average.
        let rank = (i + 1 + j) as f64 / 2.0;
        rank_sum_b += rank * all[i..j].iter().filter(|x| x.1).count() as f64;
        tie_term += t * t * t - t;
        i = j;
    }
    let (fa, fb) = (na as f64, nb as f64);
    let u = rank_sum_b - fb * (fb + 1.0) / 2.0;
    let effect = u / (fa * fb);
    if tie_term == 0.0 && na * nb <= EXACT_MAX_PRODUCT {
        let p = exact_two_sided(na, nb, u.round() as usize);
        return Some(RankTest { u, p_value: p, exact: true, effect });
    }
    let mu = fa * fb / 2.0;
    let nf = n as f64;
    let var = fa * fb / 12.0 * ((nf + 1.0) - tie_term / (nf * (nf - 1.0)));
    if var <= 0.0 {
        return Some(RankTest { u, p_value: 1.0, exact: false, effect });
    }
    let z = ((u - mu).abs() - 0.5).max(0.0) / var.sqrt();
    Some(RankTest { u, p_value: erfc(z / std::f64::consts::SQRT_2).min(1.0), exact: false, effect })
}

/// Exact two-sided p-value of U = `u` for samples of sizes `m` and `n` without ties:
/// `2 min(P(U <= u), P(U >= u))`, capped at 1. The counts come from the recurrence
/// `c(i, j, u) = c(i - 1, j, u - j) + c(i, j - 1, u)` (the largest value belongs to the first
/// sample, which then beats all `j` of the second, or to the second).
fn exact_two_sided(m: usize, n: usize, u: usize) -> f64 {
    let max_u = m * n;
    // prev[j][u] = c(i - 1, j, u); cur[j][u] = c(i, j, u).
    let mut prev: Vec<Vec<f64>> = (0..=n).map(|_| vec![0.0; max_u + 1]).collect();
    for row in prev.iter_mut() {
        row[0] = 1.0;
    }
    for _i in 1..=m {
        let mut cur: Vec<Vec<f64>> = (0..=n).map(|_| vec![0.0; max_u + 1]).collect();
        cur[0][0] = 1.0;
        for j in 1..=n {
            for v in 0..=max_u {
                let from_prev = if v >= j { prev[j][v - j] } else { 0.0 };
                cur[j][v] = from_prev + cur[j - 1][v];
            }
        }
        prev = cur;
    }
    let counts = &prev[n];
    let total: f64 = counts.iter().sum();
    let u = u.min(max_u);
    let le: f64 = counts[..=u].iter().sum::<f64>() / total;
    let ge: f64 = counts[u..].iter().sum::<f64>() / total;
    (2.0 * le.min(ge)).min(1.0)
}

/// Complementary error function, by the Chebyshev fit of Numerical Recipes (`erfcc`,
/// fractional error below 1.2e-7 everywhere; relative, so tiny p-values keep their size).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Holm's step-down adjustment of `p` (family-wise error control over many compared items),
/// returned in the input order.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let mut adjusted = vec![0.0; m];
    let mut running: f64 = 0.0;
    for (k, &i) in order.iter().enumerate() {
        running = running.max(((m - k) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// What a side's single number is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// Median of all records.
    Median,
    /// Mean of all records.
    Mean,
    /// Sum of the records of one run, averaged over runs.
    Total,
}

impl Metric {
    /// Name as written on the command line and in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Median => "median",
            Self::Mean => "mean",
            Self::Total => "total",
        }
    }

    /// The metric of one side given its records per run.
    pub fn of(self, runs: &[Vec<f64>]) -> f64 {
        match self {
            Self::Median => median_in_place(&mut runs.concat()),
            Self::Mean => mean(&runs.concat()),
            Self::Total => runs.iter().map(|r| r.iter().sum::<f64>()).sum::<f64>() / runs.len() as f64,
        }
    }
}

/// Upper bound on the records drawn by one bootstrap (resamples x records of both sides); large
/// inputs get fewer resamples so one item stays around a tenth of a second.
const BOOTSTRAP_MAX_DRAWS: usize = 20_000_000;

/// Fewest resamples a bootstrap runs however large the input.
const BOOTSTRAP_MIN_RESAMPLES: usize = 200;

/// A percentile-bootstrap confidence interval of the relative change `head / base - 1` of
/// `metric`, at `level` (e.g. 0.95), and the number of resamples used.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangeInterval {
    /// Lower bound (fraction, -0.1 = 10% lower).
    pub low: f64,
    /// Upper bound.
    pub high: f64,
    /// Resamples drawn.
    pub resamples: usize,
}

/// One bootstrap draw of a side: runs with replacement (when there are several), then the
/// records of each drawn run with replacement; returns the metric of the draw.
fn resample_side(runs: &[Vec<f64>], metric: Metric, rng: &mut Rng, pool: &mut Vec<f64>) -> f64 {
    pool.clear();
    let k = runs.len();
    let mut totals = 0.0;
    for r in 0..k {
        let run = if k > 1 { &runs[rng.below(k)] } else { &runs[r] };
        let mut sum = 0.0;
        for _ in 0..run.len() {
            let v = run[rng.below(run.len())];
            sum += v;
            pool.push(v);
        }
        totals += sum;
    }
    match metric {
        Metric::Median => median_in_place(pool),
        Metric::Mean => mean(pool),
        Metric::Total => totals / k as f64,
    }
}

/// Bootstrap confidence interval of the relative change of `metric` from `base` to `head`
/// (records per run on each side), with `resamples` draws (fewer for very large inputs, see
/// [`BOOTSTRAP_MAX_DRAWS`]) from a generator seeded with `seed`. `None` when a side has no
/// records or the base metric is 0 in too many draws to say anything.
pub fn bootstrap_change(
    base: &[Vec<f64>],
    head: &[Vec<f64>],
    metric: Metric,
    resamples: usize,
    level: f64,
    seed: u64,
) -> Option<ChangeInterval> {
    let nb: usize = base.iter().map(Vec::len).sum();
    let nh: usize = head.iter().map(Vec::len).sum();
    if nb == 0 || nh == 0 || resamples == 0 {
        return None;
    }
    let resamples = resamples.min((BOOTSTRAP_MAX_DRAWS / (nb + nh)).max(BOOTSTRAP_MIN_RESAMPLES));
    let base: Vec<Vec<f64>> = base.iter().filter(|r| !r.is_empty()).cloned().collect();
    let head: Vec<Vec<f64>> = head.iter().filter(|r| !r.is_empty()).cloned().collect();
    let mut rng = Rng::new(seed);
    let mut pool = Vec::with_capacity(nb.max(nh));
    let mut changes = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        let b = resample_side(&base, metric, &mut rng, &mut pool);
        let h = resample_side(&head, metric, &mut rng, &mut pool);
        if b > 0.0 {
            changes.push(h / b - 1.0);
        }
    }
    if changes.len() * 2 < resamples {
        return None;
    }
    changes.sort_by(f64::total_cmp);
    let q = |p: f64| {
        let idx = (p * (changes.len() - 1) as f64).round() as usize;
        changes[idx.min(changes.len() - 1)]
    };
    let tail = (1.0 - level) / 2.0;
    Some(ChangeInterval { low: q(tail), high: q(1.0 - tail), resamples })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert!(median(&[]).is_nan());
        assert_eq!(stddev(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]), 2.138089935299395);
    }

    #[test]
    fn the_generator_is_reproducible_and_uniform_enough() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        // SplitMix64's published first output for seed 0.
        assert_eq!(Rng::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
        let mut r = Rng::new(1);
        let mut hist = [0u32; 10];
        for _ in 0..100_000 {
            hist[r.below(10)] += 1;
        }
        assert!(hist.iter().all(|&h| (9_500..10_500).contains(&h)), "{hist:?}");
    }

    #[test]
    fn exact_p_values_match_the_tables() {
        // 3 vs 3, complete separation: 2 / C(6,3) = 0.1 (the smallest two-sided p for 3 vs 3).
        let t = mann_whitney_u(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0]).unwrap();
        assert!(t.exact);
        assert_eq!(t.u, 9.0);
        assert!((t.p_value - 0.1).abs() < 1e-12, "{}", t.p_value);
        assert_eq!(t.effect, 1.0);
        // 4 vs 4 (p-values by enumerating all 70 splits).
        let t = mann_whitney_u(&[1.0, 2.0, 5.0, 6.0], &[3.0, 4.0, 7.0, 8.0]).unwrap();
        assert_eq!(t.u, 12.0);
        assert!((t.p_value - 0.342857142857143).abs() < 1e-9, "{}", t.p_value);
        let t = mann_whitney_u(&[1.0, 2.0, 3.0, 5.0], &[4.0, 6.0, 7.0, 8.0]).unwrap();
        assert_eq!(t.u, 15.0);
        assert!((t.p_value - 0.057142857142857).abs() < 1e-9, "{}", t.p_value);
        // Identical distributions interleaved: p = 1.
        let t = mann_whitney_u(&[1.0, 4.0, 5.0, 8.0], &[2.0, 3.0, 6.0, 7.0]).unwrap();
        assert_eq!(t.u, 8.0);
        assert_eq!(t.p_value, 1.0);
    }

    #[test]
    fn normal_approximation_handles_ties_and_large_samples() {
        // x = 0..30, y = 10..40: U(y) = 700 with 20 tied pairs; tie-corrected variance
        // 900/12 * (61 - 120/3540) = 4572.4576, z = 249.5 / sqrt(var), p = erfc(z / sqrt 2)
        // = 0.000224484 (worked out independently with Python's math.erfc).
        let x: Vec<f64> = (0..30).map(f64::from).collect();
        let y: Vec<f64> = (10..40).map(f64::from).collect();
        let t = mann_whitney_u(&x, &y).unwrap();
        assert!(!t.exact);
        assert_eq!(t.u, 700.0);
        assert!((t.p_value / 0.000_224_483_806 - 1.0).abs() < 1e-5, "{}", t.p_value);
        // All values equal: no evidence at all.
        let t = mann_whitney_u(&[5.0; 20], &[5.0; 20]).unwrap();
        assert_eq!(t.p_value, 1.0);
        assert_eq!(t.effect, 0.5);
        // Two tie groups, 3 vs 3 (counter values): z = 4 / sqrt(4.05).
        let t = mann_whitney_u(&[7.0; 3], &[9.0; 3]).unwrap();
        assert!(!t.exact);
        assert!((t.p_value - erfc(4.0 / 4.05f64.sqrt() / std::f64::consts::SQRT_2)).abs() < 1e-12);
        assert!(mann_whitney_u(&[], &[1.0]).is_none());
    }

    #[test]
    fn erfc_matches_known_values() {
        assert!((erfc(0.0) - 1.0).abs() < 1e-7);
        assert!((erfc(1.0) - 0.157_299_207).abs() < 1e-7);
        assert!((erfc(-1.0) - 1.842_700_793).abs() < 1e-7);
        // Far tail: relative accuracy, so tiny p-values stay meaningful.
        let v = erfc(6.0);
        assert!((v / 2.151_973_671e-17 - 1.0).abs() < 1e-6, "{v}");
    }

    #[test]
    fn holm_adjusts_in_input_order() {
        let adj = holm(&[0.04, 0.01, 0.03]);
        // Sorted 0.01, 0.03, 0.04 -> 0.03, 0.06, 0.06 (monotone).
        assert_eq!(adj.len(), 3);
        assert!((adj[1] - 0.03).abs() < 1e-12);
        assert!((adj[2] - 0.06).abs() < 1e-12);
        assert!((adj[0] - 0.06).abs() < 1e-12);
        assert!(holm(&[0.9, 0.8]).iter().all(|&p| p <= 1.0));
    }

    #[test]
    fn bootstrap_covers_a_known_shift_and_is_reproducible() {
        let mut rng = Rng::new(3);
        let noisy = |rng: &mut Rng, scale: f64| -> Vec<f64> {
            (0..60).map(|_| scale * (1000.0 + (rng.next_u64() % 100) as f64)).collect()
        };
        let base: Vec<Vec<f64>> = (0..3).map(|_| noisy(&mut rng, 1.0)).collect();
        let head: Vec<Vec<f64>> = (0..3).map(|_| noisy(&mut rng, 1.1)).collect();
        let ci = bootstrap_change(&base, &head, Metric::Median, 1000, 0.95, 42).unwrap();
        assert!(ci.low > 0.08 && ci.high < 0.12 && ci.low < 0.1 && ci.high > 0.1, "{ci:?}");
        assert_eq!(ci, bootstrap_change(&base, &head, Metric::Median, 1000, 0.95, 42).unwrap());
        assert_ne!(ci, bootstrap_change(&base, &head, Metric::Median, 1000, 0.95, 43).unwrap());
        let same = bootstrap_change(&base, &base, Metric::Mean, 1000, 0.95, 1).unwrap();
        assert!(same.low < 0.0 && same.high > 0.0, "{same:?}");
        let total = bootstrap_change(&base, &head, Metric::Total, 500, 0.95, 1).unwrap();
        assert!(total.low > 0.05 && total.high < 0.15, "{total:?}");
        assert!(bootstrap_change(&[], &head, Metric::Mean, 10, 0.95, 1).is_none());
    }

    #[test]
    fn runs_that_disagree_widen_the_interval() {
        // Within each run the records are tight, but the runs differ by +-5% as a whole.
        let run = |level: f64| -> Vec<f64> { (0..50).map(|i| level + f64::from(i % 5)).collect() };
        let base = vec![run(950.0), run(1000.0), run(1050.0)];
        let head = vec![run(960.0), run(1010.0), run(1060.0)];
        let two_level = bootstrap_change(&base, &head, Metric::Median, 2000, 0.95, 9).unwrap();
        let pooled = bootstrap_change(&[base.concat()], &[head.concat()], Metric::Median, 2000, 0.95, 9).unwrap();
        assert!(two_level.high - two_level.low > 2.0 * (pooled.high - pooled.low), "{two_level:?} vs {pooled:?}");
        assert!(two_level.low < 0.0, "a 1% shift with +-5% run effects is not significant: {two_level:?}");
    }
}
