//! A scheduler's visible state, for decision traces and the animation.
//!
//! One struct for every scheduler: each fills the registers it has and leaves the others
//! out, so the UI draws whatever is present without knowing every scheduler.

use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

/// Which InfiniBand VLArb table an entry or pointer belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TableSide {
    /// The only table of AS basic and DTable arbiters.
    Main,
    /// The InfiniBand high-priority table.
    High,
    /// The InfiniBand low-priority table.
    Low,
}

/// The registers of a scheduler at one instant. Absent fields do not exist in that
/// scheduler. Units: DTable and IBA counters in credits (64 B), DRR counters in bytes,
/// tags in bytes of service divided by the class's share.
#[derive(Clone, Debug, Default, PartialEq, Serialize, JsonSchema, TS)]
pub struct Registers {
    /// Table pointer: index of the selected entry (of `table`'s table for IBA).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub entry: Option<u32>,
    /// IBA: the table being served now.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub table: Option<TableSide>,
    /// IBA: pointer of the high table (its selected entry).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub high_entry: Option<u32>,
    /// IBA: pointer of the low table.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub low_entry: Option<u32>,
    /// Class selected by the table pointer or the round robin (the class being served).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub selected: Option<u32>,
    /// DTable: the accumulated-weight register, in credits.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub accumulated: Option<i64>,
    /// IBA: weight left in the selected entry, in 64-byte units.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub remaining_weight: Option<i64>,
    /// IBA: bytes sent from the high table since the low table last had an opportunity.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub high_limit_used: Option<i64>,
    /// IBA: the high limit in bytes (`high_limit * 4096`; absent when unbounded).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub high_limit_bytes: Option<i64>,
    /// Deficit counter per class (DTable: credits; DRR: bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Array<number>")]
    pub deficit: Option<Vec<i64>>,
    /// Virtual time of a virtual-time scheduler.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub virtual_time: Option<f64>,
    /// Start tag of each class's head packet (None for an empty queue).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub start_tags: Option<Vec<Option<f64>>>,
    /// Finish tag of each class's head packet (None for an empty queue).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub finish_tags: Option<Vec<Option<f64>>>,
    /// EDF: absolute deadline of each class's head packet, in ns (None for an empty queue).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub deadlines_ns: Option<Vec<Option<f64>>>,
}
