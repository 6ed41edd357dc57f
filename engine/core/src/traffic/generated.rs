//! What every network traffic generator yields, and the random streams they draw from.
//!
//! A generator belongs to one end point and one class and yields [`Generated`] packets in
//! non-decreasing time order (`next_packet`); a network schedules one event at the next
//! packet's time and asks again when it fires. Equal times are allowed (the packets of a
//! burst): they are yielded in the order they must be queued.

use crate::rng::{RngStream, RngStreams, StreamId};
use crate::time::SimTime;

/// Flow id of a packet that belongs to no connection (bursts); jitter ignores them.
pub const NO_FLOW: u32 = u32::MAX;

/// One generated packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Generated {
    /// Generation time (latency is measured from it).
    pub time: SimTime,
    /// Size in bytes (at least 1).
    pub bytes: u32,
    /// Destination end point (never the source).
    pub destination: u32,
    /// The connection within this end point and class (0, 1, ... in opening order of the
    /// admitted connections), or [`NO_FLOW`].
    pub flow: u32,
}

/// The packets of one end point and class of a generator without connections (bursts),
/// in non-decreasing time order.
pub trait PacketSource: std::fmt::Debug {
    /// The next packet (None when the source has nothing more).
    fn next_packet(&mut self) -> Option<Generated>;

    /// A copy of the source in its current state.
    fn clone_box(&self) -> Box<dyn PacketSource>;
}

impl Clone for Box<dyn PacketSource> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Purposes of the `StreamId::Traffic` streams: every random process of a class at an end
/// point draws from its own stream, so changing one (say the sizes) never shifts another
/// (say the destinations), and changing the scheduler or the network never shifts any.
pub mod streams {
    /// Destinations of bursts and connections.
    pub const DESTINATIONS: u32 = 0;
    /// Start phases of connections (and GOP / trace start positions of video).
    pub const PHASES: u32 = 1;
    /// Gaps between bursts.
    pub const BURST_GAPS: u32 = 2;
    /// Packet sizes of bursts.
    pub const BURST_SIZES: u32 = 3;
    /// The shared random Zipf ranking of a class (end point `u32::MAX`).
    pub const ZIPF_RANKING: u32 = 4;
    /// The shared random derangement of a class (end point `u32::MAX`).
    pub const DERANGEMENT: u32 = 5;
    /// Frame sizes of video connection `i` use purpose `FRAME_SIZES + i`.
    pub const FRAME_SIZES: u32 = 1 << 24;
    /// End point id of the streams shared by every end point of a class.
    pub const SHARED: u32 = u32::MAX;
}

/// The stream of one purpose of one end point and class.
pub fn stream(streams: &RngStreams, endpoint: u32, class: u32, purpose: u32) -> RngStream {
    streams.stream(StreamId::Traffic {
        endpoint,
        class,
        purpose,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traffic_streams_are_distinct_from_each_other_and_from_the_link_lab() {
        let s = RngStreams::new(3);
        let mut seen = vec![
            s.stream(StreamId::Arrivals(0)).next_u64(),
            s.stream(StreamId::Periods(u32::MAX)).next_u64(),
        ];
        for (e, c, p) in [
            (0, 0, 0),
            (0, 0, 1),
            (0, 1, 0),
            (1, 0, 0),
            (streams::SHARED, 0, streams::ZIPF_RANKING),
        ] {
            seen.push(stream(&s, e, c, p).next_u64());
        }
        let mut dedup = seen.clone();
        dedup.sort_unstable();
        dedup.dedup();
        assert_eq!(dedup.len(), seen.len());
    }
}
