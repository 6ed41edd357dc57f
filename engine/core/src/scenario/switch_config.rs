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

pub use super::infiniband_config::{InfinibandConfig, PortBuffers, PortSl2Vl, StageCycles};
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
        match self {
            SwitchConfig::Cioq(c) => c.basics(),
            SwitchConfig::TwoVc(c) => c.basics(),
            SwitchConfig::Infiniband(c) => c.port_buffers().basics(),
            SwitchConfig::Omnipath(c) => c.port_buffers().basics(),
        }
    }
}

impl CioqConfig {
    /// The fields every switch kind has (buffers per port and lane).
    pub fn basics(&self) -> SwitchBasics {
        SwitchBasics {
            speedup: self.speedup,
            header_crossing_ns: self.header_crossing_ns,
            input_buffer_bytes: self.input_buffer_bytes,
            output_buffer_bytes: self.output_buffer_bytes,
            per_port: false,
        }
    }
}

impl TwoVcConfig {
    /// The fields every switch kind has (buffers per port and lane).
    pub fn basics(&self) -> SwitchBasics {
        SwitchBasics {
            speedup: self.speedup,
            header_crossing_ns: self.header_crossing_ns,
            input_buffer_bytes: self.input_buffer_bytes,
            output_buffer_bytes: self.output_buffer_bytes,
            per_port: false,
        }
    }
}

impl PortBuffers {
    /// The fields every switch kind has: buffers per port, shared by its lanes; no
    /// header time in ns (it follows from the stage cycles and the link rate, checked
    /// by the switch's own rules).
    pub fn basics(&self) -> SwitchBasics {
        SwitchBasics {
            speedup: self.speedup,
            header_crossing_ns: 0,
            input_buffer_bytes: self.input_buffer_bytes,
            output_buffer_bytes: self.output_buffer_bytes,
            per_port: true,
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]
    use crate::EngineError;
    use serde_json::{Value, json};

    /// Every problem (path, message) of a network scenario whose switch is `switch`.
    fn problems(switch: Value) -> Vec<(String, String)> {
        let mut d: Value =
            serde_json::from_str(include_str!("../../tests/data/network-r2.json")).unwrap();
        d["model"]["switch"] = switch;
        match crate::Run::from_json(&d.to_string()) {
            Err(EngineError::Invalid { errors }) => {
                errors.into_iter().map(|e| (e.path, e.message)).collect()
            }
            Err(e) => panic!("{e:?}"),
            Ok(_) => Vec::new(),
        }
    }

    /// A bad value of a field shared by the two switches with per-port buffers is named
    /// at that field, with serde's message or the rule, and an unknown field lists the
    /// known ones (pinned when their fields got a common reader, `PortBuffers`).
    #[test]
    fn shared_buffer_fields_name_the_field() {
        let too_small = |f: &str| {
            vec![
                (
                    format!("model.switch.{f}"),
                    "divided among the port's 7 VLs must give each at least the largest packet (2048 B) (got 1024 B, 146 B each)".to_string(),
                ),
                (
                    format!("model.switch.{f}"),
                    "must hold at least one packet of every class: class \"VI\" sends up to 2048 B but the buffer has 1024 B".to_string(),
                ),
                (
                    format!("model.switch.{f}"),
                    "must hold at least one packet of every class: class \"CL\" sends up to 2048 B but the buffer has 1024 B".to_string(),
                ),
            ]
        };
        let one = |f: &str, m: &str| vec![(format!("model.switch.{f}"), m.to_string())];
        for (kind, known) in [
            (
                "infiniband",
                "`speedup`, `input_buffer_bytes`, `output_buffer_bytes`, `cycles`, `output_sl2vl`",
            ),
            (
                "omnipath",
                "`speedup`, `input_buffer_bytes`, `output_buffer_bytes`, `central_buffer_bytes`, `cycles`, `central_cycles`",
            ),
        ] {
            let cases = [
                (
                    "speedup",
                    json!("fast"),
                    one("speedup", "invalid type: string \"fast\", expected f64"),
                ),
                (
                    "speedup",
                    json!(0.5),
                    one(
                        "speedup",
                        "must be a crossbar speedup from 1 to 16 times the link rate (got 0.5)",
                    ),
                ),
                (
                    "input_buffer_bytes",
                    json!("x"),
                    one(
                        "input_buffer_bytes",
                        "invalid type: string \"x\", expected u32",
                    ),
                ),
                (
                    "input_buffer_bytes",
                    json!(-1),
                    one(
                        "input_buffer_bytes",
                        "invalid value: integer `-1`, expected u32",
                    ),
                ),
                (
                    "input_buffer_bytes",
                    json!(1024),
                    too_small("input_buffer_bytes"),
                ),
                (
                    "output_buffer_bytes",
                    json!(1.5),
                    one(
                        "output_buffer_bytes",
                        "invalid type: floating point `1.5`, expected u32",
                    ),
                ),
                (
                    "output_buffer_bytes",
                    json!(1024),
                    too_small("output_buffer_bytes"),
                ),
                (
                    "bogus",
                    json!(1),
                    one(
                        "bogus",
                        &format!("is not a known field here (expected one of {known})"),
                    ),
                ),
            ];
            for (field, value, expected) in cases {
                let mut s = json!({"kind": kind});
                s[field] = value;
                assert_eq!(problems(s), expected, "{kind} {field}");
            }
        }
    }
}
