//! The sizes and timing a switch with per-port buffers shared by its VLs (the
//! InfiniBand- and Omni-Path-like switches) derives the same way from its
//! [`PortBuffers`] and the network: crossbar rate, cycle, credits of each buffer, and
//! the [`super::super::SwitchModel`] accessors that report them
//! ([`shared_port_accessors`]).

use super::lane_limit;
use crate::error::EngineError;
use crate::network::CREDIT_BYTES;
use crate::network::switch::SwitchSetup;
use crate::scenario::PortBuffers;
use crate::time::{BitRate, Duration};

/// A shared-buffer switch's derived sizes and times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SharedPorts {
    /// Crossbar rate: speedup times the link rate.
    pub rate: BitRate,
    /// One cycle: a 64-byte flit on a link.
    pub cycle: Duration,
    /// Header arrival to crossbar request.
    pub header_delay: Duration,
    /// Lanes per port (at least 1).
    pub lanes: u16,
    /// Credits of each input port's buffer.
    pub input_total: u32,
    /// Credits per lane of an input buffer (its equal share).
    pub input_lane: u32,
    /// Credits of each output port's buffer.
    pub output_total: u32,
    /// Most credits one lane of an output buffer may hold.
    pub output_lane: u32,
}

impl SharedPorts {
    /// The sizes of `buffers` on `setup`'s network, with headers requesting the crossbar
    /// `header_cycles` cycles after their arrival.
    pub fn new(
        buffers: PortBuffers,
        setup: &SwitchSetup,
        header_cycles: u64,
    ) -> Result<SharedPorts, EngineError> {
        let rate = BitRate::from_gbps(setup.link_gbps * buffers.speedup).ok_or_else(|| {
            EngineError::invalid(
                "model.switch.speedup",
                "times the link rate must be a rate in Gb/s",
            )
        })?;
        let cycle = setup.link.transmission_time(u64::from(CREDIT_BYTES));
        let lanes = setup.lanes.max(1);
        let input_total = buffers.input_buffer_bytes / CREDIT_BYTES;
        let output_total = buffers.output_buffer_bytes / CREDIT_BYTES;
        Ok(SharedPorts {
            rate,
            cycle,
            header_delay: Duration(cycle.as_ps() * header_cycles),
            lanes,
            input_total,
            input_lane: input_total / u32::from(lanes),
            output_total,
            output_lane: lane_limit(&setup.credits, lanes, output_total),
        })
    }

    /// `n` cycles.
    pub fn cycles(&self, n: u64) -> Duration {
        Duration(self.cycle.as_ps() * n)
    }
}

/// The [`super::super::SwitchModel`] methods `header_delay`, `input_credits`,
/// `input_port_credits` and `output_credits` of a switch whose [`SharedPorts`] is its
/// field `$ports` (written inside its `impl SwitchModel`).
macro_rules! shared_port_accessors {
    ($ports:ident) => {
        fn header_delay(&self) -> $crate::time::Duration {
            self.$ports.header_delay
        }

        fn input_credits(&self) -> u32 {
            self.$ports.input_lane
        }

        fn input_port_credits(&self, _lanes: u16) -> u32 {
            self.$ports.input_total
        }

        fn output_credits(&self) -> u32 {
            self.$ports.output_lane
        }
    };
}
pub(crate) use shared_port_accessors;
