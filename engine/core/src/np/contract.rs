//! The contract between the network-processor node and its schedulers.
//!
//! It is separate from the output-port [`crate::schedulers::Scheduler`] contract because
//! a network processor's scheduler does more than pick a class: its decision may be to
//! drop a head packet, it may ask to be woken at a time (HILQ's collector runs at every
//! millisecond boundary), it learns the cost of what it served, and it counts its memory
//! accesses by memory type. The output-port schedulers keep their contract unchanged.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::time::SimTime;

/// A packet waiting in a stream's queue, as a scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedPacket {
    /// Its deadline: the latest time its service may start.
    pub deadline: SimTime,
    /// When it arrived.
    pub arrival: SimTime,
    /// Its length as it arrived, bytes.
    pub bytes: u32,
}

/// What processing a packet on an engine showed (known only once it is processed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Processed {
    /// The packet's stream.
    pub stream: u32,
    /// Its actual processing cycles.
    pub cycles: u64,
    /// Its length before processing, bytes.
    pub bytes_in: u32,
    /// Its length after processing (what goes onto the link), bytes.
    pub bytes_out: u32,
}

/// The node's stream queues, read-only.
pub trait StreamView {
    /// Number of streams.
    fn streams(&self) -> usize;
    /// The head packet of a stream.
    fn head(&self, stream: u32) -> Option<QueuedPacket>;
    /// The last packet queued in a stream (the one that just arrived, on arrival).
    fn tail(&self, stream: u32) -> Option<QueuedPacket>;
    /// Packets queued in a stream.
    fn len(&self, stream: u32) -> usize;
}

/// What the scheduler decides when asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Serve the head packet of this stream.
    Send(u32),
    /// Drop the head packet of this stream (it missed its deadline and may be dropped).
    Drop(u32),
    /// Nothing to do now.
    Idle,
}

/// Memory accesses of a scheduler, by memory type (the cost model of the spec: packet
/// data in SDRAM is not the scheduler's, so it is not counted).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct MemoryAccesses {
    /// On-chip scratchpad accesses.
    #[ts(type = "number")]
    pub scratchpad: u64,
    /// SRAM accesses.
    #[ts(type = "number")]
    pub sram: u64,
}

impl MemoryAccesses {
    /// Both kinds together.
    pub fn total(&self) -> u64 {
        self.scratchpad + self.sram
    }

    /// The accesses since `before` (counters only grow).
    pub fn since(&self, before: &MemoryAccesses) -> MemoryAccesses {
        MemoryAccesses {
            scratchpad: self.scratchpad - before.scratchpad,
            sram: self.sram - before.sram,
        }
    }
}

/// A scheduler of a network-processor node.
///
/// The node calls [`NpScheduler::on_arrival`] after a packet joined a stream's queue,
/// asks [`NpScheduler::decide`] whenever a server is free or the scheduler asked to be
/// woken (with `may_send` false while every server is busy: then only drops are taken),
/// carries the decision out on its queues, and then calls [`NpScheduler::applied`] so the
/// scheduler sees the stream's new head. [`NpScheduler::served`] reports the cost of a
/// served packet (processing cycles) once it is known.
pub trait NpScheduler {
    /// The scenario's `kind` of this scheduler.
    fn kind(&self) -> &'static str;
    /// A packet joined the back of `stream`'s queue at `now`.
    fn on_arrival(&mut self, now: SimTime, stream: u32, q: &dyn StreamView);
    /// The next decision at `now`.
    fn decide(&mut self, now: SimTime, may_send: bool, q: &dyn StreamView) -> Decision;
    /// `decision` was carried out at `now` (the stream's head is gone); `q` shows the
    /// queues after it.
    fn applied(&mut self, now: SimTime, decision: Decision, q: &dyn StreamView);
    /// An engine finished processing a packet at `now`: its actual cost and lengths.
    fn served(&mut self, _now: SimTime, _p: Processed) {}
    /// A processed packet of `stream`, `bytes` long, joins the transmit queue at `now`:
    /// its key there (smallest first), or None for first come, first served.
    fn transmit_key(&mut self, _now: SimTime, _stream: u32, _bytes: u32) -> Option<f64> {
        None
    }
    /// A packet of `stream` starts its transmission on the link at `now`.
    fn transmitting(&mut self, _now: SimTime, _stream: u32) {}
    /// For the decision animation: why `decision` is taken, in words, with the candidates'
    /// keys and the scheduler's clock values, asked before it is carried out (None: this
    /// scheduler does not explain its decisions). Implementing it is all a scheduler needs
    /// to appear in the network processor's decision trace (`np::trace`).
    fn explain(
        &self,
        _now: SimTime,
        _decision: Decision,
        _q: &dyn StreamView,
    ) -> Option<crate::np::explain::Explanation> {
        None
    }
    /// The scheduler's predicted processing cycles of `stream`'s next packet, if it
    /// predicts them.
    fn predicted_cycles(&self, _stream: u32) -> Option<f64> {
        None
    }
    /// When the scheduler wants to be asked again even if no server frees up.
    fn wake_at(&self) -> Option<SimTime> {
        None
    }
    /// Memory accesses so far.
    fn memory(&self) -> MemoryAccesses;
    /// A stream's current window (x', y') and its original (x, y).
    fn window(&self, stream: u32) -> crate::np::dwcs::Window;
    /// Window violations of a stream so far (misses with x' = 0).
    fn violations(&self, stream: u32) -> u64;
    /// The scheduler as [`std::any::Any`], for tools that inspect one kind.
    fn as_any(&self) -> &dyn std::any::Any;
    /// Any audit fault found (a broken invariant of the scheduler's own structures).
    fn fault(&self) -> Option<String> {
        None
    }
}
