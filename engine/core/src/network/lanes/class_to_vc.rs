//! The two-VC designs' map: the interfaces' classes (one VC each at the interface) onto
//! a few switch VCs (two in the reference: QoS and best effort).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{LaneMap, MAX_MAP_LANES, MapError, check_table};

/// The class-to-VC table of `model.lanes.map` (kind `"class_to_vc"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct ClassToVcConfig {
    /// `vc[c]`: the switch VC of class `c` (0 to 31), one entry per class.
    pub vc: Vec<u8>,
}

/// A class-to-VC map.
#[derive(Clone, Debug)]
pub struct ClassToVc {
    vc: Vec<u16>,
    lanes: u16,
}

impl ClassToVc {
    /// The map of `config` for `sls` classes; the error names the entry at fault.
    pub fn new(config: &ClassToVcConfig, sls: u16) -> Result<ClassToVc, MapError> {
        check_table("vc", &config.vc, sls, MAX_MAP_LANES, "VC")?;
        let vc: Vec<u16> = config.vc[..usize::from(sls)]
            .iter()
            .map(|&v| u16::from(v))
            .collect();
        let lanes = vc.iter().max().map_or(1, |m| m + 1);
        Ok(ClassToVc { vc, lanes })
    }
}

impl LaneMap for ClassToVc {
    fn kind(&self) -> &'static str {
        "class_to_vc"
    }

    fn lanes(&self) -> u16 {
        self.lanes
    }

    fn lane(&self, sl: u16) -> u16 {
        self.vc[usize::from(sl)]
    }
}
