//! Kernel selection for counter collection and thread trace (`--kernel-include-regex`,
//! `--kernel-exclude-regex`, `--kernel-iteration-range`), with rocprofv3's semantics: a dispatch is
//! selected when its kernel's formatted name (demangled / truncated as the outputs show it) matches the
//! include regex (unanchored search; default: everything), does not match the exclude regex (default:
//! nothing), and its iteration — the kernel's 1-based dispatch count, counted per kernel — is in the
//! range (default: every iteration). The selection decides which dispatches are counted or traced;
//! it never filters the kernel trace.
//!
//! The CLI validates the options into a [`KernelFilterSpec`] before the application starts and hands
//! it to the interception library through the environment ([`KernelFilterSpec::to_env`] /
//! [`KernelFilterSpec::from_env`]); the library compiles it once ([`KernelFilterSpec::compile`]) and
//! decides per kernel (names are matched once per kernel, not per dispatch).
//!
//! Regular expressions use the `regex` crate's syntax, which covers the ECMAScript subset kernel
//! filters use (classes, alternation, anchors, repetition); look-around and back-references, which
//! ECMAScript has and `regex` lacks, are rejected before launch with the parser's message.

use regex::Regex;

/// Environment variable carrying the include regex to the interception library.
pub const ENV_INCLUDE: &str = rocprof_launch::names::KERNEL_INCLUDE_REGEX;
/// Environment variable carrying the exclude regex.
pub const ENV_EXCLUDE: &str = rocprof_launch::names::KERNEL_EXCLUDE_REGEX;
/// Environment variable carrying the iteration ranges, normalised as `A-B,C-D`.
pub const ENV_RANGE: &str = rocprof_launch::names::KERNEL_ITERATION_RANGE;

/// Why a kernel filter was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FilterError {
    /// A regex does not parse.
    #[error("{option}: invalid regular expression '{pattern}': {reason}")]
    BadRegex {
        /// The option (`--kernel-include-regex` or `--kernel-exclude-regex`).
        option: &'static str,
        /// The pattern.
        pattern: String,
        /// The parser's message, on one line.
        reason: String,
    },
    /// An iteration range token is malformed.
    #[error("--kernel-iteration-range: bad range '{token}' (expected N or A-B with 1 <= A <= B, e.g. \"[1, 3-5]\")")]
    BadRange {
        /// The offending token.
        token: String,
    },
}

/// A validated kernel selection, as plain data.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelFilterSpec {
    /// Include regex (`None` = every kernel).
    pub include: Option<String>,
    /// Exclude regex (`None` = no kernel excluded).
    pub exclude: Option<String>,
    /// Inclusive iteration ranges, sorted and merged (empty = every iteration).
    pub iterations: Vec<(u64, u64)>,
}

/// Parses rocprofv3's iteration-range syntax: tokens separated by `[`, `]`, `,` or whitespace, each a
/// positive integer `N` or an inclusive range `A-B`. `"[1, 2, [5-8]]"` = 1, 2, 5..=8. The result is
/// sorted and merged.
pub fn parse_iteration_range(text: &str) -> Result<Vec<(u64, u64)>, FilterError> {
    let mut out = Vec::new();
    for token in text.split(|c: char| c == '[' || c == ']' || c == ',' || c.is_whitespace()).filter(|t| !t.is_empty()) {
        let bad = || FilterError::BadRange { token: token.to_string() };
        let number = |s: &str| -> Result<u64, FilterError> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse::<u64>().map_err(|_| bad())
        };
        let (a, b) = match token.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(token)?;
                (n, n)
            }
        };
        if a == 0 || a > b {
            return Err(bad());
        }
        out.push((a, b));
    }
    out.sort_unstable();
    let mut merged: Vec<(u64, u64)> = Vec::with_capacity(out.len());
    for (a, b) in out {
        match merged.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    Ok(merged)
}

fn compile(option: &'static str, pattern: &str) -> Result<Regex, FilterError> {
    Regex::new(pattern).map_err(|e| FilterError::BadRegex {
        option,
        pattern: pattern.to_string(),
        reason: e.to_string().lines().rfind(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string(),
    })
}

impl KernelFilterSpec {
    /// Validates the three options as given on the command line (`ranges`: each argument of
    /// `--kernel-iteration-range`).
    pub fn new(include: Option<&str>, exclude: Option<&str>, ranges: &[String]) -> Result<Self, FilterError> {
        let include = include.map(str::to_string);
        let exclude = exclude.map(str::to_string).filter(|e| !e.is_empty());
        if let Some(p) = &include {
            compile("--kernel-include-regex", p)?;
        }
        if let Some(p) = &exclude {
            compile("--kernel-exclude-regex", p)?;
        }
        let iterations = parse_iteration_range(&ranges.join(","))?;
        Ok(KernelFilterSpec { include, exclude, iterations })
    }

    /// True when the filter selects every dispatch.
    pub fn is_all(&self) -> bool {
        self.include.as_deref().is_none_or(|p| p == ".*" || p.is_empty())
            && self.exclude.is_none()
            && self.iterations.is_empty()
    }

    /// The environment variables that carry this filter (only those that are set).
    pub fn to_env(&self) -> Vec<(&'static str, String)> {
        let mut env = Vec::new();
        if let Some(p) = &self.include {
            env.push((ENV_INCLUDE, p.clone()));
        }
        if let Some(p) = &self.exclude {
            env.push((ENV_EXCLUDE, p.clone()));
        }
        if !self.iterations.is_empty() {
            let text: Vec<String> = self.iterations.iter().map(|(a, b)| format!("{a}-{b}")).collect();
            env.push((ENV_RANGE, text.join(",")));
        }
        env
    }

    /// Reads the filter back from `get` (normally `std::env::var`).
    pub fn from_env(get: impl Fn(&str) -> Option<String>) -> Result<Self, FilterError> {
        let ranges: Vec<String> = get(ENV_RANGE).into_iter().collect();
        KernelFilterSpec::new(get(ENV_INCLUDE).as_deref(), get(ENV_EXCLUDE).as_deref(), &ranges)
    }

    /// Compiles the regexes.
    pub fn compile(&self) -> Result<KernelFilter, FilterError> {
        Ok(KernelFilter {
            include: self.include.as_deref().map(|p| compile("--kernel-include-regex", p)).transpose()?,
            exclude: self.exclude.as_deref().map(|p| compile("--kernel-exclude-regex", p)).transpose()?,
            iterations: self.iterations.clone(),
        })
    }
}

/// A compiled kernel filter.
#[derive(Debug, Clone)]
pub struct KernelFilter {
    include: Option<Regex>,
    exclude: Option<Regex>,
    iterations: Vec<(u64, u64)>,
}

impl KernelFilter {
    /// Whether the kernel with this formatted name is a target.
    pub fn selects_kernel(&self, formatted_name: &str) -> bool {
        self.include.as_ref().is_none_or(|r| r.is_match(formatted_name))
            && !self.exclude.as_ref().is_some_and(|r| r.is_match(formatted_name))
    }

    /// Whether the `iteration`-th dispatch (1-based, counted per kernel) of a target kernel is selected.
    pub fn selects_iteration(&self, iteration: u64) -> bool {
        self.iterations.is_empty() || self.iterations.iter().any(|&(a, b)| a <= iteration && iteration <= b)
    }

    /// True when an iteration range was given.
    pub fn has_iteration_range(&self) -> bool {
        !self.iterations.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_ranges_parse_like_rocprofv3() {
        assert_eq!(parse_iteration_range("[1, 2, [5-8]]").unwrap(), [(1, 2), (5, 8)]);
        assert_eq!(parse_iteration_range("3 1-2").unwrap(), [(1, 3)]);
        assert_eq!(parse_iteration_range("").unwrap(), []);
        for bad in ["5-", "x", "3-1", "0", "1-2-3", "-4"] {
            let e = parse_iteration_range(bad).unwrap_err().to_string();
            assert!(e.starts_with("--kernel-iteration-range: bad range"), "{bad}: {e}");
        }
    }

    #[test]
    fn regexes_select_kernels_and_ranges_select_iterations() {
        let spec = KernelFilterSpec::new(Some("add|fill"), Some("^fill_2d"), &["[2-3]".into(), "7".into()]).unwrap();
        assert!(!spec.is_all());
        let f = spec.compile().unwrap();
        assert!(f.selects_kernel("vector_add"));
        assert!(f.selects_kernel("fill"));
        assert!(!f.selects_kernel("fill_2d_kernel"));
        assert!(!f.selects_kernel("saxpy"));
        let its: Vec<u64> = (1..=8).filter(|&i| f.selects_iteration(i)).collect();
        assert_eq!(its, [2, 3, 7]);
        let env = spec.to_env();
        let back = KernelFilterSpec::from_env(|k| env.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone())).unwrap();
        assert_eq!(back, spec);
        assert!(KernelFilterSpec::default().is_all());
        let e = KernelFilterSpec::new(Some("(a"), None, &[]).unwrap_err().to_string();
        assert!(e.starts_with("--kernel-include-regex: invalid regular expression '(a'"), "{e}");
        assert!(!e.contains('\n'));
    }
}
