//! The timing the CIOQ and two-VC switches wrap around their crossbars the same way
//! (`docs/modelling.md`): a header may cross `header_crossing_ns` after it arrived; a
//! granted packet joins its output queue at once (cut-through) and its transfer ends at
//! `max(now + size / (speedup x link rate), tail)`, when its input space (and the
//! credits upstream) is freed; buffers are sized per port and lane.

use super::super::{SwitchAction, SwitchContext, SwitchSetup, SwitchTimer};
use crate::error::EngineError;
use crate::network::CREDIT_BYTES;
use crate::scenario::SwitchBasics;
use crate::time::{BitRate, Duration, PS_PER_NS, PS_PER_S};

/// A crossbar's rate, header time and buffer credits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrossbarTiming {
    /// Crossbar rate: speedup times the link rate.
    rate: BitRate,
    /// Picoseconds per byte at `rate` when that is a whole number (2 Gb/s: 4 000), else
    /// 0: a transfer's length is then a product, the same as the rounded-up quotient
    /// `rate.transmission_time` works out with a division per packet.
    ps_per_byte: u64,
    /// Header arrival to crossing.
    pub header_crossing: Duration,
    /// Credits per lane of each input buffer.
    pub input_credits: u32,
    /// Credits per lane of each output buffer.
    pub output_credits: u32,
}

/// A transfer the crossbar granted: from `input` (where the packet occupies `in_lane`)
/// to queue `queue` of `output`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Granted {
    /// Input port.
    pub input: u32,
    /// Lane of the input buffer the packet leaves.
    pub in_lane: u16,
    /// Output port.
    pub output: u32,
    /// Output queue.
    pub queue: u16,
    /// Packet handle.
    pub packet: u32,
}

impl CrossbarTiming {
    /// The timing of a crossbar of `speedup` on `setup`'s links, headers crossing after
    /// `header_crossing_ns`, buffers of the given bytes per port and lane.
    pub fn new(setup: &SwitchSetup, basics: SwitchBasics) -> Result<CrossbarTiming, EngineError> {
        let SwitchBasics {
            speedup,
            header_crossing_ns,
            input_buffer_bytes,
            output_buffer_bytes,
            ..
        } = basics;
        let rate = BitRate::from_gbps(setup.link_gbps * speedup).ok_or_else(|| {
            EngineError::invalid(
                "model.switch.speedup",
                "times the link rate must be a rate in Gb/s",
            )
        })?;
        Ok(CrossbarTiming {
            rate,
            ps_per_byte: whole_ps_per_byte(rate),
            header_crossing: Duration(u64::from(header_crossing_ns) * PS_PER_NS),
            input_credits: input_buffer_bytes / CREDIT_BYTES,
            output_credits: output_buffer_bytes / CREDIT_BYTES,
        })
    }

    /// Starts granted transfer `g`: its end (the packet's new tail) is `max(now + size /
    /// rate, tail)`, when the switch is woken with the [`Transfer`]; the packet joins its
    /// output queue now.
    pub fn start(&self, cx: &mut SwitchContext, g: Granted) {
        let packet = cx.pool.get_mut(g.packet);
        let end = (cx.now + self.transfer_time(packet.bytes)).max(packet.tail);
        packet.tail = end;
        let timer = Transfer {
            input: g.input as u16,
            output: g.output as u16,
            in_lane: g.in_lane,
            credits: packet.credits as u16,
        };
        cx.actions.push(SwitchAction::Wake {
            at: end,
            timer: timer.encode(),
        });
        cx.actions.push(SwitchAction::Enqueue {
            output: g.output,
            queue: g.queue,
            packet: g.packet,
        });
    }

    /// The time `bytes` take across the crossbar: `rate.transmission_time(bytes)`.
    #[inline]
    fn transfer_time(&self, bytes: u32) -> Duration {
        let bytes = u64::from(bytes);
        // Below the bound, `bytes * 8 * PS_PER_S` fits in 64 bits, so the product
        // (that over `bits_per_s`, which divides it exactly) does too.
        if self.ps_per_byte != 0 && bytes <= u64::MAX / (8 * PS_PER_S) {
            return Duration(bytes * self.ps_per_byte);
        }
        self.rate.transmission_time(bytes)
    }

    /// The transfer of `timer` has ended: its input space is released (upstream gets
    /// the credits); answers its input and output ports, free again.
    pub fn ended(cx: &mut SwitchContext, timer: SwitchTimer) -> (u32, u32) {
        let t = Transfer::decode(timer);
        cx.actions.push(SwitchAction::ReleaseInput {
            input: u32::from(t.input),
            lane: t.in_lane,
            credits: u32::from(t.credits),
        });
        (u32::from(t.input), u32::from(t.output))
    }
}

/// Picoseconds per byte at `rate` if a whole number, else 0.
fn whole_ps_per_byte(rate: BitRate) -> u64 {
    let bits_per_s = rate.bits_per_s();
    if (8 * PS_PER_S) % bits_per_s == 0 {
        8 * PS_PER_S / bits_per_s
    } else {
        0
    }
}

/// The switch's one timed event: a crossbar transfer has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    input: u16,
    output: u16,
    /// The lane of the input buffer the packet leaves.
    in_lane: u16,
    credits: u16,
}

impl Transfer {
    fn encode(self) -> SwitchTimer {
        let [a, b, c, d] = [self.input, self.output, self.in_lane, self.credits].map(u64::from);
        SwitchTimer(a | b << 16 | c << 32 | d << 48)
    }

    fn decode(t: SwitchTimer) -> Transfer {
        let part = |shift: u32| (t.0 >> shift) as u16;
        Transfer {
            input: part(0),
            output: part(16),
            in_lane: part(32),
            credits: part(48),
        }
    }
}

/// The [`super::super::SwitchModel`] methods `header_delay`, `input_credits` and
/// `output_credits` of a switch whose [`CrossbarTiming`] is its field `$timing`.
macro_rules! crossbar_timing_accessors {
    ($timing:ident) => {
        fn header_delay(&self) -> $crate::time::Duration {
            self.$timing.header_crossing
        }

        fn input_credits(&self) -> u32 {
            self.$timing.input_credits
        }

        fn output_credits(&self) -> u32 {
            self.$timing.output_credits
        }
    };
}
pub(crate) use crossbar_timing_accessors;

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// A transfer lasts what the rate's rounded-up quotient gives, whether the rate
        /// has a whole number of picoseconds per byte (the product) or not (the division),
        /// up to and past the bound of the product.
        #[test]
        fn transfer_time_is_the_rate_quotient(
            gbps in proptest::prop_oneof![
                proptest::sample::select(vec![1.0, 2.0, 2.5, 3.0, 8.0, 10.0, 12.5, 16.0, 100.0, 400.0]),
                0.001f64..1000.0,
            ],
            bytes in proptest::prop_oneof![0u32..20_000, 2_300_000u32..2_310_000, proptest::num::u32::ANY],
        ) {
            let rate = BitRate::from_gbps(gbps).unwrap();
            let timing = CrossbarTiming {
                rate,
                ps_per_byte: whole_ps_per_byte(rate),
                header_crossing: Duration(0),
                input_credits: 1,
                output_credits: 1,
            };
            proptest::prop_assert_eq!(timing.transfer_time(bytes), rate.transmission_time(u64::from(bytes)));
        }
    }

    /// Whole picoseconds per byte where the rate divides 8 s in ps, 0 elsewhere.
    #[test]
    fn whole_ps_per_byte_only_for_exact_rates() {
        assert_eq!(whole_ps_per_byte(BitRate::from_gbps(2.0).unwrap()), 4_000);
        assert_eq!(whole_ps_per_byte(BitRate::from_gbps(100.0).unwrap()), 80);
        assert_eq!(whole_ps_per_byte(BitRate::from_gbps(3.0).unwrap()), 0);
    }

    /// A transfer survives its timer: every field at its largest and at zero.
    #[test]
    fn transfer_round_trips() {
        for t in [
            Transfer {
                input: 1,
                output: 2,
                in_lane: 3,
                credits: 4,
            },
            Transfer {
                input: u16::MAX,
                output: 0,
                in_lane: u16::MAX,
                credits: 0,
            },
            Transfer {
                input: 0,
                output: u16::MAX,
                in_lane: 0,
                credits: u16::MAX,
            },
        ] {
            assert_eq!(Transfer::decode(t.encode()), t);
        }
    }
}
