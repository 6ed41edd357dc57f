//! Errors that cross the engine boundary (CLI, WebAssembly): structured, serialisable,
//! each naming the field and the rule.

use serde::Serialize;
use std::fmt;
use ts_rs::TS;

/// One problem with one field of an input document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct FieldError {
    /// Where: a JSON path such as `model.classes[2].traffic.load` (empty for the whole document).
    pub path: String,
    /// What rule is broken, in words.
    pub message: String,
}

impl FieldError {
    /// A problem at `path`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Why the engine refused or failed a request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum EngineError {
    /// The text is not JSON at all.
    #[error("not valid JSON (line {line}, column {column}): {message}")]
    Syntax {
        /// The parser's message.
        message: String,
        /// 1-based line of the problem.
        line: u32,
        /// 1-based column of the problem.
        column: u32,
    },
    /// The document is JSON but breaks the format or its rules; every problem found.
    #[error("{}", display_list(errors))]
    Invalid {
        /// The problems, in document order.
        errors: Vec<FieldError>,
    },
    /// The run stopped: it went over a run-time budget (see `budget.rs`).
    #[error("run stopped: {message}")]
    Budget {
        /// The figure over its limit: `packets_held` or `events`.
        figure: String,
        /// Its value when the run stopped.
        #[ts(type = "number")]
        value: u64,
        /// Its limit.
        #[ts(type = "number")]
        limit: u64,
        /// What happened and what to change, in words.
        message: String,
    },
    /// A bug in qoslab (never caused by input); please report it.
    #[error("internal error: {message}")]
    Internal {
        /// What went wrong.
        message: String,
    },
}

fn display_list(errors: &[FieldError]) -> String {
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    lines.join("\n")
}

impl EngineError {
    /// An `Invalid` error with a single problem.
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> EngineError {
        EngineError::Invalid {
            errors: vec![FieldError::new(path, message)],
        }
    }

    /// The error as a JSON string (the wire form used by the WebAssembly facade).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| {
            r#"{"kind":"internal","message":"error could not be serialised"}"#.to_string()
        })
    }
}
