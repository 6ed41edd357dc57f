//! The network-processor node's streams: each stream's fixed parameters, its random
//! sources (arrival gaps, sizes, processing cycles), the packet it draws on each arrival,
//! and its measured outcomes, including the sliding x/y window of misses.

use super::stream_state::StreamSpec;
use crate::rng::{RngStream, RngStreams, StreamId};
use crate::scenario::{NetworkProcessorConfig, NpArrivals, StreamGroupConfig, WindowConfig};
use crate::time::SimTime;
use crate::traffic::size_draw::SizeDraw;

/// Purposes of the node's random streams.
pub(super) mod purpose {
    pub const GAPS: u32 = 0;
    pub const SIZES: u32 = 1;
    pub const PHASE: u32 = 2;
    pub const WINDOW: u32 = 3;
    pub const SRAM: u32 = 4;
    pub const CYCLES: u32 = 5;
}

/// A packet in the node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pkt {
    pub stream: u32,
    pub arrival: SimTime,
    pub deadline: SimTime,
    pub bytes: u32,
    /// Actual processing cycles (known to the scheduler only once processed).
    pub cycles: u32,
    /// Length after processing, bytes.
    pub out_bytes: u32,
}

/// One stream's fixed parameters, sources and measured outcomes.
pub(super) struct Stream {
    pub group: u16,
    pub period_ps: u64,
    pub x: u32,
    pub y: u32,
    pub limit: usize,
    poisson: bool,
    gaps: RngStream,
    /// The group's size distribution, its constants worked out once.
    size: SizeDraw,
    sizes: RngStream,
    cycles: RngStream,
    last_deadline: SimTime,
    /// Outcomes of the last packets, newest in bit 0 (1 = late or lost).
    history: u64,
    outcomes: u64,
    pub sent: u64,
    pub dropped_late: u64,
    pub lost_full: u64,
    pub late_sent: u64,
    pub windows_violated: u64,
    /// Packets processed, their summed, smallest and largest actual cycles.
    pub processed: u64,
    pub cycles_sum: u64,
    pub cycles_min: u64,
    pub cycles_max: u64,
}

/// The streams of every group, in order, with what their schedulers are told of them
/// (window x/y, droppable) and each stream's first arrival.
pub(super) struct BuiltStreams {
    pub streams: Vec<Stream>,
    pub specs: Vec<StreamSpec>,
    pub first_arrivals: Vec<SimTime>,
}

/// Draws every stream's window, phase and first arrival from its own random streams.
pub(super) fn build_streams(np: &NetworkProcessorConfig, rng: &RngStreams) -> BuiltStreams {
    let mut built = BuiltStreams {
        streams: Vec::new(),
        specs: Vec::new(),
        first_arrivals: Vec::new(),
    };
    for (g, group) in np.streams.iter().enumerate() {
        let pairs = match &group.window {
            WindowConfig::Fixed(w) => vec![(w.x, w.y)],
            WindowConfig::Random(r) => r.pairs(),
        };
        let period_ps = ((group.period_us * 1.0e6).round() as u64).max(1);
        for _ in 0..group.count {
            let id = built.streams.len() as u32;
            let ns = |purpose| {
                rng.stream(StreamId::NetworkProcessor {
                    stream: id,
                    purpose,
                })
            };
            let pick = if pairs.len() > 1 {
                ns(purpose::WINDOW).uniform_u32(0, pairs.len() as u32 - 1) as usize
            } else {
                0
            };
            let (x, y) = pairs.get(pick).copied().unwrap_or((0, 1));
            built.specs.push((x, y, group.droppable));
            let phase = (ns(purpose::PHASE).unit() * period_ps as f64) as u64;
            let poisson = group.arrivals == NpArrivals::Poisson;
            let mut gaps = ns(purpose::GAPS);
            let first = match group.arrivals {
                NpArrivals::Poisson => gaps.exponential(period_ps as f64) as u64,
                NpArrivals::Constant => phase,
                NpArrivals::Synchronous => 0,
            };
            built.first_arrivals.push(SimTime(first));
            built.streams.push(Stream {
                group: g as u16,
                period_ps,
                x,
                y,
                limit: group.queue_packets as usize,
                poisson,
                gaps,
                size: SizeDraw::new(&group.size),
                sizes: ns(purpose::SIZES),
                cycles: ns(purpose::CYCLES),
                last_deadline: SimTime::ZERO,
                history: 0,
                outcomes: 0,
                sent: 0,
                dropped_late: 0,
                lost_full: 0,
                late_sent: 0,
                windows_violated: 0,
                processed: 0,
                cycles_sum: 0,
                cycles_min: u64::MAX,
                cycles_max: 0,
            });
        }
    }
    built
}

impl Stream {
    /// Gap to the stream's next arrival, ps (at least 1 for Poisson arrivals).
    pub fn next_gap(&mut self) -> u64 {
        if self.poisson {
            (self.gaps.exponential(self.period_ps as f64) as u64).max(1)
        } else {
            self.period_ps
        }
    }

    /// The packet arriving at `now` from this stream of group `g`: its size, actual
    /// processing cycles and length after processing (no deadline yet).
    pub fn draw_packet(&mut self, stream: u32, now: SimTime, g: &StreamGroupConfig) -> Pkt {
        let bytes = self.size.draw(&mut self.sizes);
        let cycles = match g.processing_cycles_max {
            Some(max) if max > g.processing_cycles => {
                self.cycles.uniform_u32(g.processing_cycles, max)
            }
            _ => g.processing_cycles,
        };
        let out_bytes = match g.output_ratio {
            Some(r) => ((f64::from(bytes) * r).round() as u32).max(1),
            None => bytes,
        };
        Pkt {
            stream,
            arrival: now,
            deadline: now,
            bytes,
            cycles,
            out_bytes,
        }
    }

    /// Sets the deadline of a packet queued at `now`: `max(previous deadline + T, now + T)`.
    pub fn next_deadline(&mut self, now: SimTime) -> SimTime {
        let deadline =
            (self.last_deadline.plus_ps(self.period_ps)).max(now.plus_ps(self.period_ps));
        self.last_deadline = deadline;
        deadline
    }

    /// Records a packet's outcome in the sliding window (1 = late or lost) and counts a
    /// violated window when the last y outcomes hold more than x misses.
    pub fn record_outcome(&mut self, missed: bool) {
        self.history = (self.history << 1) | u64::from(missed);
        self.outcomes += 1;
        let y = self.y.min(64);
        if self.outcomes >= u64::from(y) {
            let mask = if y >= 64 { u64::MAX } else { (1u64 << y) - 1 };
            if (self.history & mask).count_ones() > self.x {
                self.windows_violated += 1;
            }
        }
    }
}
