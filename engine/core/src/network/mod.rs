//! Network models: packets, credit-based flow control, and the simulated systems
//! (today the single output port "link lab"; switches and topologies come as new modules).

mod flow_control;
mod link_lab;
mod packet;

pub use flow_control::{CREDIT_BYTES, CreditCounter, credits_for};
pub use link_lab::LinkLab;
pub use packet::Packet;
