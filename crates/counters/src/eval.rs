//! Evaluation of counters and expressions on collected sample values.
//!
//! Input: [`Samples`], a map from a hardware counter (name plus accumulation mode) to its
//! [`Values`]: a row-major array with named dimensions, e.g. `SQ_WAVES` on gfx942 as
//! `[DIMENSION_XCC x8, DIMENSION_INSTANCE x1, DIMENSION_SHADER_ENGINE x4]` (32 values, the last
//! dimension varying fastest, the order [`crate::counter_dimensions`] reports).
//!
//! Semantics follow rocprofiler-sdk (`counters.md`): binary operators work element-wise on
//! equal-sized operands and broadcast a single value; any other size mismatch is an error;
//! division by zero yields 0; `reduce` without a dimension list collapses everything to one
//! value, with a list it collapses only those dimensions; `select` keeps the listed coordinates
//! (a dimension narrowed to one coordinate disappears); names resolve to a counter of the
//! target (recursively for derived ones) or to an agent property (a single value).
//!
//! One deliberate difference: rocprofiler-sdk swaps the operands when the left one is the
//! single value (so `100 - X` on a vector computes `X - 100`); we compute what the expression
//! says. The shipped definitions never hit that case.

use std::collections::HashMap;

use crate::db::{Agent, CounterKind, Target, AGENT_PROPERTIES};
use crate::dims::{element_count, format_dims, DimExtent, Dimension};
use crate::error::{Error, Result};
use crate::expr::{AccumulateMode, BinOp, Expr, ReduceOp};

/// Values of one counter or expression: a row-major array over `dims` (last fastest).
/// A single value with no dimensions is a scalar.
#[derive(Debug, Clone, PartialEq)]
pub struct Values {
    dims: Vec<DimExtent>,
    data: Vec<f64>,
}

impl Values {
    /// Builds values, checking that `data` has exactly one entry per coordinate.
    pub fn new(dims: Vec<DimExtent>, data: Vec<f64>) -> Result<Values> {
        let expected = element_count(&dims);
        if expected != data.len() || dims.iter().any(|d| d.extent == 0) {
            return Err(Error::ValueShape {
                counter: String::new(),
                len: data.len(),
                expected,
                dims: format_dims(&dims),
            });
        }
        Ok(Values { dims, data })
    }

    /// One value without dimensions.
    pub fn scalar(v: f64) -> Values {
        Values { dims: Vec::new(), data: vec![v] }
    }

    /// The dimensions (empty for a scalar).
    pub fn dims(&self) -> &[DimExtent] {
        &self.dims
    }

    /// The values, row-major.
    pub fn data(&self) -> &[f64] {
        &self.data
    }

    /// The value if there is exactly one.
    pub fn as_scalar(&self) -> Option<f64> {
        (self.data.len() == 1).then(|| self.data[0])
    }

    /// The value at the given coordinates; dimensions not mentioned are taken at 0.
    pub fn get(&self, coords: &[(Dimension, usize)]) -> Option<f64> {
        let mut index = 0;
        for d in &self.dims {
            let c = coords.iter().find(|(dim, _)| *dim == d.dim).map_or(0, |&(_, c)| c);
            if c >= d.extent {
                return None;
            }
            index = index * d.extent + c;
        }
        self.data.get(index).copied()
    }

    /// Coordinates of flat index `i`, one per dimension.
    fn coords(&self, mut i: usize) -> Vec<usize> {
        let mut c = vec![0; self.dims.len()];
        for (k, d) in self.dims.iter().enumerate().rev() {
            c[k] = i % d.extent;
            i /= d.extent;
        }
        c
    }
}

/// Collected values of hardware counters, keyed by counter name and accumulation mode.
#[derive(Debug, Clone, Default)]
pub struct Samples {
    map: HashMap<(String, AccumulateMode), Values>,
}

impl Samples {
    /// An empty set.
    pub fn new() -> Samples {
        Samples::default()
    }

    /// Records the plain values of hardware counter `counter`.
    pub fn insert(&mut self, counter: &str, values: Values) {
        self.map.insert((counter.to_string(), AccumulateMode::None), values);
    }

    /// Records the values `counter` produced in accumulation mode `mode`.
    pub fn insert_accumulated(&mut self, counter: &str, mode: AccumulateMode, values: Values) {
        self.map.insert((counter.to_string(), mode), values);
    }

    /// Shorthand: builds [`Values`] and inserts them; errors name the counter.
    pub fn insert_with(&mut self, counter: &str, dims: Vec<DimExtent>, data: Vec<f64>) -> Result<()> {
        let v = Values::new(dims, data).map_err(|e| match e {
            Error::ValueShape { len, expected, dims, .. } => {
                Error::ValueShape { counter: counter.to_string(), len, expected, dims }
            }
            other => other,
        })?;
        self.insert(counter, v);
        Ok(())
    }

    /// The values of `counter` in `mode`, if recorded.
    pub fn get(&self, counter: &str, mode: AccumulateMode) -> Option<&Values> {
        self.map.get(&(counter.to_string(), mode))
    }
}

/// Evaluates counter `counter` of `target` (hardware or derived) for `agent`.
pub fn evaluate(target: &Target, agent: &Agent, counter: &str, samples: &Samples) -> Result<Values> {
    let mut ev = Evaluator { target, agent, samples, top: counter, stack: Vec::new() };
    ev.name(counter)
}

/// Evaluates a free-standing expression (e.g. one a user typed) against `target`'s counters.
pub fn evaluate_expr(target: &Target, agent: &Agent, expr: &Expr, samples: &Samples) -> Result<Values> {
    let mut ev = Evaluator { target, agent, samples, top: "expression", stack: Vec::new() };
    ev.expr(expr)
}

struct Evaluator<'a> {
    target: &'a Target,
    agent: &'a Agent,
    samples: &'a Samples,
    top: &'a str,
    stack: Vec<String>,
}

impl Evaluator<'_> {
    fn fail(&self, message: String) -> Error {
        Error::Eval { counter: self.top.to_string(), target: self.target.name.clone(), message }
    }

    fn name(&mut self, name: &str) -> Result<Values> {
        if let Some(c) = self.target.counter(name) {
            return match &c.kind {
                CounterKind::Base { .. } => self
                    .samples
                    .get(name, AccumulateMode::None)
                    .cloned()
                    .ok_or_else(|| self.fail(format!("no samples for hardware counter {name}"))),
                CounterKind::Derived { expr, .. } => {
                    if self.stack.iter().any(|s| s == name) || self.stack.len() > 64 {
                        return Err(self.fail(format!("{name} is defined in terms of itself")));
                    }
                    self.stack.push(name.to_string());
                    let v = self.expr(expr);
                    self.stack.pop();
                    v
                }
            };
        }
        if AGENT_PROPERTIES.contains(&name) {
            return self
                .agent
                .property(name)
                .map(Values::scalar)
                .ok_or_else(|| self.fail(format!("agent property {name} was not provided")));
        }
        Err(self.fail(format!("{name} is neither a counter of {} nor an agent property", self.target.name)))
    }

    fn expr(&mut self, e: &Expr) -> Result<Values> {
        match e {
            Expr::Number(v) => Ok(Values::scalar(*v)),
            Expr::Name(n) => self.name(n),
            Expr::Accumulate { counter, mode } => {
                match self.target.counter(counter).map(|c| &c.kind) {
                    Some(CounterKind::Base { block, .. }) if block == "SQ" || *mode == AccumulateMode::None => {}
                    _ => {
                        return Err(
                            self.fail(format!("accumulate() needs an SQ hardware counter, {counter} is not one"))
                        )
                    }
                }
                self.samples.get(counter, *mode).cloned().ok_or_else(|| {
                    self.fail(format!("no samples for {counter} collected with accumulate mode {}", mode.keyword()))
                })
            }
            Expr::Binary(op, a, b) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                self.binary(*op, a, b)
            }
            Expr::Reduce { arg, op, dims } => {
                let v = self.expr(arg)?;
                Ok(reduce(v, *op, dims))
            }
            Expr::Select { arg, picks } => {
                let v = self.expr(arg)?;
                self.select(v, picks)
            }
        }
    }

    fn binary(&self, op: BinOp, a: Values, b: Values) -> Result<Values> {
        let f = |x: f64, y: f64| match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
            BinOp::Div => {
                if y == 0.0 {
                    0.0
                } else {
                    x / y
                }
            }
        };
        if b.data.len() == 1 {
            let y = b.data[0];
            let dims = if a.data.len() == 1 && a.dims.is_empty() { b.dims } else { a.dims };
            return Ok(Values { dims, data: a.data.iter().map(|&x| f(x, y)).collect() });
        }
        if a.data.len() == 1 {
            let x = a.data[0];
            return Ok(Values { dims: b.dims, data: b.data.iter().map(|&y| f(x, y)).collect() });
        }
        if a.data.len() != b.data.len() {
            return Err(self.fail(format!(
                "operands have different sizes: {} values ({}) and {} values ({})",
                a.data.len(),
                format_dims(&a.dims),
                b.data.len(),
                format_dims(&b.dims)
            )));
        }
        Ok(Values { data: a.data.iter().zip(&b.data).map(|(&x, &y)| f(x, y)).collect(), dims: a.dims })
    }

    fn select(&self, v: Values, picks: &[(Dimension, Vec<usize>)]) -> Result<Values> {
        let mut v = v;
        for (dim, idx) in picks {
            let Some(k) = v.dims.iter().position(|d| d.dim == *dim) else {
                return Err(
                    self.fail(format!("select(): the values have no {dim} (they have {})", format_dims(&v.dims)))
                );
            };
            if idx.is_empty() {
                return Err(self.fail(format!("select(): no {dim} index given")));
            }
            if let Some(bad) = idx.iter().find(|&&i| i >= v.dims[k].extent) {
                return Err(self.fail(format!("select(): {dim} index {bad} is out of range 0..{}", v.dims[k].extent)));
            }
            let mut dims = v.dims.clone();
            dims[k].extent = idx.len();
            let mut data = Vec::new();
            for i in 0..v.data.len() {
                let c = v.coords(i);
                if idx.contains(&c[k]) {
                    data.push((idx.iter().position(|&x| x == c[k]).expect("contained"), c, v.data[i]));
                }
            }
            // Keep row-major order with the picked coordinates in the order listed.
            data.sort_by(|a, b| {
                let mut ka = a.1.clone();
                ka[k] = a.0;
                let mut kb = b.1.clone();
                kb[k] = b.0;
                ka.cmp(&kb)
            });
            let data: Vec<f64> = data.into_iter().map(|(_, _, x)| x).collect();
            if idx.len() == 1 {
                dims.remove(k);
            }
            v = Values { dims, data };
        }
        Ok(v)
    }
}

/// Collapses `dims` of `v` (all dimensions when `dims` is empty) with `op`.
fn reduce(v: Values, op: ReduceOp, dims: &[Dimension]) -> Values {
    let fold = |xs: &[f64]| -> f64 {
        match op {
            ReduceOp::Sum => xs.iter().sum(),
            ReduceOp::Avg => xs.iter().sum::<f64>() / xs.len().max(1) as f64,
            ReduceOp::Max => xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            ReduceOp::Min => xs.iter().copied().fold(f64::INFINITY, f64::min),
        }
    };
    if dims.is_empty() {
        return Values::scalar(fold(&v.data));
    }
    let keep: Vec<usize> = (0..v.dims.len()).filter(|&k| !dims.contains(&v.dims[k].dim)).collect();
    let out_dims: Vec<DimExtent> = keep.iter().map(|&k| v.dims[k]).collect();
    let mut groups: Vec<Vec<f64>> = vec![Vec::new(); element_count(&out_dims)];
    for i in 0..v.data.len() {
        let c = v.coords(i);
        let g = keep.iter().fold(0, |acc, &k| acc * v.dims[k].extent + c[k]);
        groups[g].push(v.data[i]);
    }
    Values { dims: out_dims, data: groups.iter().map(|g| fold(g)).collect() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Database;

    fn d(dim: Dimension, n: usize) -> DimExtent {
        DimExtent::new(dim, n)
    }

    #[test]
    fn reduce_over_some_dimensions_keeps_the_others() {
        // 2 XCC x 3 SE:   xcc0 = [1 2 3], xcc1 = [4 5 6]
        let v = Values::new(vec![d(Dimension::Xcc, 2), d(Dimension::ShaderEngine, 3)], vec![1., 2., 3., 4., 5., 6.])
            .unwrap();
        // Sum over SE per XCC: [6, 15]
        let r = reduce(v.clone(), ReduceOp::Sum, &[Dimension::ShaderEngine]);
        assert_eq!(r.dims(), [d(Dimension::Xcc, 2)]);
        assert_eq!(r.data(), [6., 15.]);
        // Max over XCC per SE: [4, 5, 6]
        let r = reduce(v.clone(), ReduceOp::Max, &[Dimension::Xcc]);
        assert_eq!(r.data(), [4., 5., 6.]);
        // Average of everything: 21 / 6 = 3.5; min = 1
        assert_eq!(reduce(v.clone(), ReduceOp::Avg, &[]).as_scalar(), Some(3.5));
        assert_eq!(reduce(v, ReduceOp::Min, &[]).as_scalar(), Some(1.0));
    }

    #[test]
    fn select_keeps_coordinates() {
        let db = Database::builtin();
        let t = db.target("gfx908").unwrap();
        let agent = Agent::reference("gfx908").unwrap();
        let mut s = Samples::new();
        // SQ_WAVES over 8 SEs: 10, 11, ..., 17
        s.insert_with(
            "SQ_WAVES",
            vec![d(Dimension::Instance, 1), d(Dimension::ShaderEngine, 8)],
            (10..18).map(f64::from).collect(),
        )
        .unwrap();
        let e = Expr::parse("select(SQ_WAVES,[DIMENSION_SHADER_ENGINE=[5,1]])").unwrap();
        let v = evaluate_expr(t, &agent, &e, &s).unwrap();
        assert_eq!(v.data(), [15., 11.]);
        let e = Expr::parse("select(SQ_WAVES,[DIMENSION_SHADER_ENGINE=[3]])").unwrap();
        let v = evaluate_expr(t, &agent, &e, &s).unwrap();
        assert_eq!((v.dims().len(), v.data()), (1, &[13.][..]));
        let e = Expr::parse("select(SQ_WAVES,[DIMENSION_SHADER_ENGINE=[8]])").unwrap();
        let err = evaluate_expr(t, &agent, &e, &s).unwrap_err().to_string();
        assert!(err.contains("DIMENSION_SHADER_ENGINE index 8 is out of range 0..8"), "{err}");
        let e = Expr::parse("select(SQ_WAVES,[DIMENSION_XCC=[0]])").unwrap();
        assert!(evaluate_expr(t, &agent, &e, &s).is_err());
    }

    #[test]
    fn shape_errors() {
        let e = Values::new(vec![d(Dimension::ShaderEngine, 4)], vec![1.0; 3]).unwrap_err();
        assert!(matches!(e, Error::ValueShape { len: 3, expected: 4, .. }));
        let mut s = Samples::new();
        let e = s.insert_with("SQ_WAVES", vec![d(Dimension::ShaderEngine, 0)], vec![]).unwrap_err();
        assert!(e.to_string().starts_with("values for SQ_WAVES"), "{e}");
    }
}
