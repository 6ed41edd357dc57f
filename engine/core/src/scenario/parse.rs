//! From text to a typed, validated [`Scenario`].

use super::{Scenario, migrate, validate};
use crate::error::{EngineError, FieldError};

/// Parses, migrates and validates a scenario document.
pub fn parse(text: &str) -> Result<Scenario, EngineError> {
    let scenario = parse_unvalidated(text)?;
    validate(&scenario)?;
    Ok(scenario)
}

/// Parses and migrates a scenario document without checking the rules (for tools that
/// want to show a broken scenario and all its problems).
pub fn parse_unvalidated(text: &str) -> Result<Scenario, EngineError> {
    let text = crate::text::strip_bom(text);
    let raw: serde_json::Value = serde_json::from_str(text).map_err(|e| EngineError::Syntax {
        message: strip_position(&e.to_string()),
        line: u32::try_from(e.line()).unwrap_or(u32::MAX),
        column: u32::try_from(e.column()).unwrap_or(u32::MAX),
    })?;
    let raw = migrate(raw)?;
    serde_path_to_error::deserialize::<_, Scenario>(raw).map_err(|e| {
        let (path, message) = super::tagged::locate(&e.path().to_string(), &e.inner().to_string());
        EngineError::Invalid {
            errors: vec![FieldError::new(path, message)],
        }
    })
}

/// serde_json appends " at line L column C"; the position is reported separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}
