//! The interconnects a table is designed for, and their limits (a leaf of the design module).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The interconnect whose arbitration table is designed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Technology {
    /// The generic DTable: up to 4096 entries, 16-bit weights, 64 classes.
    Dtable,
    /// InfiniBand VL arbitration: up to 64 entries, 8-bit weights, 15 data VLs.
    Infiniband,
    /// Omni-Path: arbitrated like InfiniBand (64 entries, 8-bit weights), classes as SLs
    /// mapped SL to SC to VL, up to 31 classes (32 SCs and VLs, lane 15 for management).
    Omnipath,
    /// Advanced Switching basic table: 32 to 1024 entries (powers of two), no weights.
    As,
}

impl Technology {
    /// Largest weight of one entry, or `None` if entries carry no weight.
    pub fn max_weight(self) -> Option<u64> {
        match self {
            Technology::Dtable => Some(65_535),
            Technology::Infiniband | Technology::Omnipath => Some(255),
            Technology::As => None,
        }
    }

    /// Most classes.
    pub fn max_classes(self) -> usize {
        match self {
            Technology::Dtable => 64,
            Technology::Infiniband => 15,
            Technology::Omnipath => super::omnipath::DATA_LANES,
            Technology::As => 32,
        }
    }

    /// The technology's name in prose.
    pub fn label(self) -> &'static str {
        match self {
            Technology::Dtable => "DTable",
            Technology::Infiniband => "InfiniBand",
            Technology::Omnipath => "Omni-Path",
            Technology::As => "Advanced Switching",
        }
    }

    /// Whether a table of `n` entries exists, and the rule in words.
    pub fn entries_rule(self, n: u32) -> (bool, &'static str) {
        match self {
            Technology::Dtable => ((1..=4096).contains(&n), "between 1 and 4096"),
            Technology::Infiniband | Technology::Omnipath => {
                ((1..=64).contains(&n), "between 1 and 64")
            }
            Technology::As => (
                (32..=1024).contains(&n) && n.is_power_of_two(),
                "one of 32, 64, 128, 256, 512, 1024",
            ),
        }
    }
}
