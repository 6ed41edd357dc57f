//! How a table-based scheduler's table(s) are listed in decision traces.

use schemars::JsonSchema;
use serde::Serialize;
use ts_rs::TS;

use super::TableSide;
use super::table_entry::TableEntry;

/// One entry of an arbitration table.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
pub struct TraceTableEntry {
    /// Which table (`main`, or `high` / `low` for InfiniBand).
    pub table: TableSide,
    /// Position within its table.
    pub index: u32,
    /// Class served.
    pub class: u32,
    /// Weight in 64-byte units (absent for the AS basic table: one packet per entry).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub weight: Option<u32>,
}

/// The entries of one weighted table, in order.
pub(crate) fn weighted_entries(side: TableSide, table: &[TableEntry]) -> Vec<TraceTableEntry> {
    table
        .iter()
        .enumerate()
        .map(|(i, e)| TraceTableEntry {
            table: side,
            index: i as u32,
            class: e.class,
            weight: Some(e.weight),
        })
        .collect()
}
