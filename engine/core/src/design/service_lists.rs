//! PLACEHOLDER: WRR service-list generators (being written).
#![allow(missing_docs, unused_variables, clippy::panic)]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::EngineError;

/// How a weighted round-robin list interleaves its flows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ServiceListKind {
    /// Simply interleaved (bins 1..w_i; the order Nested-DRR produces).
    Simple,
    /// Uniformly interleaved (lcm bins; the order SRR produces).
    Uniform,
    /// WF2Q interleaved (one WF2Q frame with equal packets; best latency).
    Wf2q,
}

/// The list of flow indices (length `sum(weights)`) for integer `weights`.
pub fn service_list(kind: ServiceListKind, weights: &[u32]) -> Result<Vec<usize>, EngineError> {
    todo!()
}
