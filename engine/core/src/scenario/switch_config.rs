//! The switch model of a network scenario (`model.switch`): the kinds, their parameters
//! and their rules (every path named `model.switch.<field>`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::rules::Problems;
use super::tagged::tagged_enum;
use crate::time::BitRate;

/// Largest crossbar speedup.
pub const MAX_SPEEDUP: f64 = 16.0;
/// Longest header crossing time, link latency or credit return delay, in ns (1 ms).
pub const MAX_DELAY_NS: u32 = 1_000_000;

/// The switch model.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SwitchConfig {
    /// Combined input-output queued switch (Advanced Switching style).
    Cioq(CioqConfig),
    /// The two-VC designs' switch: a FIFO per input and VC, VC 0 first, and crossbar
    /// arbitration by the packets' priority levels (or round robin, for the traditional
    /// designs).
    TwoVc(TwoVcConfig),
    /// The InfiniBand-like switch: buffers per port shared by the VLs, a pipeline of
    /// routing, VL allocation, switch allocation, crossbar and output buffer.
    Infiniband(InfinibandConfig),
    /// The Omni-Path-like hierarchical switch: MPorts of 4 ports with local crossbars,
    /// joined by a buffered central crossbar; SL2SC/SC2VL at routing, output scheduler by
    /// SL.
    Omnipath(Box<OmnipathSwitchConfig>),
}
tagged_enum!(SwitchConfig, "switch model", {
    "cioq" => Cioq(CioqConfig),
    "two_vc" => TwoVc(TwoVcConfig),
    "infiniband" => Infiniband(InfinibandConfig),
    "omnipath" => Omnipath(Box<OmnipathSwitchConfig>),
});

/// A combined input-output queued switch: input buffers with virtual output queues, a
/// crossbar with speedup and round-robin scheduling, output buffers and an output
/// scheduler per port.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct CioqConfig {
    /// Crossbar rate as a multiple of the link rate (1 to 16; 1.5 in the reference).
    pub speedup: f64,
    /// Time from a packet's header reaching an input to it being able to cross the
    /// crossbar (routing and arbitration), in ns (145 in the reference).
    pub header_crossing_ns: u32,
    /// Input buffer per port and class, in bytes (credits = bytes / 64).
    pub input_buffer_bytes: u32,
    /// Output buffer per port and class, in bytes.
    pub output_buffer_bytes: u32,
}

/// The two-VC designs' switch (`docs/modelling.md`): per input port and VC one FIFO
/// queue (head-of-line blocking inside a VC is part of the design), a crossbar with
/// speedup where a lower VC has absolute priority over a higher one and, inside a VC,
/// the competing heads are picked by `arbitration`; output buffers per port and VC
/// drained by the output scheduler (`switch_scheduler`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct TwoVcConfig {
    /// Crossbar rate as a multiple of the link rate (1 to 16; 2 in the reference:
    /// 250 MHz x 64 bit over 8 Gb/s links).
    pub speedup: f64,
    /// Time from a packet's header reaching an input to it being able to cross the
    /// crossbar (routing and arbitration), in ns.
    pub header_crossing_ns: u32,
    /// Input buffer per port and VC (lane), in bytes (credits = bytes / 64).
    pub input_buffer_bytes: u32,
    /// Output buffer per port and VC (lane), in bytes.
    pub output_buffer_bytes: u32,
    /// How the crossbar picks among the heads of one VC competing for an output.
    pub arbitration: VcArbitration,
}

/// How a two-VC switch's crossbar picks among the input heads of one VC that compete
/// for an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum VcArbitration {
    /// The head with the highest packet priority level; round robin among equals (the
    /// new designs).
    Priority,
    /// Round robin over the inputs, whatever the priority (the traditional designs).
    RoundRobin,
}

pub use super::infiniband_config::{InfinibandConfig, PortSl2Vl, StageCycles};
pub use super::omnipath_config::{CentralCycles, OmnipathSwitchConfig};

/// What every switch kind has: crossbar speed, header time and buffer sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwitchBasics {
    /// Crossbar speedup.
    pub speedup: f64,
    /// Header crossing time in ns.
    pub header_crossing_ns: u32,
    /// Input buffer per port and lane, in bytes.
    pub input_buffer_bytes: u32,
    /// Output buffer per port and lane, in bytes.
    pub output_buffer_bytes: u32,
    /// Whether the buffer sizes are per port (shared by the port's lanes) rather than
    /// per port and lane.
    pub per_port: bool,
}

impl SwitchBasics {
    /// A port's input buffer in bytes, for a port of `lanes` lanes.
    pub fn input_port_bytes(&self, lanes: u32) -> u64 {
        if self.per_port {
            u64::from(self.input_buffer_bytes)
        } else {
            u64::from(self.input_buffer_bytes) * u64::from(lanes)
        }
    }

    /// A port's input and output buffers together in bytes, for `lanes` lanes.
    pub fn port_bytes(&self, lanes: u32) -> u64 {
        let both = u64::from(self.input_buffer_bytes) + u64::from(self.output_buffer_bytes);
        if self.per_port {
            both
        } else {
            both * u64::from(lanes)
        }
    }
}

impl SwitchConfig {
    /// The scenario's `kind` string.
    pub fn kind(&self) -> &'static str {
        match self {
            SwitchConfig::Cioq(_) => "cioq",
            SwitchConfig::TwoVc(_) => "two_vc",
            SwitchConfig::Infiniband(_) => "infiniband",
            SwitchConfig::Omnipath(_) => "omnipath",
        }
    }

    /// The fields every switch kind has.
    pub fn basics(&self) -> SwitchBasics {
        let (speedup, header_crossing_ns, input_buffer_bytes, output_buffer_bytes) = match self {
            SwitchConfig::Infiniband(c) => {
                return SwitchBasics {
                    speedup: c.speedup,
                    // The header time follows from the stage cycles and the link rate
                    // (checked by `InfinibandConfig::validate`).
                    header_crossing_ns: 0,
                    input_buffer_bytes: c.input_buffer_bytes,
                    output_buffer_bytes: c.output_buffer_bytes,
                    per_port: true,
                };
            }
            SwitchConfig::Omnipath(c) => {
                return SwitchBasics {
                    speedup: c.speedup,
                    header_crossing_ns: 0,
                    input_buffer_bytes: c.input_buffer_bytes,
                    output_buffer_bytes: c.output_buffer_bytes,
                    per_port: true,
                };
            }
            SwitchConfig::Cioq(c) => (
                c.speedup,
                c.header_crossing_ns,
                c.input_buffer_bytes,
                c.output_buffer_bytes,
            ),
            SwitchConfig::TwoVc(c) => (
                c.speedup,
                c.header_crossing_ns,
                c.input_buffer_bytes,
                c.output_buffer_bytes,
            ),
        };
        SwitchBasics {
            speedup,
            header_crossing_ns,
            input_buffer_bytes,
            output_buffer_bytes,
            per_port: false,
        }
    }
}

/// Checks the switch's speedup (against the link rate `link`, when valid) and header
/// time; buffer sizes are checked with the interface's by the caller.
pub(super) fn validate_switch(sw: &SwitchBasics, link: Option<BitRate>, p: &mut Problems) {
    if !(sw.speedup.is_finite() && (1.0..=MAX_SPEEDUP).contains(&sw.speedup)) {
        p.add(
            "model.switch.speedup",
            format!(
                "must be a crossbar speedup from 1 to {MAX_SPEEDUP} times the link rate (got {})",
                sw.speedup
            ),
        );
    } else if let Some(l) = link {
        if BitRate::from_gbps(l.bits_per_s() as f64 / 1.0e9 * sw.speedup).is_none() {
            p.add(
                "model.switch.speedup",
                "times the link rate must stay at most 1000000 Gb/s",
            );
        }
    }
    if sw.header_crossing_ns > MAX_DELAY_NS {
        p.add(
            "model.switch.header_crossing_ns",
            format!(
                "must be at most {MAX_DELAY_NS} ns (got {})",
                sw.header_crossing_ns
            ),
        );
    }
}
