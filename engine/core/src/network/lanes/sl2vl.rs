//! InfiniBand's SL2VL table: the virtual lane (VL) of every SL. Data VLs are 0 to 14
//! (VL 15 carries only subnet management, so the table may not name it).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{LaneMap, MapError, check_table};

/// Highest data VL plus one (VL 15 is management).
pub const DATA_VLS: u16 = 15;

/// The SL2VL table of `model.lanes.map` (kind `"sl2vl"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct Sl2VlConfig {
    /// `sl2vl[s]`: the VL of SL `s` (0 to 14), one entry per class.
    pub sl2vl: Vec<u8>,
}

/// An SL2VL map.
#[derive(Clone, Debug)]
pub struct Sl2Vl {
    vl: Vec<u16>,
    lanes: u16,
}

impl Sl2Vl {
    /// The map of `config` for `sls` SLs; the error names the entry at fault.
    pub fn new(config: &Sl2VlConfig, sls: u16) -> Result<Sl2Vl, MapError> {
        if let Some(i) = config.sl2vl.iter().position(|&v| u16::from(v) == DATA_VLS) {
            return Err(MapError::new(
                format!("sl2vl[{i}]"),
                format!(
                    "must be a data VL from 0 to {}: VL {DATA_VLS} carries subnet management only, never data (got {DATA_VLS})",
                    DATA_VLS - 1
                ),
            ));
        }
        check_table("sl2vl", &config.sl2vl, sls, DATA_VLS, "data VL")?;
        let vl: Vec<u16> = config.sl2vl[..usize::from(sls)]
            .iter()
            .map(|&v| u16::from(v))
            .collect();
        let lanes = vl.iter().max().map_or(1, |m| m + 1);
        Ok(Sl2Vl { vl, lanes })
    }
}

impl LaneMap for Sl2Vl {
    fn kind(&self) -> &'static str {
        "sl2vl"
    }

    fn lanes(&self) -> u16 {
        self.lanes
    }

    fn lane(&self, sl: u16) -> u16 {
        self.vl[usize::from(sl)]
    }
}
