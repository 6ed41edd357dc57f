//! Network processors (`shared/spec/40-network-processors.md`): a node model of its own
//! (streams with their queues, a scheduler asked when a server is free, engines or the
//! link, a transmit FIFO, drops) and its schedulers behind their own contract
//! ([`contract::NpScheduler`]): DWCS exact with two heaps ([`heap`]) and DWCS over the
//! constant-time HILQ ([`hilq`]), both counting memory accesses for the cost model
//! ([`cost`]).

pub mod contract;
pub mod cost;
pub mod dwcs;
pub mod heap;
pub mod hilq;
pub mod indexed_heap;
mod node;
mod node_results;
pub mod results;
pub mod stream_state;

pub use node::NpNode;
