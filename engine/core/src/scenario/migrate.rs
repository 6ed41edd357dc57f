//! Scenario format versions and migrations.
//!
//! Each format change bumps [`CURRENT_VERSION`] and adds one step `vN -> vN+1` that
//! rewrites the raw JSON, so links and files made by older releases keep opening.

use serde_json::Value;

use crate::error::EngineError;

/// The scenario format version this build reads and writes.
pub const CURRENT_VERSION: u32 = 1;

/// Brings a raw scenario document to [`CURRENT_VERSION`].
pub fn migrate(mut doc: Value) -> Result<Value, EngineError> {
    let Some(obj) = doc.as_object() else {
        return Err(EngineError::invalid("", "a scenario must be a JSON object"));
    };
    let version = match obj.get("version") {
        None => {
            return Err(EngineError::invalid(
                "version",
                format!(
                    "missing; a scenario states its format version, e.g. \"version\": {CURRENT_VERSION}"
                ),
            ));
        }
        Some(v) => v.as_u64().filter(|&v| v >= 1).ok_or_else(|| {
            EngineError::invalid("version", format!("must be a positive integer (got {v})"))
        })?,
    };
    if version > u64::from(CURRENT_VERSION) {
        return Err(EngineError::invalid(
            "version",
            format!(
                "format version {version} is newer than this qoslab understands ({CURRENT_VERSION}); \
                 open it with a newer release"
            ),
        ));
    }
    // Migration steps go here, oldest first: `if version == 1 { doc = v1_to_v2(doc); version = 2 }`.
    if let Some(obj) = doc.as_object_mut() {
        obj.insert("version".into(), Value::from(CURRENT_VERSION));
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn current_version_is_identity() {
        let doc = json!({"version": 1, "name": "x"});
        assert_eq!(migrate(doc.clone()).unwrap(), doc);
    }

    #[test]
    fn missing_and_future_versions_are_named() {
        let e = migrate(json!({"name": "x"})).unwrap_err().to_string();
        assert!(e.starts_with("version: missing"), "{e}");
        let e = migrate(json!({"version": 99})).unwrap_err().to_string();
        assert!(e.contains("newer than this qoslab"), "{e}");
        let e = migrate(json!({"version": "one"})).unwrap_err().to_string();
        assert!(e.contains("positive integer"), "{e}");
        let e = migrate(json!([1, 2])).unwrap_err().to_string();
        assert!(e.contains("JSON object"), "{e}");
    }
}
