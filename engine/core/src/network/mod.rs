//! Network models: packets, credit-based flow control, and the simulated systems
//! (the single output port "link lab", and networks of interfaces and switches built from
//! a topology, a routing and a switch model; further switch models and topologies come
//! as new modules).

pub mod cost;
mod fabric;
mod flow_control;
pub mod interface;
pub mod lanes;
mod link_lab;
mod packet;
pub mod port;
pub mod routing;
mod send;
pub mod switch;
pub mod topology;

pub use fabric::{Audit as NetworkAudit, NetworkSim};
pub use flow_control::{CREDIT_BYTES, CreditCounter, credits_for};
pub use link_lab::LinkLab;
pub use packet::Packet;
pub use send::{SendAudit, SendFault, SendPort, send_one};
