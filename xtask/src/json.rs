//! A minimal JSON reader for the reference files the code generators read, so xtask needs no JSON
//! dependency.

use std::collections::BTreeMap;

use anyhow::{anyhow, bail, Result};

/// A minimal JSON value, enough for `pm4-block-tables.json` (read by `codegen-counters` and
/// `codegen-targets`).
#[derive(Debug)]
pub(crate) enum Json {
    /// `null`, `true` and `false`: present in the file, never read.
    Literal,
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    pub(crate) fn parse(text: &str) -> Result<Json> {
        let bytes = text.as_bytes();
        let mut pos = 0;
        let v = Self::value(bytes, &mut pos)?;
        Self::ws(bytes, &mut pos);
        if pos != bytes.len() {
            bail!("json: trailing data at byte {pos}");
        }
        Ok(v)
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.get(key),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Num(n) if *n >= 0.0 && n.fract() == 0.0 => Some(*n as u64),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Arr(a) => Some(a),
            _ => None,
        }
    }

    fn ws(b: &[u8], pos: &mut usize) {
        while *pos < b.len() && b[*pos].is_ascii_whitespace() {
            *pos += 1;
        }
    }

    fn value(b: &[u8], pos: &mut usize) -> Result<Json> {
        Self::ws(b, pos);
        let Some(&c) = b.get(*pos) else { bail!("json: unexpected end") };
        match c {
            b'{' => {
                *pos += 1;
                let mut m = BTreeMap::new();
                Self::ws(b, pos);
                if b.get(*pos) == Some(&b'}') {
                    *pos += 1;
                    return Ok(Json::Obj(m));
                }
                loop {
                    Self::ws(b, pos);
                    let Json::Str(k) = Self::value(b, pos)? else { bail!("json: object key at byte {pos}") };
                    Self::ws(b, pos);
                    if b.get(*pos) != Some(&b':') {
                        bail!("json: expected `:` at byte {pos}");
                    }
                    *pos += 1;
                    let v = Self::value(b, pos)?;
                    m.insert(k, v);
                    Self::ws(b, pos);
                    match b.get(*pos) {
                        Some(b',') => *pos += 1,
                        Some(b'}') => {
                            *pos += 1;
                            return Ok(Json::Obj(m));
                        }
                        _ => bail!("json: expected `,` or `}}` at byte {pos}"),
                    }
                }
            }
            b'[' => {
                *pos += 1;
                let mut a = Vec::new();
                Self::ws(b, pos);
                if b.get(*pos) == Some(&b']') {
                    *pos += 1;
                    return Ok(Json::Arr(a));
                }
                loop {
                    a.push(Self::value(b, pos)?);
                    Self::ws(b, pos);
                    match b.get(*pos) {
                        Some(b',') => *pos += 1,
                        Some(b']') => {
                            *pos += 1;
                            return Ok(Json::Arr(a));
                        }
                        _ => bail!("json: expected `,` or `]` at byte {pos}"),
                    }
                }
            }
            b'"' => {
                *pos += 1;
                let mut s = String::new();
                loop {
                    let Some(&c) = b.get(*pos) else { bail!("json: unterminated string") };
                    *pos += 1;
                    match c {
                        b'"' => return Ok(Json::Str(s)),
                        b'\\' => {
                            let Some(&e) = b.get(*pos) else { bail!("json: unterminated escape") };
                            *pos += 1;
                            match e {
                                b'n' => s.push('\n'),
                                b't' => s.push('\t'),
                                b'u' => {
                                    let hex = b.get(*pos..*pos + 4).ok_or_else(|| anyhow!("json: short \\u"))?;
                                    let code = u32::from_str_radix(std::str::from_utf8(hex)?, 16)?;
                                    s.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                                    *pos += 4;
                                }
                                other => s.push(other as char),
                            }
                        }
                        _ => {
                            // Copy one UTF-8 sequence as is.
                            let start = *pos - 1;
                            let mut end = *pos;
                            while end < b.len() && (b[end] & 0xC0) == 0x80 {
                                end += 1;
                            }
                            s.push_str(std::str::from_utf8(&b[start..end])?);
                            *pos = end;
                        }
                    }
                }
            }
            b't' if b[*pos..].starts_with(b"true") => {
                *pos += 4;
                Ok(Json::Literal)
            }
            b'f' if b[*pos..].starts_with(b"false") => {
                *pos += 5;
                Ok(Json::Literal)
            }
            b'n' if b[*pos..].starts_with(b"null") => {
                *pos += 4;
                Ok(Json::Literal)
            }
            _ => {
                let start = *pos;
                while *pos < b.len() && matches!(b[*pos], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    *pos += 1;
                }
                let s = std::str::from_utf8(&b[start..*pos])?;
                let n = s.parse::<f64>().map_err(|_| anyhow!("json: bad value at byte {start}"))?;
                Ok(Json::Num(n))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_reader_handles_nesting() {
        let v = Json::parse(r#"{"a": [1, {"b": "x\"y"}], "c": null, "d": true}"#).unwrap();
        assert_eq!(v.get("a").unwrap().as_array().unwrap()[0].as_u64(), Some(1));
        assert_eq!(v.get("a").unwrap().as_array().unwrap()[1].get("b").unwrap().as_str(), Some("x\"y"));
        assert!(Json::parse("{\"a\": }").is_err());
    }
}
