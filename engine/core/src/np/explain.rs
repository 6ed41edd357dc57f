//! What a network-processor scheduler says about a decision, and the steps of the decision
//! trace ([`super::trace`]): plain data, shared by the contract, the schedulers and the node.

use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

use crate::time::SimTime;

/// Most candidates listed per step.
pub const MAX_CANDIDATES: usize = 12;

/// A scheduler's account of one decision, taken before it is carried out.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct Explanation {
    /// The decision in words.
    pub words: String,
    /// What the candidates' keys are ("finish tag F (µs)").
    pub key_name: String,
    /// The streams that could have been chosen and their keys, smallest first (at most
    /// [`MAX_CANDIDATES`]).
    pub candidates: Vec<NpCandidate>,
    /// The scheduler's clock values at the decision (virtual time, summed weights, ...).
    pub values: Vec<NpValue>,
}

/// A candidate stream and its key.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct NpCandidate {
    /// Stream number.
    pub stream: u32,
    /// Its key (smallest goes first).
    pub key: f64,
}

/// A named value.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct NpValue {
    /// Name, with its unit.
    pub name: String,
    /// Value.
    pub value: f64,
}

/// One traced dispatch.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct NpStep {
    /// Position in the trace.
    pub step: u32,
    /// When the packet was dispatched, ns.
    pub time_ns: f64,
    /// Stream chosen.
    pub stream: u32,
    /// Its length, bytes.
    pub bytes: u32,
    /// Its length after processing, bytes.
    pub out_bytes: u32,
    /// The scheduler's prediction of its cycles when it was chosen (None: no prediction).
    pub predicted_cycles: Option<f64>,
    /// Its actual cycles (the node knows them; the scheduler learns them once processed).
    pub actual_cycles: u32,
    /// When its processing ends, ns (None: the link is the server).
    pub processed_ns: Option<f64>,
    /// Engines busy after the dispatch.
    pub engines_busy: u32,
    /// Packets in the transmit queue at the dispatch.
    pub transmit_queue: u32,
    /// Whether the link was sending at the dispatch.
    pub link_busy: bool,
    /// The scheduler's account (None: it does not explain).
    pub explanation: Option<Explanation>,
    /// The whole step in words.
    pub words: String,
}

/// Records dispatches from a start time until it holds enough.
#[derive(Clone, Debug)]
pub struct NpTracer {
    /// Tracing starts with the first dispatch at or after this time.
    pub from: SimTime,
    /// Most steps.
    pub limit: usize,
    /// The steps so far.
    pub steps: Vec<NpStep>,
}

impl NpTracer {
    /// Whether a dispatch at `now` is to be recorded.
    pub fn wants(&self, now: SimTime) -> bool {
        now >= self.from && self.steps.len() < self.limit
    }

    /// Whether the trace holds all the steps asked for.
    pub fn is_full(&self) -> bool {
        self.steps.len() >= self.limit
    }
}
