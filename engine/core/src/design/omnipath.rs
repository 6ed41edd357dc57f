//! The Omni-Path QoS maps of a design (`shared/spec/30-network.md`, Omni-Path: SL, SC and VL
//! identifiers, maps SL2SC, SC2VL and SC2SL, up to 32 each, SC 15 for management).
//!
//! Class `k` of a design is service level `k`. Its service channel and virtual lane are the
//! `k`-th *data lane*: `k` below 15, `k + 1` from 15 on, so lane 15 stays the management lane
//! (SC 15 / VL 15). That leaves 31 data lanes, hence at most 31 classes. Entries of a map
//! that no class uses are `null`: the design says nothing about them.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Entries of each Omni-Path map (5-bit SL, SC and VL identifiers).
pub const MAP_ENTRIES: usize = 32;
/// The management lane (SC 15, VL 15), never given to a class.
pub const MANAGEMENT_LANE: u8 = 15;
/// Data lanes: every lane but the management one.
pub const DATA_LANES: usize = MAP_ENTRIES - 1;

/// Service levels of an Omni-Path device (5-bit SL identifiers).
pub const SLS: u32 = MAP_ENTRIES as u32;
/// MPorts of the Omni-Path reference switch.
pub const REFERENCE_MPORTS: u32 = 12;
/// Ports of each MPort.
pub const PORTS_PER_MPORT: u32 = 4;
/// Ports of the Omni-Path reference switch (12 MPorts of 4): the default of
/// `Requirements::switch_ports`.
pub const REFERENCE_PORTS: u32 = REFERENCE_MPORTS * PORTS_PER_MPORT;

/// The Omni-Path DTable adaptation (`shared/spec/20-table-design.md`, "Omni-Path
/// (correction, 2026-11)"): no Omni-Path hardware table holds a DTable, so a dedicated
/// DTable sits next to each output's SL arbiter, with its own deficit counter per SL and one
/// accumulated-weight register per output. The registers of one switch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OmniPathDTableLayout {
    /// Ports of the switch (each an output with its own table).
    pub switch_ports: u32,
    /// Service levels of the switch (a deficit counter each, per output).
    pub sls: u32,
    /// Entries of each output's table (the design's `N`).
    pub entries_per_table: u32,
    /// Dedicated tables: one per output.
    pub tables: u32,
    /// Deficit counters of one output: one per SL.
    pub deficit_counters_per_output: u32,
    /// Deficit counters of the switch: ports x SLs.
    #[ts(type = "number")]
    pub deficit_counters: u64,
    /// Accumulated-weight registers of the switch: one per output.
    #[ts(type = "number")]
    pub accumulators: u64,
    /// SLs the design uses (its classes), per output.
    pub sls_used: u32,
    /// Largest value a deficit counter reaches for this design (the largest class MTU
    /// minus 1), in credits.
    #[ts(type = "number")]
    pub max_deficit_credits: u64,
    /// Largest value the accumulated-weight register reaches (deficit + weight), in credits.
    #[ts(type = "number")]
    pub max_accumulated_credits: u64,
}

/// The adaptation's registers on a switch of `ports` ports and `sls` SLs for a table of
/// `entries` entries serving `classes` classes, whose deficits and register reach
/// `max_deficit` and `max_accumulated` credits.
pub fn dtable_layout(
    ports: u32,
    sls: u32,
    entries: u32,
    classes: usize,
    max_deficit: u64,
    max_accumulated: u64,
) -> OmniPathDTableLayout {
    OmniPathDTableLayout {
        switch_ports: ports,
        sls,
        entries_per_table: entries,
        tables: ports,
        deficit_counters_per_output: sls,
        deficit_counters: u64::from(ports) * u64::from(sls),
        accumulators: u64::from(ports),
        sls_used: u32::try_from(classes).unwrap_or(u32::MAX),
        max_deficit_credits: max_deficit,
        max_accumulated_credits: max_accumulated,
    }
}

/// The SL2SC, SC2VL and SC2SL maps of an Omni-Path design, each indexed 0 to 31.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OmniPathMaps {
    /// SC of each SL (`null`: no class on that SL).
    pub sl2sc: Vec<Option<u8>>,
    /// VL of each SC (`null`: no class on that SC; SC 15 is management).
    pub sc2vl: Vec<Option<u8>>,
    /// SL of each SC, the inverse of `sl2sc` (`null` where no class is).
    pub sc2sl: Vec<Option<u8>>,
}

/// The data lane (SC and VL) of class `k`: `k` below 15, `k + 1` from 15 on; `None` beyond
/// the 31 data lanes.
pub fn data_lane(k: usize) -> Option<u8> {
    let lane = if k < usize::from(MANAGEMENT_LANE) {
        k
    } else {
        k + 1
    };
    u8::try_from(lane)
        .ok()
        .filter(|&l| usize::from(l) < MAP_ENTRIES)
}

/// The maps of a design with `classes` classes (class `k` = SL `k`, on data lane `k`);
/// `None` when there are more classes than data lanes.
pub fn maps(classes: usize) -> Option<OmniPathMaps> {
    if classes > DATA_LANES {
        return None;
    }
    let mut sl2sc = vec![None; MAP_ENTRIES];
    let mut sc2vl = vec![None; MAP_ENTRIES];
    let mut sc2sl = vec![None; MAP_ENTRIES];
    for (k, sc) in sl2sc.iter_mut().enumerate().take(classes) {
        let lane = data_lane(k)?;
        *sc = Some(lane);
        sc2vl[usize::from(lane)] = Some(lane);
        sc2sl[usize::from(lane)] = Some(u8::try_from(k).ok()?);
    }
    Some(OmniPathMaps {
        sl2sc,
        sc2vl,
        sc2sl,
    })
}

/// The maps in words, e.g. `SL 0-14 -> SC/VL 0-14, SL 15-19 -> SC/VL 16-20`.
pub fn describe(classes: usize) -> String {
    let low = classes.min(usize::from(MANAGEMENT_LANE));
    let mut parts = Vec::new();
    if low > 0 {
        parts.push(if low == 1 {
            "SL 0 -> SC 0 -> VL 0".to_string()
        } else {
            format!("SL 0-{last} -> SC 0-{last} -> VL 0-{last}", last = low - 1)
        });
    }
    if classes > low {
        let (first, last) = (low, classes - 1);
        parts.push(if first == last {
            format!("SL {first} -> SC {} -> VL {}", first + 1, first + 1)
        } else {
            format!(
                "SL {first}-{last} -> SC {}-{} -> VL {}-{}",
                first + 1,
                last + 1,
                first + 1,
                last + 1
            )
        });
    }
    format!(
        "{} (SC2SL the inverse; SC 15 and VL 15 stay management)",
        parts.join(", ")
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    /// The spec's figure: a 48-port switch with 32 SLs has 1536 deficit counters and 48
    /// accumulators; the counts follow the port and SL counts.
    #[test]
    fn the_adaptation_counts_registers_per_output() {
        let l = dtable_layout(REFERENCE_PORTS, SLS, 64, 7, 31, 95);
        assert_eq!((l.switch_ports, l.sls), (48, 32));
        assert_eq!(
            (l.deficit_counters, l.accumulators, l.tables),
            (1536, 48, 48)
        );
        assert_eq!((l.deficit_counters_per_output, l.sls_used), (32, 7));
        assert_eq!((l.max_deficit_credits, l.max_accumulated_credits), (31, 95));
        let l = dtable_layout(24, 16, 32, 3, 0, 0);
        assert_eq!(
            (l.deficit_counters, l.accumulators, l.entries_per_table),
            (384, 24, 32)
        );
    }

    #[test]
    fn lanes_skip_the_management_lane() {
        assert_eq!(data_lane(0), Some(0));
        assert_eq!(data_lane(14), Some(14));
        assert_eq!(data_lane(15), Some(16));
        assert_eq!(data_lane(30), Some(31));
        assert_eq!(data_lane(31), None);
        for k in 0..DATA_LANES {
            assert_ne!(data_lane(k), Some(MANAGEMENT_LANE));
        }
    }

    #[test]
    fn maps_of_seven_classes_are_the_identity_on_their_lanes() {
        let m = maps(7).unwrap();
        for k in 0..7u8 {
            assert_eq!(m.sl2sc[usize::from(k)], Some(k));
            assert_eq!(m.sc2vl[usize::from(k)], Some(k));
            assert_eq!(m.sc2sl[usize::from(k)], Some(k));
        }
        assert!(m.sl2sc[7..].iter().all(Option::is_none));
        assert_eq!(m.sl2sc.len(), MAP_ENTRIES);
        assert_eq!(
            describe(7),
            "SL 0-6 -> SC 0-6 -> VL 0-6 (SC2SL the inverse; SC 15 and VL 15 stay management)"
        );
    }

    #[test]
    fn thirty_one_classes_use_every_data_lane_and_invert() {
        let m = maps(DATA_LANES).unwrap();
        assert_eq!(m.sl2sc[15], Some(16));
        assert_eq!(m.sl2sc[30], Some(31));
        assert_eq!(m.sl2sc[31], None);
        assert_eq!(m.sc2vl[15], None);
        assert_eq!(m.sc2sl[15], None);
        for (sl, sc) in m.sl2sc.iter().enumerate() {
            if let Some(sc) = sc {
                assert_eq!(m.sc2sl[usize::from(*sc)], Some(sl as u8));
                assert_eq!(m.sc2vl[usize::from(*sc)], Some(*sc));
            }
        }
        assert!(maps(DATA_LANES + 1).is_none());
        assert_eq!(
            describe(20),
            "SL 0-14 -> SC 0-14 -> VL 0-14, SL 15-19 -> SC 16-20 -> VL 16-20 (SC2SL the inverse; SC 15 and VL 15 stay management)"
        );
        assert_eq!(
            describe(16),
            "SL 0-14 -> SC 0-14 -> VL 0-14, SL 15 -> SC 16 -> VL 16 (SC2SL the inverse; SC 15 and VL 15 stay management)"
        );
    }
}
