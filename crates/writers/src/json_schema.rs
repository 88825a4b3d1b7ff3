//! A validator for the subset of JSON Schema (draft-07) that `schemas/json/` uses, so that tests
//! (ours and the end-to-end ones) can check `results.json` against the schema without pulling a
//! general validator and its dependency tree into the workspace.
//!
//! Supported keywords: `type` (a name or a list), `properties`, `required`,
//! `additionalProperties` (`false` or a schema), `items` (one schema), `minItems`, `enum`,
//! `const`, `minimum`, `$ref` (`#/definitions/<name>` only). Anything else in a schema is an
//! error, so the schema cannot silently say more than is checked.

use serde_json::Value;

/// The schema of `results.json` (`schemas/json/results.schema.json`).
pub const RESULTS_SCHEMA: &str = include_str!("../../../schemas/json/results.schema.json");

const KEYWORDS: [&str; 15] = [
    "$schema",
    "$id",
    "title",
    "description",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "enum",
    "const",
    "minimum",
    "$ref",
    "definitions",
];

/// Validates `doc` against `schema`; returns one message per violation (`<json pointer>: what`),
/// at most `limit` of them.
pub fn validate(schema: &Value, doc: &Value, limit: usize) -> Vec<String> {
    let mut v = Validator { root: schema, errors: Vec::new(), limit };
    v.check(schema, doc, "");
    v.errors
}

struct Validator<'a> {
    root: &'a Value,
    errors: Vec<String>,
    limit: usize,
}

fn type_matches(name: &str, v: &Value) -> bool {
    match name {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        _ => false,
    }
}

impl<'a> Validator<'a> {
    fn error(&mut self, at: &str, what: String) {
        if self.errors.len() < self.limit {
            self.errors.push(format!("{}: {what}", if at.is_empty() { "/" } else { at }));
        }
    }

    fn resolve(&mut self, r: &str, at: &str) -> Option<&'a Value> {
        let name = r.strip_prefix("#/definitions/");
        let found = name.and_then(|n| self.root.get("definitions")?.get(n));
        if found.is_none() {
            self.error(at, format!("schema reference {r} not found"));
        }
        found
    }

    fn check(&mut self, schema: &'a Value, doc: &Value, at: &str) {
        if self.errors.len() >= self.limit {
            return;
        }
        let Some(s) = schema.as_object() else {
            self.error(at, "schema is not an object".into());
            return;
        };
        for k in s.keys() {
            if !KEYWORDS.contains(&k.as_str()) {
                self.error(at, format!("schema keyword {k} is not supported by this validator"));
            }
        }
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            if let Some(target) = self.resolve(r, at) {
                self.check(target, doc, at);
            }
            return;
        }
        if let Some(t) = s.get("type") {
            let ok = match t {
                Value::String(name) => type_matches(name, doc),
                Value::Array(names) => names.iter().filter_map(Value::as_str).any(|n| type_matches(n, doc)),
                _ => false,
            };
            if !ok {
                self.error(at, format!("expected type {t}, found {}", short(doc)));
                return;
            }
        }
        if let Some(e) = s.get("enum").and_then(Value::as_array) {
            if !e.contains(doc) {
                self.error(at, format!("{} is not one of {}", short(doc), Value::Array(e.clone())));
            }
        }
        if let Some(c) = s.get("const") {
            if c != doc {
                self.error(at, format!("{} is not {c}", short(doc)));
            }
        }
        if let (Some(min), Some(x)) = (s.get("minimum").and_then(Value::as_f64), doc.as_f64()) {
            if x < min {
                self.error(at, format!("{x} is below the minimum {min}"));
            }
        }
        if let Some(obj) = doc.as_object() {
            if let Some(req) = s.get("required").and_then(Value::as_array) {
                for k in req.iter().filter_map(Value::as_str) {
                    if !obj.contains_key(k) {
                        self.error(at, format!("missing required key {k}"));
                    }
                }
            }
            let props = s.get("properties").and_then(Value::as_object);
            for (k, v) in obj {
                let child = format!("{at}/{k}");
                match props.and_then(|p| p.get(k)) {
                    Some(ps) => self.check(ps, v, &child),
                    None => match s.get("additionalProperties") {
                        Some(Value::Bool(false)) => self.error(at, format!("unexpected key {k}")),
                        Some(extra @ Value::Object(_)) => self.check(extra, v, &child),
                        _ => {}
                    },
                }
            }
        }
        if let Some(arr) = doc.as_array() {
            if let Some(min) = s.get("minItems").and_then(Value::as_u64) {
                if (arr.len() as u64) < min {
                    self.error(at, format!("{} items, at least {min} required", arr.len()));
                }
            }
            if let Some(items) = s.get("items") {
                for (i, v) in arr.iter().enumerate() {
                    self.check(items, v, &format!("{at}/{i}"));
                }
            }
        }
    }
}

/// Keywords of `schema` (and every schema nested in it) this validator does not check.
pub fn unsupported_keywords(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(s) = schema.as_object() else { return out };
    for (k, v) in s {
        if !KEYWORDS.contains(&k.as_str()) {
            out.push(k.clone());
        }
        match k.as_str() {
            "properties" | "definitions" => {
                for sub in v.as_object().into_iter().flat_map(|m| m.values()) {
                    out.extend(unsupported_keywords(sub));
                }
            }
            "items" | "additionalProperties" => out.extend(unsupported_keywords(v)),
            _ => {}
        }
    }
    out
}

/// A short rendering of a value for messages.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn violations_are_reported_with_their_path() {
        let schema = json!({
            "type": "object",
            "required": ["a", "b"],
            "additionalProperties": false,
            "properties": {
                "a": { "type": "array", "minItems": 1, "items": { "$ref": "#/definitions/n" } },
                "b": { "enum": ["x", "y"] }
            },
            "definitions": { "n": { "type": "integer", "minimum": 0 } }
        });
        assert!(validate(&schema, &json!({"a": [1, 2], "b": "x"}), 10).is_empty());
        let e = validate(&schema, &json!({"a": [1, -2, "s"], "c": 1}), 10);
        assert_eq!(
            e,
            [
                "/: missing required key b",
                "/a/1: -2 is below the minimum 0",
                "/a/2: expected type \"integer\", found \"s\"",
                "/: unexpected key c"
            ]
        );
        assert_eq!(validate(&json!({"pattern": "x"}), &json!(1), 10).len(), 1, "unsupported keywords are errors");
    }

    #[test]
    fn the_results_schema_uses_only_supported_keywords() {
        let schema: Value = serde_json::from_str(RESULTS_SCHEMA).unwrap();
        assert_eq!(unsupported_keywords(&schema), Vec::<String>::new());
        assert_eq!(unsupported_keywords(&json!({"properties": {"a": {"pattern": "x"}}})), ["pattern"]);
        let e = validate(&schema, &json!({}), 100);
        assert_eq!(e, ["/: missing required key rocprofiler-sdk-tool"]);
    }
}
