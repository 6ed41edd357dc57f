//! Engine answers on their way to JavaScript: one place turns a value into its JSON text
//! (a serialisation failure is the engine's `Internal` error) and an engine error into
//! the `EngineError` object JavaScript receives, so each exported call is one expression.

use qoslab_core::EngineError;
use serde::Serialize;
use wasm_bindgen::JsValue;

/// `value` as compact JSON text.
pub(crate) fn json<T: Serialize>(value: &T) -> Result<String, EngineError> {
    serde_json::to_string(value).map_err(internal)
}

/// `value` as indented JSON text (what the web shows or downloads as it is).
pub(crate) fn json_pretty<T: Serialize>(value: &T) -> Result<String, EngineError> {
    serde_json::to_string_pretty(value).map_err(internal)
}

/// The answer of an exported call: the JSON text, or the error thrown as an
/// `EngineError` object.
pub(crate) fn to_js(answer: Result<String, EngineError>) -> Result<String, JsValue> {
    answer.map_err(|e| to_js_error(&e))
}

/// The `EngineError` object JavaScript receives (its message as a string should the
/// error's own JSON not parse).
pub(crate) fn to_js_error(e: &EngineError) -> JsValue {
    js_sys::JSON::parse(&e.to_json()).unwrap_or_else(|_| JsValue::from_str(&e.to_string()))
}

fn internal(e: serde_json::Error) -> EngineError {
    EngineError::Internal {
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value whose serialisation fails, as a map with a non-string key does.
    fn unserialisable() -> std::collections::BTreeMap<(u8, u8), u8> {
        [((1, 2), 3)].into_iter().collect()
    }

    #[test]
    fn a_value_becomes_json_and_a_failure_an_internal_error() {
        assert_eq!(json(&[1, 2]).unwrap(), "[1,2]");
        assert_eq!(json_pretty(&[1]).unwrap(), "[\n  1\n]");
        for answer in [json(&unserialisable()), json_pretty(&unserialisable())] {
            match answer {
                Err(EngineError::Internal { message }) => assert!(message.contains("key")),
                other => panic!("expected an internal error, got {other:?}"),
            }
        }
    }
}
