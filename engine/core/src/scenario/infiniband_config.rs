//! The InfiniBand-like switch's parameters (`model.switch` with `"kind": "infiniband"`),
//! with the reference model's values as defaults (`shared/spec/30-network.md`), and
//! their rules (every path named `model.switch.<field>`). The pipeline itself is
//! [`crate::network::switch::infiniband`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::rules::Problems;
use crate::network::lanes::CreditPolicyConfig;
use crate::network::lanes::sl2vl::DATA_VLS;

/// The reference buffer of a switch port (input and output alike): 114 688 B.
pub const REFERENCE_PORT_BUFFER_BYTES: u32 = 114_688;
/// Most cycles one pipeline stage may take.
pub const MAX_STAGE_CYCLES: u32 = 1_000;

/// The InfiniBand-like switch: per port one input and one output buffer, each shared by
/// the port's VLs under the network's credit policy (`model.lanes.credits`: a minimum
/// and a maximum per VL, or an equal share each); the pipeline's stage latencies in
/// cycles of one 64-byte flit on a link. Every field has the reference model's value as
/// its default, so `{"kind": "infiniband"}` is the reference switch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct InfinibandConfig {
    /// Crossbar rate as a multiple of the link rate (1 to 16; default 1: one flit per
    /// cycle, as the links).
    #[serde(default = "one")]
    #[ts(as = "Option<f64>", optional)]
    pub speedup: f64,
    /// Input buffer per port, shared by its VLs, in bytes (default 114 688).
    #[serde(default = "reference_buffer")]
    #[ts(as = "Option<u32>", optional)]
    pub input_buffer_bytes: u32,
    /// Output buffer per port, shared by its VLs, in bytes (default 114 688).
    #[serde(default = "reference_buffer")]
    #[ts(as = "Option<u32>", optional)]
    pub output_buffer_bytes: u32,
    /// Latency of each pipeline stage in cycles (default 1 each).
    #[serde(default)]
    #[ts(as = "Option<StageCycles>", optional)]
    pub cycles: StageCycles,
    /// SL2VL tables of particular output ports (the same local ports of every switch);
    /// every other port uses the network's lane map (`model.lanes.map`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<PortSl2Vl>>", optional)]
    pub output_sl2vl: Vec<PortSl2Vl>,
}

/// An SL2VL table for some output ports: the packets of SL `s` leave those ports on VL
/// `sl2vl[s]` (with a routing's lanes, VL `sl2vl[s]` of routing lane `r` is lane
/// `sl2vl[s] x R + r`, as with the lane map).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PortSl2Vl {
    /// Local output port numbers of every switch (0 to the switch's ports - 1).
    pub ports: Vec<u32>,
    /// `sl2vl[s]`: the VL of SL `s` on those ports, one entry per class, below the lane
    /// map's number of VLs (so below 15: VL 15 is management).
    pub sl2vl: Vec<u8>,
}

/// The crossbar speed and port buffers of a switch whose buffers are per port and
/// shared by its VLs (the InfiniBand- and Omni-Path-like switches), read from its
/// config's fields of the same names. (*Choice*: each config keeps its own fields
/// rather than a `#[serde(flatten)]`ed struct, because serde buffers flattened fields,
/// so a bad value there would be reported at `model.switch` instead of its field, and
/// an unknown field's message would lose the list of known ones.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PortBuffers {
    /// Crossbar rate as a multiple of the link rate.
    pub speedup: f64,
    /// Input buffer per port, shared by its VLs, in bytes.
    pub input_buffer_bytes: u32,
    /// Output buffer per port, shared by its VLs, in bytes.
    pub output_buffer_bytes: u32,
}

impl InfinibandConfig {
    /// Its crossbar speed and port buffers.
    pub fn port_buffers(&self) -> PortBuffers {
        PortBuffers {
            speedup: self.speedup,
            input_buffer_bytes: self.input_buffer_bytes,
            output_buffer_bytes: self.output_buffer_bytes,
        }
    }
}

impl Default for InfinibandConfig {
    fn default() -> Self {
        InfinibandConfig {
            speedup: 1.0,
            input_buffer_bytes: REFERENCE_PORT_BUFFER_BYTES,
            output_buffer_bytes: REFERENCE_PORT_BUFFER_BYTES,
            cycles: StageCycles::default(),
            output_sl2vl: Vec::new(),
        }
    }
}

/// Latency of each stage of the InfiniBand-like pipeline, in cycles (one cycle = the
/// time of one 64-byte flit on a link: 5.12 ns at 100 Gb/s). A packet through an idle
/// switch: its header is ready for the crossbar after the cycles of input buffer,
/// routing, VL allocation and switch allocation, counted from its arrival, and in its
/// output queue after those of crossbar and output buffer, counted from the start of its
/// crossbar transfer (`docs/modelling.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct StageCycles {
    /// Writing the header into the input buffer.
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub input_buffer: u32,
    /// The routing unit: destination lookup and SL2VL for the output port.
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub routing: u32,
    /// VL allocation at the input.
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub vl_allocation: u32,
    /// Switch allocation at the output.
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub switch_allocation: u32,
    /// Crossing the crossbar (the header flit).
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub crossbar: u32,
    /// Writing the header into the output buffer, where the output scheduler sees it.
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub output_buffer: u32,
}

impl Default for StageCycles {
    fn default() -> Self {
        StageCycles {
            input_buffer: 1,
            routing: 1,
            vl_allocation: 1,
            switch_allocation: 1,
            crossbar: 1,
            output_buffer: 1,
        }
    }
}

impl StageCycles {
    /// Cycles from a header's arrival at an input to its request for the crossbar.
    pub fn to_crossbar(&self) -> u64 {
        [
            self.input_buffer,
            self.routing,
            self.vl_allocation,
            self.switch_allocation,
        ]
        .iter()
        .map(|&c| u64::from(c))
        .sum()
    }

    /// Cycles from a crossbar grant to the header in the output queue.
    pub fn to_output_queue(&self) -> u64 {
        u64::from(self.crossbar) + u64::from(self.output_buffer)
    }

    /// The stages by field name.
    fn named(&self) -> [(&'static str, u32); 6] {
        [
            ("input_buffer", self.input_buffer),
            ("routing", self.routing),
            ("vl_allocation", self.vl_allocation),
            ("switch_allocation", self.switch_allocation),
            ("crossbar", self.crossbar),
            ("output_buffer", self.output_buffer),
        ]
    }
}

impl InfinibandConfig {
    /// The switch's own rules (speedup and buffer ranges are checked with every switch
    /// kind's): stage cycles in range, at most 15 data VLs per port (VL 15 is for
    /// management), and every VL able to hold the largest packet: its equal share of
    /// each buffer (credit policy per lane), or the minimums of a shared policy fitting
    /// the output buffer too.
    pub(super) fn validate(&self, net: &IbRulesInput, p: &mut Problems) {
        let IbRulesInput {
            map_lanes,
            classes,
            max_ports,
            ..
        } = *net;
        for (i, t) in self.output_sl2vl.iter().enumerate() {
            let at = format!("model.switch.output_sl2vl[{i}]");
            if let Some((k, port)) = t.ports.iter().enumerate().find(|(_, q)| **q >= max_ports) {
                p.add(
                    format!("{at}.ports[{k}]"),
                    format!(
                        "must be a switch port from 0 to {} (got {port})",
                        max_ports.saturating_sub(1)
                    ),
                );
            }
            let limit = map_lanes.clamp(1, DATA_VLS);
            if let Err(e) = crate::network::lanes::check_table(
                &format!("{at}.sl2vl"),
                &t.sl2vl,
                classes,
                limit,
                "VL of the lane map (model.lanes.map)",
            ) {
                p.add(e.field, e.message);
            }
        }
        self.cycles.validate("model.switch.cycles", p);
        validate_port_buffers(
            net,
            u32::from(DATA_VLS),
            "an InfiniBand switch port has at most 15 data VLs (VL 15 is for subnet management only)",
            &[
                ("input_buffer_bytes", self.input_buffer_bytes),
                ("output_buffer_bytes", self.output_buffer_bytes),
            ],
            p,
        );
    }
}

impl StageCycles {
    /// Every stage at most [`MAX_STAGE_CYCLES`], named under `at`.
    pub(super) fn validate(&self, at: &str, p: &mut Problems) {
        for (name, c) in self.named() {
            if c > MAX_STAGE_CYCLES {
                p.add(
                    format!("{at}.{name}"),
                    format!("must be at most {MAX_STAGE_CYCLES} cycles (got {c})"),
                );
            }
        }
    }
}

/// The rules of a switch whose buffers are shared by a port's VLs: at most `max_vls`
/// lanes per port (else `too_many`, and nothing more is checked), and every VL able to
/// hold the largest packet in each of `buffers` (`(field, bytes)` under `model.switch`):
/// its equal share (credit policy per lane), or the minimums of a shared policy fitting
/// (the input buffer's are checked with the lanes, `lanes_rules`).
pub(super) fn validate_port_buffers(
    net: &IbRulesInput,
    max_vls: u32,
    too_many: &str,
    buffers: &[(&str, u32)],
    p: &mut Problems,
) {
    let IbRulesInput {
        port_lanes,
        mtu,
        ref credits,
        ..
    } = *net;
    if port_lanes > max_vls {
        p.add(
            "model.lanes.map",
            format!(
                "{too_many}, but the lane map and the routing's lanes need {port_lanes}; map the classes onto fewer VLs"
            ),
        );
        return;
    }
    let lanes = port_lanes.max(1);
    for &(field, bytes) in buffers {
        if let CreditPolicyConfig::Shared(shared) = credits {
            if field == "input_buffer_bytes" {
                continue;
            }
            let reserved = u64::from(shared.min_bytes) * u64::from(lanes);
            if reserved > u64::from(bytes) {
                p.add(
                    "model.lanes.credits.min_bytes",
                    format!(
                        "times the {lanes} VLs must fit the switch's {} of {bytes} B (model.switch.{field}) (got {} B each)",
                        field.trim_end_matches("_bytes").replace('_', " "),
                        shared.min_bytes
                    ),
                );
            }
            continue;
        }
        let share = bytes / lanes;
        if share < mtu {
            p.add(
                format!("model.switch.{field}"),
                format!(
                    "divided among the port's {lanes} VLs must give each at least the largest packet ({mtu} B) (got {bytes} B, {share} B each)"
                ),
            );
        }
    }
}

/// What the switch's rules read of the network.
pub(super) struct IbRulesInput {
    /// Lanes per port (map lanes x routing lanes).
    pub port_lanes: u32,
    /// Lanes of the lane map.
    pub map_lanes: u16,
    /// Classes (SLs).
    pub classes: u16,
    /// The largest packet, in bytes.
    pub mtu: u32,
    /// The credit policy in effect.
    pub credits: CreditPolicyConfig,
    /// Ports of the largest switch (64 when the topology is refused).
    pub max_ports: u32,
}

impl InfinibandConfig {
    /// The queue-to-lane table of each output port of a switch of `ports` ports whose
    /// network uses `default` (queue `sl x R + r`, `routing_lanes` R): `output_sl2vl`'s
    /// table where it names the port (the last naming wins), else `default`.
    pub fn output_lane_tables(
        &self,
        ports: u32,
        routing_lanes: u16,
        default: &std::sync::Arc<[u16]>,
    ) -> Vec<std::sync::Arc<[u16]>> {
        let mut tables = vec![std::sync::Arc::clone(default); ports as usize];
        let r = routing_lanes.max(1);
        for t in &self.output_sl2vl {
            let table: std::sync::Arc<[u16]> = (0..default.len() as u16)
                .map(|q| {
                    let sl = usize::from(q / r);
                    let vl = t.sl2vl.get(sl).map_or(0, |&v| u16::from(v));
                    vl * r + q % r
                })
                .collect();
            for &port in &t.ports {
                if let Some(slot) = tables.get_mut(port as usize) {
                    *slot = std::sync::Arc::clone(&table);
                }
            }
        }
        tables
    }
}

fn one() -> f64 {
    1.0
}

fn one_cycle() -> u32 {
    1
}

fn reference_buffer() -> u32 {
    REFERENCE_PORT_BUFFER_BYTES
}
