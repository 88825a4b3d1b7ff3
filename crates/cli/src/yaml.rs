//! YAML read into serde_json's value model, for the input files (`-i`) and the `-E` counter file.

use std::path::Path;

use anyhow::{anyhow, Result};
use serde_json::Value;

/// Parses YAML into the JSON value model (the keys and values input files use).
pub(crate) fn yaml_to_json(text: &str, file: &Path) -> Result<Value> {
    use yaml_rust2::{Yaml, YamlLoader};
    let docs = YamlLoader::load_from_str(text).map_err(|e| anyhow!("input file {}: {e}", file.display()))?;
    fn conv(y: &Yaml) -> Value {
        match y {
            Yaml::Real(s) => {
                s.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map_or(Value::Null, Value::Number)
            }
            Yaml::Integer(i) => Value::from(*i),
            Yaml::String(s) => Value::String(s.clone()),
            Yaml::Boolean(b) => Value::Bool(*b),
            Yaml::Array(a) => Value::Array(a.iter().map(conv).collect()),
            Yaml::Hash(h) => Value::Object(
                h.iter()
                    .map(|(k, v)| {
                        let key = match k {
                            Yaml::String(s) => s.clone(),
                            Yaml::Integer(i) => i.to_string(),
                            Yaml::Boolean(b) => b.to_string(),
                            other => format!("{other:?}"),
                        };
                        (key, conv(v))
                    })
                    .collect(),
            ),
            Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
        }
    }
    Ok(docs.first().map(conv).unwrap_or(Value::Null))
}
