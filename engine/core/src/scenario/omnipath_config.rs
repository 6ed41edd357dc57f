//! The Omni-Path-like switch's parameters (`model.switch` with `"kind": "omnipath"`),
//! with the reference model's values as defaults (`shared/spec/30-network.md`, switch
//! architecture 3; where the spec is silent, the choices of `docs/modelling.md`), and
//! their rules (every path named `model.switch.<field>`). The switch itself is
//! [`crate::network::switch::omnipath`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::infiniband_config::{
    IbRulesInput, MAX_STAGE_CYCLES, PortBuffers, REFERENCE_PORT_BUFFER_BYTES, StageCycles,
    validate_port_buffers,
};
use super::rules::Problems;

/// The reference central crossbar buffer per MPort: 229 376 B.
pub const REFERENCE_CENTRAL_BUFFER_BYTES: u32 = 229_376;
/// Ports per MPort.
pub const MPORT_PORTS: u32 = 4;
/// Links from each MPort's local crossbar into the central crossbar.
pub const MPORT_LINKS: u32 = 2;
/// Data VLs (and SCs) of an Omni-Path port: 0 to 31 but 15, which is management.
pub const OPA_DATA_VLS: u32 = 31;

/// The Omni-Path-like hierarchical switch: its ports in MPorts of 4, each with a local
/// crossbar (4 inputs, 6 outputs: its 4 output buffers and 2 links into the central
/// crossbar), a buffered central crossbar joining the MPorts; per port one input and one
/// output buffer shared by its VLs under the network's credit policy. Every field has
/// the reference model's value as its default, so `{"kind": "omnipath"}` is the
/// reference switch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct OmnipathSwitchConfig {
    /// Rate of the local crossbars, of their links into the central crossbar and of the
    /// central crossbar, as a multiple of the link rate (1 to 16; default 3: 3 flits
    /// per cycle).
    #[serde(default = "three")]
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
    /// The central crossbar's buffer per MPort, in bytes (default 229 376): half at each
    /// of the MPort's two links into it, shared by the VLs.
    #[serde(default = "reference_central")]
    #[ts(as = "Option<u32>", optional)]
    pub central_buffer_bytes: u32,
    /// Latency of each stage of an MPort in cycles (default 1 each): input buffer,
    /// routing (SL2SC/SC2VL), VL allocation, local switch allocation, local crossbar,
    /// output buffer.
    #[serde(default)]
    #[ts(as = "Option<StageCycles>", optional)]
    pub cycles: StageCycles,
    /// Latency of each stage of the central crossbar in cycles (default 1 each).
    #[serde(default)]
    #[ts(as = "Option<CentralCycles>", optional)]
    pub central_cycles: CentralCycles,
}

/// Latency of the central crossbar's stages, in cycles of one 64-byte flit on a link.
/// A packet to another MPort: after the local crossbar, its header is in the central
/// buffer, VL-allocated and switch-allocated after these three, and in its output
/// queue after the central crossbar's cycles and the MPort's output buffer's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct CentralCycles {
    /// Writing the header into the central buffer.
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub buffer: u32,
    /// VL allocation at the central buffer.
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub vl_allocation: u32,
    /// Switch allocation at the central crossbar's output.
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub switch_allocation: u32,
    /// Crossing the central crossbar (the header flit).
    #[serde(default = "one_cycle")]
    #[ts(as = "Option<u32>", optional)]
    pub crossbar: u32,
}

impl Default for CentralCycles {
    fn default() -> Self {
        CentralCycles {
            buffer: 1,
            vl_allocation: 1,
            switch_allocation: 1,
            crossbar: 1,
        }
    }
}

impl CentralCycles {
    /// Cycles from the local crossbar's grant of a packet bound for the central
    /// crossbar to its header's request for it (local crossbar, central buffer and the
    /// two allocations), given the local crossbar's `local_crossbar` cycles.
    pub fn to_central_request(&self, local_crossbar: u32) -> u64 {
        [
            local_crossbar,
            self.buffer,
            self.vl_allocation,
            self.switch_allocation,
        ]
        .iter()
        .map(|&c| u64::from(c))
        .sum()
    }

    fn named(&self) -> [(&'static str, u32); 4] {
        [
            ("buffer", self.buffer),
            ("vl_allocation", self.vl_allocation),
            ("switch_allocation", self.switch_allocation),
            ("crossbar", self.crossbar),
        ]
    }
}

impl Default for OmnipathSwitchConfig {
    fn default() -> Self {
        OmnipathSwitchConfig {
            speedup: 3.0,
            input_buffer_bytes: REFERENCE_PORT_BUFFER_BYTES,
            output_buffer_bytes: REFERENCE_PORT_BUFFER_BYTES,
            central_buffer_bytes: REFERENCE_CENTRAL_BUFFER_BYTES,
            cycles: StageCycles::default(),
            central_cycles: CentralCycles::default(),
        }
    }
}

impl OmnipathSwitchConfig {
    /// Its crossbar speed and port buffers.
    pub fn port_buffers(&self) -> PortBuffers {
        PortBuffers {
            speedup: self.speedup,
            input_buffer_bytes: self.input_buffer_bytes,
            output_buffer_bytes: self.output_buffer_bytes,
        }
    }

    /// Each of an MPort's central links' buffer, in bytes.
    pub fn central_link_bytes(&self) -> u32 {
        self.central_buffer_bytes / MPORT_LINKS
    }

    /// The switch's own rules (speedup and the port buffers' ranges are checked with
    /// every switch kind's): stage cycles in range, a central buffer within the buffer
    /// limits, at most 31 data VLs per port (VL 15 is management; the map's SCs are
    /// checked by the Omni-Path lane map), and every VL able to hold the largest packet
    /// in each buffer.
    pub(super) fn validate(&self, net: &IbRulesInput, p: &mut Problems) {
        self.cycles.validate("model.switch.cycles", p);
        for (name, c) in self.central_cycles.named() {
            if c > MAX_STAGE_CYCLES {
                p.add(
                    format!("model.switch.central_cycles.{name}"),
                    format!("must be at most {MAX_STAGE_CYCLES} cycles (got {c})"),
                );
            }
        }
        let limit = super::rules::MAX_BUFFER_BYTES;
        if !(128..=limit).contains(&self.central_buffer_bytes) {
            p.add(
                "model.switch.central_buffer_bytes",
                format!(
                    "must be between 128 (one credit per central link) and {limit} bytes (got {})",
                    self.central_buffer_bytes
                ),
            );
            return;
        }
        validate_port_buffers(
            net,
            OPA_DATA_VLS,
            "an Omni-Path switch port has at most 31 data VLs (VL 15 is for fabric management only)",
            &[
                ("input_buffer_bytes", self.input_buffer_bytes),
                ("output_buffer_bytes", self.output_buffer_bytes),
                ("central_buffer_bytes", self.central_link_bytes()),
            ],
            p,
        );
    }
}

fn three() -> f64 {
    3.0
}

fn one_cycle() -> u32 {
    1
}

fn reference_buffer() -> u32 {
    REFERENCE_PORT_BUFFER_BYTES
}

fn reference_central() -> u32 {
    REFERENCE_CENTRAL_BUFFER_BYTES
}
