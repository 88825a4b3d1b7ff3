//! A small JSON Schema checker for the keywords `schemas/diff/report.schema.json` uses
//! (`$ref` to `#/$defs/...`, `type`, `const`, `enum`, `properties`, `required`,
//! `additionalProperties: false`, `items`, `minItems`, `maxItems`, `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum`). An unknown keyword is an error, so the schema cannot
//! silently use something this checker would ignore.

use serde_json::Value;

const KNOWN: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "title",
    "description",
    "type",
    "const",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
];

fn type_ok(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        other => panic!("unknown type {other}"),
    }
}

/// Checks `v` against `schema` (whose `$ref`s resolve in `root`), appending messages to `errors`.
pub(crate) fn validate(root: &Value, schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    let s = schema.as_object().expect("schema nodes are objects");
    for k in s.keys() {
        assert!(KNOWN.contains(&k.as_str()), "schema keyword {k} at {at} is not supported by the checker");
    }
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local refs only");
        validate(root, &root["$defs"][name], v, at, errors);
    }
    if let Some(t) = s.get("type") {
        let ok = match t {
            Value::String(t) => type_ok(t, v),
            Value::Array(ts) => ts.iter().any(|t| type_ok(t.as_str().unwrap(), v)),
            _ => panic!("bad type at {at}"),
        };
        if !ok {
            errors.push(format!("{at}: {v} is not of type {t}"));
            return;
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            errors.push(format!("{at}: {v} != {c}"));
        }
    }
    if let Some(Value::Array(e)) = s.get("enum") {
        if !e.contains(v) {
            errors.push(format!("{at}: {v} not in {e:?}"));
        }
    }
    if let Some(n) = v.as_f64() {
        let bound = |k: &str| s.get(k).and_then(Value::as_f64);
        if bound("minimum").is_some_and(|m| n < m)
            || bound("maximum").is_some_and(|m| n > m)
            || bound("exclusiveMinimum").is_some_and(|m| n <= m)
            || bound("exclusiveMaximum").is_some_and(|m| n >= m)
        {
            errors.push(format!("{at}: {n} out of range"));
        }
    }
    if let Some(obj) = v.as_object() {
        let props = s.get("properties").and_then(Value::as_object);
        if let Some(Value::Array(req)) = s.get("required") {
            for r in req {
                if !obj.contains_key(r.as_str().unwrap()) {
                    errors.push(format!("{at}: missing {r}"));
                }
            }
        }
        for (k, val) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => validate(root, ps, val, &format!("{at}.{k}"), errors),
                None if s.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errors.push(format!("{at}: unexpected property {k}"));
                }
                None => {}
            }
        }
    }
    if let Some(arr) = v.as_array() {
        if let Some(min) = s.get("minItems").and_then(Value::as_u64) {
            if (arr.len() as u64) < min {
                errors.push(format!("{at}: fewer than {min} items"));
            }
        }
        if let Some(max) = s.get("maxItems").and_then(Value::as_u64) {
            if arr.len() as u64 > max {
                errors.push(format!("{at}: more than {max} items"));
            }
        }
        if let Some(items) = s.get("items") {
            for (i, x) in arr.iter().enumerate() {
                validate(root, items, x, &format!("{at}[{i}]"), errors);
            }
        }
    }
}
