//! Service levels, lanes and lane maps.
//!
//! A packet carries its **SL** (service level: the scenario's class, end to end, and the
//! index of the statistics) and the **lane** it occupies on the link it last crossed
//! (InfiniBand's VL, Omni-Path's VL, a two-VC switch's VC). Buffers and credits exist per
//! lane; output queues and the output schedulers work per SL. Two things decide a lane:
//! - the **lane map** (`model.lanes.map`, one [`LaneMap`] per file here): SL to the lane
//!   of the map (identity; InfiniBand SL2VL; Omni-Path SL2SC then SC2VL, checked back by
//!   SC2SL at the destination; the two-VC designs' class-to-VC map), the same at every
//!   output port of the network;
//! - the **routing lane** `r` below [`crate::network::routing::Router::lanes`] (a
//!   torus's dateline lane; 0 for every other routing), chosen hop by hop.
//!
//! With `R` routing lanes, a port has `map.lanes() * R` lanes and `SLs * R` output
//! queues: queue `sl * R + r` holds the packets of SL `sl` on routing lane `r`, which
//! use credits of lane `map.lane(sl) * R + r`. So SLs that a map sends to one lane share
//! its credits (buffer space) but keep their own queues, and the dateline lanes of one SL
//! never share credits (the deadlock-freedom argument of the dimension-order routing needs
//! that). [`Lanes`] holds this arithmetic for the fabric.
//!
//! How the credits of a switch input buffer are split among its lanes is the **credit
//! policy** ([`credits`]): each lane its own share, or one buffer shared with a minimum
//! and a maximum per lane (`model.lanes.credits`).
//!
//! Adding a lane map: a new file here implementing [`LaneMap`], a variant of
//! [`LaneMapConfig`] (with its `tagged_enum!` line), and one line in [`build_map`].

mod class_to_vc;
pub mod credits;
mod identity;
mod omnipath;
pub mod sl2vl;

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use class_to_vc::{ClassToVc, ClassToVcConfig};
pub use credits::{CreditPolicyConfig, LaneCredits};
pub use identity::Identity;
pub use omnipath::{OmniPath, OmniPathConfig};
pub use sl2vl::{Sl2Vl, Sl2VlConfig};

use crate::scenario::tagged::tagged_enum;

/// Most lanes a lane map may use per link (Omni-Path has 32 VLs at most).
pub const MAX_MAP_LANES: u16 = 32;

/// A lane map: the lane every SL uses on every link (see the module documentation).
pub trait LaneMap: std::fmt::Debug + Send + Sync {
    /// The map's kind name, as in the scenario.
    fn kind(&self) -> &'static str;
    /// Lanes per link the map uses (one more than the highest lane it gives).
    fn lanes(&self) -> u16;
    /// The lane of SL `sl`.
    fn lane(&self, sl: u16) -> u16;
    /// The SL a destination reads back from what a packet of SL `sl` carries (Omni-Path's
    /// SC2SL of its SC); the fabric counts a delivery whose answer is not `sl` as a
    /// breach. Maps that carry the SL itself answer `sl`.
    fn delivered_sl(&self, sl: u16) -> u16 {
        sl
    }
}

/// The lane map of a network, as a scenario names it (`model.lanes.map`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LaneMapConfig {
    /// Every SL has its own lane (lane = SL); the default.
    Identity,
    /// InfiniBand: a lane (VL) per SL from an SL2VL table.
    Sl2vl(Sl2VlConfig),
    /// Omni-Path: SL2SC at the source, SC2VL for the buffers, SC2SL at the destination.
    Omnipath(OmniPathConfig),
    /// The two-VC designs: each class (SL) onto one of a few VCs.
    ClassToVc(ClassToVcConfig),
}
tagged_enum!(LaneMapConfig, "lane map", {
    "identity" => Identity,
    "sl2vl" => Sl2vl(Sl2VlConfig),
    "omnipath" => Omnipath(OmniPathConfig),
    "class_to_vc" => ClassToVc(ClassToVcConfig),
});

/// Lanes of a network (`model.lanes`, optional: identity map, a credit share per lane).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct LanesConfig {
    /// SL to lane (absent: identity).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub map: Option<LaneMapConfig>,
    /// How a switch input buffer's credits are split among its lanes (absent: per lane).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub credits: Option<CreditPolicyConfig>,
}

/// A lane map's table refused, with the field at fault (relative to `model.lanes.map`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    /// Field path below `model.lanes.map`, e.g. `sl2vl[3]`.
    pub field: String,
    /// The rule broken.
    pub message: String,
}

impl MapError {
    pub(crate) fn new(field: impl Into<String>, message: impl Into<String>) -> MapError {
        MapError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Builds the lane map for `sls` SLs (one line per map).
pub fn build_map(config: &LaneMapConfig, sls: u16) -> Result<Box<dyn LaneMap>, MapError> {
    Ok(match config {
        LaneMapConfig::Identity => Box::new(Identity::new(sls)),
        LaneMapConfig::Sl2vl(c) => Box::new(Sl2Vl::new(c, sls)?),
        LaneMapConfig::Omnipath(c) => Box::new(OmniPath::new(c, sls)?),
        LaneMapConfig::ClassToVc(c) => Box::new(ClassToVc::new(c, sls)?),
    })
}

/// Checks that a table gives every one of `sls` SLs an entry below `limit`; the error
/// names `field[i]`.
pub(crate) fn check_table(
    field: &str,
    table: &[u8],
    sls: u16,
    limit: u16,
    what: &str,
) -> Result<(), MapError> {
    if table.len() < usize::from(sls) {
        return Err(MapError::new(
            field,
            format!(
                "must give an entry for each of the {sls} classes (SLs) (got {})",
                table.len()
            ),
        ));
    }
    if let Some((i, v)) = table
        .iter()
        .enumerate()
        .find(|(_, v)| u16::from(**v) >= limit)
    {
        return Err(MapError::new(
            format!("{field}[{i}]"),
            format!("must be a {what} from 0 to {} (got {v})", limit - 1),
        ));
    }
    Ok(())
}

/// The lane arithmetic of one network: how many lanes and queues its ports have, and
/// which lane each queue's packets use (see the module documentation).
#[derive(Clone, Debug)]
pub struct Lanes {
    sls: u16,
    routing_lanes: u16,
    port_lanes: u16,
    map: Arc<dyn LaneMap>,
    /// Per output queue `sl * R + r`, its lane `map.lane(sl) * R + r`.
    lane_of_queue: Arc<[u16]>,
}

impl Lanes {
    /// The lanes of a network of `sls` SLs with `routing_lanes` routing lanes and `map`.
    pub fn new(map: Box<dyn LaneMap>, sls: u16, routing_lanes: u16) -> Lanes {
        let r = routing_lanes.max(1);
        let lane_of_queue = (0..sls)
            .flat_map(|sl| (0..r).map(move |k| (sl, k)))
            .map(|(sl, k)| map.lane(sl) * r + k)
            .collect();
        Lanes {
            sls,
            routing_lanes: r,
            port_lanes: map.lanes() * r,
            map: Arc::from(map),
            lane_of_queue,
        }
    }

    /// SLs (classes) of the network.
    pub fn sls(&self) -> u16 {
        self.sls
    }

    /// Routing lanes per map lane (`R`).
    pub fn routing_lanes(&self) -> u16 {
        self.routing_lanes
    }

    /// Lanes (credit pools) per port.
    pub fn port_lanes(&self) -> u16 {
        self.port_lanes
    }

    /// Output queues per port (`SLs * R`).
    pub fn queues(&self) -> u16 {
        self.sls * self.routing_lanes
    }

    /// The output queue of SL `sl` on routing lane `r`.
    pub fn queue(&self, sl: u16, r: u8) -> u16 {
        sl * self.routing_lanes + u16::from(r)
    }

    /// The lane the packets of output queue `queue` use.
    pub fn lane_of_queue(&self, queue: u16) -> u16 {
        self.lane_of_queue[usize::from(queue)]
    }

    /// The whole queue-to-lane table (shared by every port and switch).
    pub fn lane_table(&self) -> Arc<[u16]> {
        Arc::clone(&self.lane_of_queue)
    }

    /// The map.
    pub fn map(&self) -> &dyn LaneMap {
        self.map.as_ref()
    }
}

#[cfg(test)]
mod tests;
