//! Knobs on the modelled kernel durations, so that performance-regression workflows can be tested
//! on the simulator (without them every dispatch of a kernel takes the same time, and a statistics
//! test proves nothing):
//!
//! - `ROCPROF_RS_SIM_KERNEL_SCALE='REGEX=FACTOR[,REGEX=FACTOR...]'`: kernels whose symbol name
//!   (as in the code object, without `.kd`; e.g. `saxpy`, or a mangled C++ name) matches REGEX
//!   (searched, not anchored) take FACTOR times as long. The first matching rule wins. A comma
//!   inside a regular expression (`a{1,3}`) is fine: an item ends only where `=NUMBER` does.
//! - `ROCPROF_RS_SIM_JITTER=SD`: every dispatch's duration is multiplied by log-normal noise with
//!   mean 1 and relative standard deviation SD (e.g. `0.05`): right-skewed and never negative, like
//!   real kernel timings.
//! - `ROCPROF_RS_SIM_SEED=N`: the noise is a pure function of (seed, queue, packet index), so the
//!   same seed gives the same durations run after run, whatever the thread timing. Without it the
//!   seed comes from the process (pid and clock): every run differs, as on hardware.
//!
//! This module parses the values and computes factors; it reads no environment (the simulator
//! passes the variables' values in).

use regex::Regex;
use rocprof_launch::names;

/// The parsed knobs. [`TimingKnobs::default`] changes nothing.
#[derive(Debug, Clone)]
pub struct TimingKnobs {
    scales: Vec<(Regex, f64)>,
    jitter: f64,
    seed: u64,
}

impl Default for TimingKnobs {
    fn default() -> Self {
        Self { scales: Vec::new(), jitter: 0.0, seed: 0 }
    }
}

/// Largest accepted jitter (relative standard deviation).
pub const MAX_JITTER: f64 = 10.0;

fn parse_factor(s: &str) -> Option<f64> {
    s.trim().parse::<f64>().ok().filter(|f| f.is_finite() && *f > 0.0)
}

impl TimingKnobs {
    /// Parses the three variables' values (`None` = unset). `fallback_seed` is used when no seed is
    /// given. Errors say which variable is wrong and why, in one line.
    pub fn parse(
        kernel_scale: Option<&str>,
        jitter: Option<&str>,
        seed: Option<&str>,
        fallback_seed: u64,
    ) -> Result<Self, String> {
        let mut scales = Vec::new();
        if let Some(spec) = kernel_scale.filter(|s| !s.trim().is_empty()) {
            let mut pending = String::new();
            for piece in spec.split(',') {
                if !pending.is_empty() {
                    pending.push(',');
                }
                pending.push_str(piece);
                let Some((re, factor)) = pending.rsplit_once('=') else { continue };
                let Some(factor) = parse_factor(factor) else { continue };
                let re = re.trim();
                if re.is_empty() {
                    return Err(format!("{}: empty regular expression in '{pending}'", names::SIM_KERNEL_SCALE));
                }
                let regex = Regex::new(re)
                    .map_err(|_| format!("{}: invalid regular expression '{re}'", names::SIM_KERNEL_SCALE))?;
                scales.push((regex, factor));
                pending.clear();
            }
            if !pending.trim().is_empty() {
                return Err(format!(
                    "{}: '{}' is not REGEX=FACTOR with a positive FACTOR",
                    names::SIM_KERNEL_SCALE,
                    pending.trim()
                ));
            }
        }
        let jitter = match jitter.map(str::trim).filter(|s| !s.is_empty()) {
            None => 0.0,
            Some(j) => {
                j.parse::<f64>().ok().filter(|x| x.is_finite() && (0.0..=MAX_JITTER).contains(x)).ok_or_else(|| {
                    format!("{}={j:?} is not a relative standard deviation in 0..={MAX_JITTER}", names::SIM_JITTER)
                })?
            }
        };
        let seed = match seed.map(str::trim).filter(|s| !s.is_empty()) {
            None => fallback_seed,
            Some(s) => s.parse::<u64>().map_err(|_| format!("{}={s:?} is not an unsigned integer", names::SIM_SEED))?,
        };
        Ok(Self { scales, jitter, seed })
    }

    /// Whether the knobs change nothing.
    pub fn is_identity(&self) -> bool {
        self.scales.is_empty() && self.jitter == 0.0
    }

    /// The relative standard deviation of the noise.
    pub fn jitter(&self) -> f64 {
        self.jitter
    }

    /// The factor on the durations of kernel `symbol` (its name without `.kd`): the first matching
    /// rule's, else 1.
    pub fn kernel_scale(&self, symbol: &str) -> f64 {
        self.scales.iter().find(|(re, _)| re.is_match(symbol)).map_or(1.0, |(_, f)| *f)
    }

    /// The noise factor of the dispatch at `index` of queue `queue`: log-normal with mean 1 and
    /// relative standard deviation [`TimingKnobs::jitter`], a pure function of (seed, queue, index).
    pub fn noise(&self, queue: u64, index: u64) -> f64 {
        if self.jitter == 0.0 {
            return 1.0;
        }
        let base = mix64(self.seed ^ mix64(queue.wrapping_add(0x5151_5151)) ^ mix64(index).rotate_left(17));
        let u1 = ((mix64(base) >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let u2 = (mix64(base ^ 0xa5a5_a5a5_a5a5_a5a5) >> 11) as f64 / (1u64 << 53) as f64;
        let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
        let s2 = (1.0 + self.jitter * self.jitter).ln();
        (s2.sqrt() * z - s2 / 2.0).exp()
    }
}

/// SplitMix64's finaliser, used as a counter-based hash.
fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_rules_parse_in_order_and_the_first_match_wins() {
        let k = TimingKnobs::parse(Some("sax=1.1, ^vec.*add$=2,a{1,3}x=3"), None, None, 0).unwrap();
        assert_eq!(k.kernel_scale("saxpy"), 1.1);
        assert_eq!(k.kernel_scale("vector_add"), 2.0);
        assert_eq!(k.kernel_scale("aax"), 3.0);
        assert_eq!(k.kernel_scale("fill"), 1.0);
        assert!(!k.is_identity());
        let first = TimingKnobs::parse(Some("s=2,saxpy=3"), None, None, 0).unwrap();
        assert_eq!(first.kernel_scale("saxpy"), 2.0);
        assert!(TimingKnobs::parse(None, None, None, 0).unwrap().is_identity());
        assert!(TimingKnobs::parse(Some(" "), Some(""), None, 0).unwrap().is_identity());
    }

    #[test]
    fn bad_values_name_the_variable() {
        let e = TimingKnobs::parse(Some("saxpy"), None, None, 0).unwrap_err();
        assert_eq!(e, "ROCPROF_RS_SIM_KERNEL_SCALE: 'saxpy' is not REGEX=FACTOR with a positive FACTOR");
        let e = TimingKnobs::parse(Some("saxpy=-1"), None, None, 0).unwrap_err();
        assert!(e.contains("'saxpy=-1' is not REGEX=FACTOR"), "{e}");
        let e = TimingKnobs::parse(Some("(=2"), None, None, 0).unwrap_err();
        assert_eq!(e, "ROCPROF_RS_SIM_KERNEL_SCALE: invalid regular expression '('");
        let e = TimingKnobs::parse(None, Some("5%"), None, 0).unwrap_err();
        assert!(e.starts_with("ROCPROF_RS_SIM_JITTER=\"5%\""), "{e}");
        let e = TimingKnobs::parse(None, None, Some("x"), 0).unwrap_err();
        assert_eq!(e, "ROCPROF_RS_SIM_SEED=\"x\" is not an unsigned integer");
    }

    #[test]
    fn noise_is_reproducible_log_normal_with_the_requested_spread() {
        let k = TimingKnobs::parse(None, Some("0.05"), Some("7"), 0).unwrap();
        let again = TimingKnobs::parse(None, Some("0.05"), Some("7"), 99).unwrap();
        let other = TimingKnobs::parse(None, Some("0.05"), Some("8"), 0).unwrap();
        assert_eq!(k.noise(1, 5), again.noise(1, 5));
        assert_ne!(k.noise(1, 5), other.noise(1, 5));
        assert_ne!(k.noise(1, 5), k.noise(2, 5));
        let xs: Vec<f64> = (0..20_000).map(|i| k.noise(i % 3, i)).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let sd = (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (xs.len() - 1) as f64).sqrt();
        assert!((mean - 1.0).abs() < 0.002, "mean {mean}");
        assert!((sd - 0.05).abs() < 0.002, "sd {sd}");
        assert!(xs.iter().all(|&x| x > 0.7 && x < 1.4));
        // Right-skewed: the median is below the mean.
        let mut sorted = xs.clone();
        sorted.sort_by(f64::total_cmp);
        assert!(sorted[xs.len() / 2] < mean);
        let none = TimingKnobs::parse(None, None, Some("7"), 0).unwrap();
        assert_eq!(none.noise(1, 5), 1.0);
        assert_eq!(TimingKnobs::parse(None, Some("0.05"), None, 42).unwrap().noise(1, 5), {
            TimingKnobs::parse(None, Some("0.05"), Some("42"), 0).unwrap().noise(1, 5)
        });
    }
}
