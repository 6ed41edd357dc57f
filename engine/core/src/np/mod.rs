//! Network processors (`shared/spec/40-network-processors.md`): a node model of its own
//! (streams with their queues, a scheduler asked when a server is free, engines or the
//! link, a transmit FIFO, drops) and its schedulers behind their own contract
//! ([`contract::NpScheduler`]): DWCS exact with two heaps ([`heap`]) and DWCS over the
//! constant-time HILQ ([`hilq`]), both counting memory accesses for the cost model
//! ([`cost`]); PCFQ ([`pcfq`]), the CPU and the link in one virtual time with predicted
//! processing costs, and its baseline of two separate WFQs ([`separate_wfq`]), sharing
//! [`fair_dispatch`] and [`predict`]. Schedulers are registered in `build.rs`.

mod build;
pub mod contract;
pub mod cost;
pub mod dwcs;
mod dwcs_explain;
pub mod explain;
pub mod fair_dispatch;
pub mod heap;
pub mod hilq;
pub mod indexed_heap;
mod node;
mod node_results;
pub mod pcfq;
pub mod predict;
pub mod results;
pub mod separate_wfq;
mod stage;
pub mod stream_state;
pub mod trace;

pub use node::NpNode;
