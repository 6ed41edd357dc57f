//! Traffic: sources that generate packets of some size at some times.

mod host;
mod source;

pub use host::{HostPacket, HostTraffic};
pub use source::Source;
