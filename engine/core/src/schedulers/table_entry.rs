//! One entry of an arbitration table (DTable, InfiniBand VLArb), shared by the table-based
//! schedulers, the designer and the OpenSM import and export.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One arbitration-table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct TableEntry {
    /// Index of the class (VL, VC, SL) this entry serves.
    pub class: u32,
    /// Weight in flow-control credits / InfiniBand weight units (64 bytes each).
    pub weight: u32,
}
