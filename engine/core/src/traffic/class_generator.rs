//! The generator of one end point and class of a network, as the network pulls packets
//! from it: a source of its own (bursts) or the merged packets of admitted connections.

use super::connections::ConnectionGenerator;
use super::generated::{Generated, PacketSource};

/// The generator of one end point and class.
#[derive(Clone, Debug)]
pub enum ClassGenerator {
    /// A source of its own, without connections (bursts).
    Source(Box<dyn PacketSource>),
    /// Admitted connections.
    Connections(ConnectionGenerator),
}

impl ClassGenerator {
    /// The next packet in time order (None when the generator has nothing more).
    pub fn next_packet(&mut self) -> Option<Generated> {
        match self {
            ClassGenerator::Source(s) => s.next_packet(),
            ClassGenerator::Connections(c) => c.next_packet(),
        }
    }
}
