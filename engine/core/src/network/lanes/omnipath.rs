//! Omni-Path's three maps: SL2SC at the source gives the packet's service channel (SC),
//! SC2VL gives the buffer (VL) at every port, and SC2SL gives the destination the SL
//! back. SCs are 0 to 31 except SC 15 (management); VLs 0 to 30 (VL 15 is management
//! too, so data VLs skip it only by the fabric manager's convention: the table may name
//! any VL below 31 except 15).
//!
//! Every device of the network uses the same three tables; a packet keeps its SC end to
//! end (the deadlock-avoidance change of SC on a torus is the routing's dateline lane,
//! which gives the packet a separate buffer the same way).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{LaneMap, MapError, check_table};

/// SCs (and VLs) an Omni-Path device has; number 15 of each is management.
pub const CHANNELS: u16 = 32;
/// The management SC and VL.
pub const MANAGEMENT: u8 = 15;

/// The maps of `model.lanes.map` (kind `"omnipath"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct OmniPathConfig {
    /// `sl2sc[s]`: the SC of SL `s` (0 to 31, not 15), one entry per class.
    pub sl2sc: Vec<u8>,
    /// `sc2vl[c]`: the VL of SC `c` (0 to 30, not 15); at least up to the highest SC used.
    pub sc2vl: Vec<u8>,
    /// `sc2sl[c]`: the SL a destination reads from SC `c`; must give back each class's SL.
    pub sc2sl: Vec<u8>,
}

/// The Omni-Path maps.
#[derive(Clone, Debug)]
pub struct OmniPath {
    /// Per SL, its SC.
    sc: Vec<u16>,
    /// Per SL, the VL of its SC.
    vl: Vec<u16>,
    /// Per SL, the SL its SC maps back to.
    back: Vec<u16>,
    lanes: u16,
}

impl OmniPath {
    /// The maps of `config` for `sls` SLs; the error names the entry at fault.
    pub fn new(config: &OmniPathConfig, sls: u16) -> Result<OmniPath, MapError> {
        check_table("sl2sc", &config.sl2sc, sls, CHANNELS, "service channel")?;
        let sc: Vec<u16> = config.sl2sc[..usize::from(sls)]
            .iter()
            .map(|&c| u16::from(c))
            .collect();
        if let Some(s) = sc.iter().position(|&c| c == u16::from(MANAGEMENT)) {
            return Err(MapError::new(
                format!("sl2sc[{s}]"),
                "must not be SC 15, which carries only fabric management",
            ));
        }
        let needed = sc.iter().max().map_or(0, |m| usize::from(*m) + 1);
        for (field, table) in [("sc2vl", &config.sc2vl), ("sc2sl", &config.sc2sl)] {
            if table.len() < needed {
                return Err(MapError::new(
                    field,
                    format!(
                        "must give an entry for every SC up to {} (the highest SC of sl2sc), got {}",
                        needed - 1,
                        table.len()
                    ),
                ));
            }
            if table.len() > usize::from(CHANNELS) {
                return Err(MapError::new(
                    field,
                    format!("must have at most {CHANNELS} entries (got {})", table.len()),
                ));
            }
        }
        let mut vl = Vec::with_capacity(sc.len());
        let mut back = Vec::with_capacity(sc.len());
        for (s, &c) in sc.iter().enumerate() {
            let v = config.sc2vl[usize::from(c)];
            if u16::from(v) >= CHANNELS - 1 || v == MANAGEMENT {
                return Err(MapError::new(
                    format!("sc2vl[{c}]"),
                    format!(
                        "must be a data VL from 0 to 30 other than 15 (got {v}; SL {s} uses SC {c})"
                    ),
                ));
            }
            let b = config.sc2sl[usize::from(c)];
            if usize::from(b) != s {
                return Err(MapError::new(
                    format!("sc2sl[{c}]"),
                    format!(
                        "must map SC {c} back to SL {s}, whose SC it is (got {b}): the destination would count its packets under another class"
                    ),
                ));
            }
            vl.push(u16::from(v));
            back.push(u16::from(b));
        }
        let lanes = vl.iter().max().map_or(1, |m| m + 1);
        Ok(OmniPath {
            sc,
            vl,
            back,
            lanes,
        })
    }

    /// The SC of SL `sl`.
    pub fn sc(&self, sl: u16) -> u16 {
        self.sc[usize::from(sl)]
    }
}

impl LaneMap for OmniPath {
    fn kind(&self) -> &'static str {
        "omnipath"
    }

    fn lanes(&self) -> u16 {
        self.lanes
    }

    fn lane(&self, sl: u16) -> u16 {
        self.vl[usize::from(sl)]
    }

    fn delivered_sl(&self, sl: u16) -> u16 {
        self.back[usize::from(sl)]
    }
}
