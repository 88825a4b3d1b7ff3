//! The derived-counter expression language (rocprofiler-sdk's grammar, `counters.md`):
//! numbers, names, `+ - * /` with the usual precedence (all left-associative), parentheses,
//! `reduce(e, sum|max|min|avr[, [DIM, ...]])`, `select(e, [DIM=[i,j:k], ...])` and
//! `accumulate(NAME, NONE|LOW_RES|HIGH_RES)`. Whitespace is ignored.
//!
//! This module only parses; names are resolved against a target's counters and the agent's
//! properties when evaluating (`eval.rs`) or planning (`plan.rs`).

use crate::dims::Dimension;
use crate::error::{ParseError, ParseErrorKind};

/// A binary arithmetic operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (division by zero yields 0, as in rocprofiler-sdk)
    Div,
}

/// How `reduce` combines values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceOp {
    /// `sum`
    Sum,
    /// `max`
    Max,
    /// `min`
    Min,
    /// `avr`: arithmetic mean.
    Avg,
}

/// SQ accumulation mode requested with `accumulate(COUNTER, MODE)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum AccumulateMode {
    /// Plain counting (`NONE`).
    #[default]
    None,
    /// `LOW_RES` (aqlprofile `sq_flags.accum` = 1).
    LowRes,
    /// `HIGH_RES` (aqlprofile `sq_flags.accum` = 2).
    HighRes,
}

impl AccumulateMode {
    /// The value aqlprofile expects in `aqlprofile_pmc_event_t.flags.sq_flags.accum`.
    pub fn aqlprofile_flag(self) -> u32 {
        match self {
            AccumulateMode::None => 0,
            AccumulateMode::LowRes => 1,
            AccumulateMode::HighRes => 2,
        }
    }

    /// The mode of aqlprofile's `sq_flags.accum` value (`None` for a value it does not define).
    pub fn from_aqlprofile_flag(flag: u32) -> Option<AccumulateMode> {
        [AccumulateMode::None, AccumulateMode::LowRes, AccumulateMode::HighRes]
            .into_iter()
            .find(|m| m.aqlprofile_flag() == flag)
    }

    /// The keyword used in expressions.
    pub fn keyword(self) -> &'static str {
        match self {
            AccumulateMode::None => "NONE",
            AccumulateMode::LowRes => "LOW_RES",
            AccumulateMode::HighRes => "HIGH_RES",
        }
    }
}

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// An integer literal (see `Expr::parse` for how literals are read).
    Number(f64),
    /// A counter or agent property.
    Name(String),
    /// `lhs op rhs`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `reduce(arg, op)` (all dimensions) or `reduce(arg, op, [dims])` (only those).
    Reduce {
        /// The reduced expression.
        arg: Box<Expr>,
        /// The operation.
        op: ReduceOp,
        /// Dimensions to collapse; empty means all.
        dims: Vec<Dimension>,
    },
    /// `select(arg, [DIM=[indices], ...])`.
    Select {
        /// The expression to pick from.
        arg: Box<Expr>,
        /// Per dimension, the coordinates to keep (ranges already expanded).
        picks: Vec<(Dimension, Vec<usize>)>,
    },
    /// `accumulate(counter, mode)`.
    Accumulate {
        /// The SQ counter.
        counter: String,
        /// The accumulation mode.
        mode: AccumulateMode,
    },
}

impl Expr {
    /// Parses an expression.
    ///
    /// Literals follow rocprofiler-sdk exactly, quirk included: the lexer accepts `12`, `1.5`,
    /// `.5` and `1e3` but converts them with C `atoi`, so only the leading integer digits count
    /// (`1.5` is 1, `.5` is 0, `1e3` is 1). Copying it keeps results identical to rocprofv3
    /// for user-supplied definitions; the shipped definitions only use integers.
    pub fn parse(text: &str) -> Result<Expr, ParseError> {
        let tokens = lex(text)?;
        if tokens.len() > MAX_TOKENS {
            let offset = tokens[MAX_TOKENS].offset;
            return Err(ParseError { expression: text.to_string(), offset, kind: ParseErrorKind::TooLong });
        }
        let mut p = Parser { text, tokens, pos: 0, depth: 0 };
        let e = p.expr()?;
        if let Some(t) = p.peek() {
            return Err(
                p.error_at(t.offset, ParseErrorKind::Expected { expected: "an operator or end", found: t.text(text) })
            );
        }
        Ok(e)
    }

    /// Every name the expression references (counters, agent properties and accumulated
    /// counters), in order of appearance, without duplicates.
    pub fn names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.collect_names(&mut out);
        out
    }

    fn collect_names<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Expr::Number(_) => {}
            Expr::Name(n) | Expr::Accumulate { counter: n, .. } => {
                if !out.contains(&n.as_str()) {
                    out.push(n);
                }
            }
            Expr::Binary(_, a, b) => {
                a.collect_names(out);
                b.collect_names(out);
            }
            Expr::Reduce { arg, .. } | Expr::Select { arg, .. } => arg.collect_names(out),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Name(String),
    Sym(char),
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    offset: usize,
    len: usize,
}

impl Token {
    fn text(&self, src: &str) -> String {
        src[self.offset..self.offset + self.len].to_string()
    }
}

fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |offset, kind| ParseError { expression: text.to_string(), offset, kind };
    while i < b.len() {
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b'+' | b'-' | b'*' | b'/' | b'(' | b')' | b',' | b'[' | b']' | b'=' | b':' => {
                i += 1;
                out.push(Token { tok: Tok::Sym(c as char), offset: start, len: 1 });
            }
            b'0'..=b'9' | b'.' => {
                // NUMBER: [0-9]+ "." [0-9]* EXP? | "."? [0-9]+ EXP?, valued with atoi.
                let int_start = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let int_end = i;
                if i < b.len() && b[i] == b'.' {
                    i += 1;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                if i == int_start + 1 && c == b'.' {
                    return Err(err(start, ParseErrorKind::UnexpectedChar('.')));
                }
                if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                    let mut j = i + 1;
                    if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                        j += 1;
                    }
                    if j < b.len() && b[j].is_ascii_digit() {
                        while j < b.len() && b[j].is_ascii_digit() {
                            j += 1;
                        }
                        i = j;
                    }
                }
                let digits = &text[int_start..int_end];
                let value = if digits.is_empty() {
                    0.0
                } else {
                    let v: i64 = digits
                        .parse()
                        .map_err(|_| err(start, ParseErrorKind::NumberTooLarge(text[start..i].to_string())))?;
                    v as f64
                };
                out.push(Token { tok: Tok::Num(value), offset: start, len: i - start });
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                out.push(Token { tok: Tok::Name(text[start..i].to_string()), offset: start, len: i - start });
            }
            _ => {
                let ch = text[i..].chars().next().expect("i is on a char boundary");
                return Err(err(start, ParseErrorKind::UnexpectedChar(ch)));
            }
        }
    }
    Ok(out)
}

struct Parser<'a> {
    text: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    /// Current nesting of parentheses and functions, bounded so hostile input cannot
    /// overflow the stack.
    depth: usize,
}

/// Most tokens `Expr::parse` accepts. Operator chains become left-deep trees that evaluation
/// walks recursively, so their length is bounded too; shipped definitions use under 100.
const MAX_TOKENS: usize = 1024;

/// Deepest nesting `Expr::parse` accepts.
const MAX_DEPTH: usize = 200;

impl Parser<'_> {
    fn error_at(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { expression: self.text.to_string(), offset, kind }
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn next(&mut self, expected: &'static str) -> Result<Token, ParseError> {
        match self.tokens.get(self.pos) {
            Some(t) => {
                self.pos += 1;
                Ok(t.clone())
            }
            None => Err(self.error_at(self.text.len(), ParseErrorKind::UnexpectedEnd { expected })),
        }
    }

    fn eat_sym(&mut self, c: char) -> bool {
        if matches!(self.peek(), Some(Token { tok: Tok::Sym(s), .. }) if *s == c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_sym(&mut self, c: char, expected: &'static str) -> Result<(), ParseError> {
        let t = self.next(expected)?;
        if t.tok == Tok::Sym(c) {
            Ok(())
        } else {
            Err(self.error_at(t.offset, ParseErrorKind::Expected { expected, found: t.text(self.text) }))
        }
    }

    fn expect_name(&mut self, expected: &'static str) -> Result<(String, usize), ParseError> {
        let t = self.next(expected)?;
        match t.tok {
            Tok::Name(n) => Ok((n, t.offset)),
            _ => Err(self.error_at(t.offset, ParseErrorKind::Expected { expected, found: t.text(self.text) })),
        }
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let mut lhs = self.term()?;
        loop {
            let op = if self.eat_sym('+') {
                BinOp::Add
            } else if self.eat_sym('-') {
                BinOp::Sub
            } else {
                return Ok(lhs);
            };
            let rhs = self.term()?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
    }

    fn term(&mut self) -> Result<Expr, ParseError> {
        let mut lhs = self.atom()?;
        loop {
            let op = if self.eat_sym('*') {
                BinOp::Mul
            } else if self.eat_sym('/') {
                BinOp::Div
            } else {
                return Ok(lhs);
            };
            let rhs = self.atom()?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs));
        }
    }

    fn atom(&mut self) -> Result<Expr, ParseError> {
        self.depth += 1;
        let r = self.atom_inner();
        self.depth -= 1;
        r
    }

    fn atom_inner(&mut self) -> Result<Expr, ParseError> {
        const WANT: &str = "a number, a name, `(`, reduce, select or accumulate";
        let t = self.next(WANT)?;
        if self.depth > MAX_DEPTH {
            return Err(self.error_at(t.offset, ParseErrorKind::TooDeep));
        }
        match t.tok {
            Tok::Num(v) => Ok(Expr::Number(v)),
            Tok::Sym('(') => {
                let e = self.expr()?;
                self.expect_sym(')', "`)`")?;
                Ok(e)
            }
            Tok::Name(n) if n == "reduce" => self.reduce(),
            Tok::Name(n) if n == "select" => self.select(),
            Tok::Name(n) if n == "accumulate" => self.accumulate(),
            Tok::Name(n) => Ok(Expr::Name(n)),
            Tok::Sym(_) => {
                Err(self.error_at(t.offset, ParseErrorKind::Expected { expected: WANT, found: t.text(self.text) }))
            }
        }
    }

    fn reduce(&mut self) -> Result<Expr, ParseError> {
        self.expect_sym('(', "`(` after reduce")?;
        let arg = self.expr()?;
        self.expect_sym(',', "`,` and a reduce operation")?;
        let (op_name, op_at) = self.expect_name("a reduce operation")?;
        let op = match op_name.as_str() {
            "sum" => ReduceOp::Sum,
            "max" => ReduceOp::Max,
            "min" => ReduceOp::Min,
            "avr" => ReduceOp::Avg,
            _ => return Err(self.error_at(op_at, ParseErrorKind::UnknownReduceOp(op_name))),
        };
        let mut dims = Vec::new();
        if self.eat_sym(',') {
            self.expect_sym('[', "`[` and a dimension list")?;
            loop {
                dims.push(self.dimension()?);
                if !self.eat_sym(',') {
                    break;
                }
            }
            self.expect_sym(']', "`]`")?;
        }
        self.expect_sym(')', "`)`")?;
        Ok(Expr::Reduce { arg: Box::new(arg), op, dims })
    }

    fn dimension(&mut self) -> Result<Dimension, ParseError> {
        let (name, at) = self.expect_name("a dimension name")?;
        Dimension::from_name(&name).ok_or_else(|| self.error_at(at, ParseErrorKind::UnknownDimension(name)))
    }

    fn select(&mut self) -> Result<Expr, ParseError> {
        self.expect_sym('(', "`(` after select")?;
        let arg = self.expr()?;
        self.expect_sym(',', "`,` and a selection list")?;
        self.expect_sym('[', "`[` and a selection list")?;
        let mut picks = Vec::new();
        loop {
            let dim = self.dimension()?;
            self.expect_sym('=', "`=`")?;
            self.expect_sym('[', "`[` and indices")?;
            let mut idx = Vec::new();
            loop {
                let first = self.index()?;
                if self.eat_sym(':') {
                    let last = self.index()?;
                    if last.0 < first.0 {
                        return Err(self.error_at(first.1, ParseErrorKind::BadIndex(format!("{}:{}", first.0, last.0))));
                    }
                    idx.extend(first.0..=last.0);
                } else {
                    idx.push(first.0);
                }
                if !self.eat_sym(',') {
                    break;
                }
            }
            self.expect_sym(']', "`]`")?;
            picks.push((dim, idx));
            if !self.eat_sym(',') {
                break;
            }
        }
        self.expect_sym(']', "`]`")?;
        self.expect_sym(')', "`)`")?;
        Ok(Expr::Select { arg: Box::new(arg), picks })
    }

    fn index(&mut self) -> Result<(usize, usize), ParseError> {
        let t = self.next("an index")?;
        let text = t.text(self.text);
        match t.tok {
            Tok::Num(v) if text.bytes().all(|c| c.is_ascii_digit()) && v <= 1e6 => Ok((v as usize, t.offset)),
            _ => Err(self.error_at(t.offset, ParseErrorKind::BadIndex(text))),
        }
    }

    fn accumulate(&mut self) -> Result<Expr, ParseError> {
        self.expect_sym('(', "`(` after accumulate")?;
        let (counter, _) = self.expect_name("a counter name")?;
        self.expect_sym(',', "`,` and an accumulate mode")?;
        let (mode, at) = self.expect_name("an accumulate mode")?;
        let mode = match mode.as_str() {
            "NONE" => AccumulateMode::None,
            "LOW_RES" => AccumulateMode::LowRes,
            "HIGH_RES" => AccumulateMode::HighRes,
            _ => return Err(self.error_at(at, ParseErrorKind::UnknownAccumulateMode(mode))),
        };
        self.expect_sym(')', "`)`")?;
        Ok(Expr::Accumulate { counter, mode })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(v: f64) -> Box<Expr> {
        Box::new(Expr::Number(v))
    }
    fn name(n: &str) -> Box<Expr> {
        Box::new(Expr::Name(n.into()))
    }

    #[test]
    fn precedence_and_associativity() {
        // 1 - 2 - 3 * 4 / 5  ==  (1 - 2) - ((3 * 4) / 5)
        let e = Expr::parse("1 - 2 - 3 * 4 / 5").unwrap();
        let want = Expr::Binary(
            BinOp::Sub,
            Box::new(Expr::Binary(BinOp::Sub, num(1.0), num(2.0))),
            Box::new(Expr::Binary(BinOp::Div, Box::new(Expr::Binary(BinOp::Mul, num(3.0), num(4.0))), num(5.0))),
        );
        assert_eq!(e, want);
        let e = Expr::parse("(A+B)*C").unwrap();
        assert_eq!(e, Expr::Binary(BinOp::Mul, Box::new(Expr::Binary(BinOp::Add, name("A"), name("B"))), name("C")));
    }

    #[test]
    fn functions() {
        let e = Expr::parse("reduce(accumulate(SQ_LEVEL_WAVES, HIGH_RES),sum)").unwrap();
        assert_eq!(
            e,
            Expr::Reduce {
                arg: Box::new(Expr::Accumulate { counter: "SQ_LEVEL_WAVES".into(), mode: AccumulateMode::HighRes }),
                op: ReduceOp::Sum,
                dims: vec![],
            }
        );
        let e = Expr::parse("reduce(X, avr, [DIMENSION_SHADER_ENGINE, DIMENSION_XCC])").unwrap();
        assert!(
            matches!(e, Expr::Reduce { op: ReduceOp::Avg, ref dims, .. } if *dims == [Dimension::ShaderEngine, Dimension::Xcc])
        );
        let e = Expr::parse("select(X,[DIMENSION_INSTANCE=[0,2:4],DIMENSION_SHADER_ENGINE=[1]])").unwrap();
        assert_eq!(
            e,
            Expr::Select {
                arg: name("X"),
                picks: vec![(Dimension::Instance, vec![0, 2, 3, 4]), (Dimension::ShaderEngine, vec![1])]
            }
        );
        assert_eq!(e.names(), ["X"]);
    }

    #[test]
    fn literals_use_atoi_like_rocprofiler_sdk() {
        assert_eq!(Expr::parse("1.5").unwrap(), Expr::Number(1.0));
        assert_eq!(Expr::parse(".5").unwrap(), Expr::Number(0.0));
        assert_eq!(Expr::parse("1e3").unwrap(), Expr::Number(1.0));
        assert_eq!(Expr::parse("400").unwrap(), Expr::Number(400.0));
    }

    #[test]
    fn errors_name_position_and_reason() {
        let cases: [(&str, usize, &str); 12] = [
            ("", 0, "expected a number, a name, `(`, reduce, select or accumulate, found end of expression"),
            ("A +", 3, "found end of expression"),
            ("A $ B", 2, "unexpected character `$`"),
            ("(A + B", 6, "expected `)`, found end"),
            ("A B", 2, "expected an operator or end, found `B`"),
            ("reduce(A, mean)", 10, "unknown reduce operation `mean`"),
            ("reduce(A, sum, [DIMENSION_FOO])", 16, "unknown dimension `DIMENSION_FOO`"),
            ("accumulate(A, FAST)", 14, "unknown accumulate mode `FAST`"),
            ("accumulate(1, NONE)", 11, "expected a counter name, found `1`"),
            ("select(A, [DIMENSION_SHADER_ENGINE=[3:1]])", 36, "bad select index `3:1`"),
            ("-A", 0, "found `-`"),
            ("99999999999999999999", 0, "too large"),
        ];
        for (text, offset, msg) in cases {
            let e = Expr::parse(text).unwrap_err();
            assert_eq!(e.offset, offset, "{text}: {e}");
            assert!(e.to_string().contains(msg), "{text}: {e}");
        }
        let deep = format!("{}1{}", "(".repeat(300), ")".repeat(300));
        assert_eq!(Expr::parse(&deep).unwrap_err().kind, ParseErrorKind::TooDeep);
        let long = vec!["1"; 600].join("+");
        assert_eq!(Expr::parse(&long).unwrap_err().kind, ParseErrorKind::TooLong);
        let ok = format!("{}1{}", "(".repeat(50), ")".repeat(50));
        assert_eq!(Expr::parse(&ok).unwrap(), Expr::Number(1.0));
        assert_eq!(
            Expr::parse("A |B").unwrap_err().to_string(),
            "expression `A |B`: unexpected character `|` at byte 2"
        );
    }
}
