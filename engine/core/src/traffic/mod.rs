//! Traffic: sources that generate packets of some size at some times.
//!
//! `source` is the link lab's per-class source. The other modules are the traffic of
//! networks: per end point and class, generators yield [`Generated`] packets (time, size,
//! destination, connection) in time order; [`NetworkTraffic::build`] builds them all with
//! admission control (see `docs/traffic-formats.md`); the network simulator uses them
//! for every class (Poisson traffic is one-packet bursts).

pub mod admission;
pub mod class_generator;
pub mod classes_8021d;
pub mod classes_r3;
pub mod config;
pub mod config_rules;
pub mod connection_queue;
pub mod connections;
pub mod destination_config;
pub mod destinations;
pub mod frame_trace;
pub mod generated;
pub mod generators;
pub mod limits;
pub mod network_traffic;
pub mod size_draw;
pub mod size_rules;
pub(crate) mod source;

pub use class_generator::ClassGenerator;
pub use generated::{Generated, NO_FLOW, PacketSource};
pub use network_traffic::NetworkTraffic;
pub use source::Source;
