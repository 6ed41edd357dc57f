//! The packet as the engine moves it.

use crate::time::SimTime;

/// A packet: its class, its size and when it was generated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Generation order within the run (unique).
    pub id: u64,
    /// Class (virtual lane / channel) index.
    pub class: u16,
    /// Size in bytes.
    pub bytes: u32,
    /// Size in flow-control credits (`ceil(bytes / 64)`).
    pub credits: u32,
    /// When the source generated it; latency counts from here.
    pub created: SimTime,
}
