//! Network processors (`shared/spec/40-network-processors.md`): a node model of its own
//! (streams with their queues, a scheduler asked when a server is free, engines or the
//! link, a transmit FIFO, drops) and its schedulers behind their own contract
//! ([`contract::NpScheduler`]): DWCS exact with two heaps ([`heap`]) and DWCS over the
//! constant-time HILQ ([`hilq`]), both counting memory accesses for the cost model
//! ([`cost`]); PCFQ ([`pcfq`]), the CPU and the link in one virtual time with predicted
//! processing costs, and its baseline of two separate WFQs ([`separate_wfq`]), sharing
//! [`fair_dispatch`] and [`predict`]. Each scheduler lives in its own module behind
//! [`spec::NpSchedulerSpec`] and is registered with one line below.

pub mod contract;
pub mod cost;
pub mod dwcs;
mod dwcs_explain;
pub mod explain;
pub mod fair_dispatch;
pub mod indexed_heap;
mod node;
mod node_results;
mod node_streams;
pub mod predict;
mod registry;
pub mod results;
pub mod spec;
mod stage;
pub mod stream_state;
pub mod trace;

pub use node::NpNode;

use crate::scenario::tagged::tagged_enum;

// The schedulers' modules: plain `mod` lines, each with its one line in the registry
// below (cargo-mutants finds files only through `mod` items, so the macro cannot declare
// them).
pub mod heap;
pub mod hilq;
pub mod pcfq;
pub mod separate_wfq;

// The registry: one line per scheduler (see `registry.rs` and `docs/architecture.md`).
registry::np_scheduler_registry! {
    /// Exact DWCS with a deadline heap and a window-constraint heap.
    "dwcs_heap" => DwcsHeap(heap::DwcsHeapConfig) by heap::DwcsHeap,
    /// DWCS over the hierarchically indexed linear queue (constant time, exact to 1 ms).
    "dwcs_hilq" => DwcsHilq by hilq::DwcsHilq,
    /// PCFQ: the CPU and the link in one virtual time, with predicted processing costs
    /// (engines server).
    "pcfq" => Pcfq(predict::PcfqConfig) by pcfq::Pcfq,
    /// The baseline of PCFQ: a WFQ over the CPU (the same predicted costs), then a WFQ over
    /// the link instead of the FIFO transmit queue (engines server).
    "separate_wfq" => SeparateWfq(predict::PcfqConfig) by separate_wfq::SeparateWfq,
}
