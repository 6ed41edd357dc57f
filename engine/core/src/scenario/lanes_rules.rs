//! Validation of a network's lanes (`model.lanes`): the lane map's tables (checked by
//! building the map, which names the entry at fault), the credit policy's limits, and
//! what the lanes cost (queues per port, buffer space).

use super::rules::Problems;
use crate::network::CREDIT_BYTES;
use crate::network::lanes::{self, CreditPolicyConfig, LaneMapConfig};
use crate::network::routing::RoutingConfig;

/// What the lane rules read of a network model.
pub(super) struct LanesInput {
    /// Classes (SLs).
    pub classes: usize,
    /// The routing in effect.
    pub routing: RoutingConfig,
    /// The lane map in effect.
    pub map: LaneMapConfig,
    /// The credit policy in effect.
    pub credits: CreditPolicyConfig,
    /// The switch's buffer sizes.
    pub switch: super::switch_config::SwitchBasics,
    /// The largest packet of any class, in bytes.
    pub mtu: u32,
}

/// Most output queues per switch port (SLs x routing lanes): the CIOQ crossbar keeps
/// them in a 64-bit mask.
pub const MAX_PORT_QUEUES: usize = 64;

/// Lanes per port of a valid network (map lanes x routing lanes), or None when the map
/// is refused (the problem is added).
pub(super) fn validate_lanes(net: &LanesInput, p: &mut Problems) -> Option<u32> {
    let (classes, mtu) = (net.classes, net.mtu);
    let routing_lanes = net.routing.lanes();
    if classes * routing_lanes as usize > MAX_PORT_QUEUES {
        p.add(
            "model.classes",
            format!(
                "with {routing_lanes} lanes per class (routing \"{}\") a switch port keeps {} queues, more than {MAX_PORT_QUEUES}; use at most {} classes",
                net.routing.kind_name(),
                classes * routing_lanes as usize,
                MAX_PORT_QUEUES / routing_lanes as usize
            ),
        );
    }
    let sls = classes.min(usize::from(u16::MAX)) as u16;
    let map = match lanes::build_map(&net.map, sls) {
        Ok(m) => m,
        Err(e) => {
            p.add(format!("model.lanes.map.{}", e.field), e.message);
            return None;
        }
    };
    let port_lanes = u32::from(map.lanes()) * routing_lanes;
    let CreditPolicyConfig::Shared(shared) = net.credits else {
        return Some(port_lanes);
    };
    let total = net.switch.input_port_bytes(port_lanes);
    let port_buffer = if net.switch.per_port {
        "model.switch.input_buffer_bytes".to_string()
    } else {
        format!("{port_lanes} lanes x model.switch.input_buffer_bytes")
    };
    let at = "model.lanes.credits";
    if shared.min_bytes < mtu.max(CREDIT_BYTES) {
        p.add(
            format!("{at}.min_bytes"),
            format!(
                "must reserve at least the largest packet ({} B) for every lane, so that each lane can always take a packet (got {})",
                mtu.max(CREDIT_BYTES),
                shared.min_bytes
            ),
        );
    }
    if shared.max_bytes < shared.min_bytes {
        p.add(
            format!("{at}.max_bytes"),
            format!(
                "must be at least min_bytes ({}) (got {})",
                shared.min_bytes, shared.max_bytes
            ),
        );
    } else if u64::from(shared.max_bytes) > total {
        p.add(
            format!("{at}.max_bytes"),
            format!(
                "must be at most the port's buffer, {total} B ({port_buffer}) (got {})",
                shared.max_bytes
            ),
        );
    }
    if u64::from(shared.min_bytes) * u64::from(port_lanes) > total {
        p.add(
            format!("{at}.min_bytes"),
            format!(
                "times the {port_lanes} lanes must fit the port's buffer of {total} B (got {} B each)",
                shared.min_bytes
            ),
        );
    }
    Some(port_lanes)
}
