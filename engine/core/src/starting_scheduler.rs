//! The wasm call `starting_scheduler`: what the web asks when the user switches a port's
//! scheduler to another kind ([`StartingRequest`]: the kind, the configuration now, the
//! port's classes, the link rate), answered with the engine's starting configuration
//! (`schedulers::starting` and each kind's `SchedulerSpec::starting`). Here, outside
//! `schedulers`, because it reads the scenario's class types, which depend on the
//! schedulers' configurations.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{EngineError, FieldError};
use crate::scenario::ClassConfig;
use crate::scenario::rules::MAX_CLASSES;
use crate::schedulers::starting::{Carried, ClassSize};
use crate::schedulers::{KINDS, SchedulerConfig};

/// What the web asks for: a starting configuration of `kind` for `classes`, keeping what
/// `from` (the port's configuration now) expressed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct StartingRequest {
    /// The scheduler kind wanted (one of the scenario's `kind` strings).
    pub kind: String,
    /// The port's scheduler now (need not be valid for the classes).
    pub from: SchedulerConfig,
    /// The port's classes (1 to 64).
    pub classes: Vec<ClassConfig>,
    /// Link rate in Gb/s (sizes EDF deadlines; 1 when not a positive number).
    pub rate_gbps: f64,
}

/// The packet sizes of `classes`, as starting configurations see them.
pub fn class_sizes(classes: &[ClassConfig]) -> Vec<ClassSize> {
    classes
        .iter()
        .map(|c| ClassSize {
            max_bytes: c.traffic.size.max_bytes(),
            mean_bytes: c.traffic.size.mean_bytes(),
        })
        .collect()
}

/// The starting configuration of `kind` for `classes`, keeping what `from` expressed
/// (None when no scheduler has that kind).
pub fn starting_config(
    kind: &str,
    from: &SchedulerConfig,
    classes: &[ClassConfig],
    rate_gbps: f64,
) -> Option<SchedulerConfig> {
    let sizes = class_sizes(classes);
    SchedulerConfig::starting(kind, &Carried::from_config(from, &sizes, rate_gbps))
}

/// The starting configuration asked for by `request` (JSON of a [`StartingRequest`]);
/// errors name the field (`kind`, `classes`, `from.table[2].class`, ...).
pub fn starting_scheduler(request: &str) -> Result<SchedulerConfig, EngineError> {
    let request: StartingRequest = parse_request(request)?;
    check_classes(&request.classes)?;
    starting_config(
        &request.kind,
        &request.from,
        &request.classes,
        request.rate_gbps,
    )
    .ok_or_else(|| {
        EngineError::invalid(
            "kind",
            format!(
                "\"{}\" is not a scheduler kind; expected one of {}",
                request.kind,
                KINDS.join(", ")
            ),
        )
    })
}

/// A port's classes are 1 to [`MAX_CLASSES`]; otherwise an error naming `classes`.
pub(crate) fn check_classes(classes: &[ClassConfig]) -> Result<(), EngineError> {
    let n = classes.len();
    if n == 0 || n > MAX_CLASSES {
        return Err(EngineError::invalid(
            "classes",
            format!("must list 1 to {MAX_CLASSES} classes (now {n})"),
        ));
    }
    Ok(())
}

/// Reads the JSON of a web request (`StartingRequest`, `WeightsRequest`): a syntax error
/// with its line and column, or the field path and rule of what does not fit the type
/// (`request` when the whole text is wrong).
pub(crate) fn parse_request<T: DeserializeOwned>(text: &str) -> Result<T, EngineError> {
    let raw: serde_json::Value =
        serde_json::from_str(crate::text::strip_bom(text)).map_err(|e| EngineError::Syntax {
            message: e.to_string(),
            line: u32::try_from(e.line()).unwrap_or(u32::MAX),
            column: u32::try_from(e.column()).unwrap_or(u32::MAX),
        })?;
    serde_path_to_error::deserialize::<_, T>(raw).map_err(|e| {
        let (path, message) =
            crate::scenario::tagged::locate(&e.path().to_string(), &e.inner().to_string());
        let path = if path.is_empty() {
            "request".to_string()
        } else {
            path
        };
        EngineError::Invalid {
            errors: vec![FieldError::new(path, message)],
        }
    })
}

#[cfg(test)]
#[path = "starting_scheduler_tests.rs"]
mod tests;
