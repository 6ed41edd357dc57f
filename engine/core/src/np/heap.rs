//! Exact DWCS with two heaps (`shared/spec/40-network-processors.md`): streams ordered by
//! their head packets' precedence (deadline first, rules 1-5) and by window constraint,
//! a FIFO per stream (the node's queue), and after every send a purge of the late heads,
//! which sit at the top of the deadline heap.
//!
//! The deadline heap's key carries the whole precedence, so it alone picks the next
//! stream; the window-constraint heap is kept as the source keeps it (every window change
//! re-sorts it), so its work is part of the cost. Cost model: one SRAM read to look at
//! the top of the deadline heap, six SRAM accesses per level an item moves in either heap.
//!
//! Late heads: a droppable stream's late head is dropped (the decision `Drop`); a
//! non-droppable one is charged its miss when found and moves to a FIFO of late packets,
//! sent before anything else (they have the earliest deadlines), without a second charge.

use std::cmp::Ordering;
use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::contract::{Decision, MemoryAccesses, NpScheduler, QueuedPacket, StreamView};
use super::dwcs::{HeadKey, Window, ZeroTie, precedence};
use super::indexed_heap::IndexedHeap;
use super::spec::{NpSchedulerSpec, NpSetup};
use super::stream_state::{DwcsStream, StreamSpec};
use crate::time::SimTime;

/// Options of the exact DWCS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct DwcsHeapConfig {
    /// Precedence rule 3: with equal deadlines and both constraints zero, which y' first.
    pub zero_tie: ZeroTie,
}

impl NpSchedulerSpec for DwcsHeap {
    type Config = DwcsHeapConfig;

    fn build(config: &DwcsHeapConfig, setup: &NpSetup) -> Box<dyn NpScheduler> {
        Box::new(DwcsHeap::new(setup.specs, config.zero_tie))
    }
}

/// SRAM accesses per level moved, per heap.
pub const SRAM_PER_LEVEL: u64 = 6;

/// Deadline-heap key: the head's precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ByPrecedence(HeadKey, ZeroTie);

impl Ord for ByPrecedence {
    fn cmp(&self, other: &Self) -> Ordering {
        precedence(&self.0, &other.0, self.1)
    }
}
impl PartialOrd for ByPrecedence {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Window-heap key: current constraint, then x', then the deadline and stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ByWindow(Window, SimTime, u32);

impl Ord for ByWindow {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .cmp_constraint(&other.0)
            .then_with(|| self.0.xc.cmp(&other.0.xc))
            .then_with(|| self.1.cmp(&other.1))
            .then_with(|| self.2.cmp(&other.2))
    }
}
impl PartialOrd for ByWindow {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Exact DWCS.
pub struct DwcsHeap {
    tie: ZeroTie,
    streams: Vec<DwcsStream>,
    by_deadline: IndexedHeap<ByPrecedence>,
    by_window: IndexedHeap<ByWindow>,
    /// Non-droppable streams whose late head waits to be sent (one entry per packet).
    late: VecDeque<u32>,
    /// Streams with an entry in `late` (their heads are not in the heaps).
    in_late: Vec<bool>,
    /// The packet being sent: stream and deadline (read in `decide`).
    sending: Option<(u32, SimTime)>,
    /// Top reads (one SRAM access each).
    top_reads: u64,
}

impl DwcsHeap {
    /// Streams with their windows and drop policy.
    pub fn new(specs: &[StreamSpec], tie: ZeroTie) -> DwcsHeap {
        let n = specs.len();
        DwcsHeap {
            tie,
            streams: specs
                .iter()
                .map(|&(x, y, d)| DwcsStream::new(x, y, d))
                .collect(),
            by_deadline: IndexedHeap::new(n),
            by_window: IndexedHeap::new(n),
            late: VecDeque::new(),
            in_late: vec![false; n],
            sending: None,
            top_reads: 0,
        }
    }

    /// Puts `stream`'s current head in the heaps (or takes the stream out when empty).
    fn rekey(&mut self, stream: u32, q: &dyn StreamView) {
        if self.in_late[stream as usize] {
            return;
        }
        match q.head(stream) {
            Some(QueuedPacket {
                deadline, arrival, ..
            }) => {
                let window = self.streams[stream as usize].window;
                let key = HeadKey {
                    deadline,
                    window,
                    arrival,
                    stream,
                };
                self.by_deadline.set(stream, ByPrecedence(key, self.tie));
                self.by_window
                    .set(stream, ByWindow(window, deadline, stream));
            }
            None => {
                self.by_deadline.remove(stream);
                self.by_window.remove(stream);
            }
        }
    }

    /// Heads in the heaps (tests).
    pub fn queued_streams(&self) -> usize {
        self.by_deadline.len()
    }
}

impl NpScheduler for DwcsHeap {
    fn kind(&self) -> &'static str {
        "dwcs_heap"
    }

    fn on_arrival(&mut self, _now: SimTime, stream: u32, q: &dyn StreamView) {
        if q.len(stream) == 1 {
            self.rekey(stream, q);
        }
    }

    fn decide(&mut self, now: SimTime, may_send: bool, q: &dyn StreamView) -> Decision {
        // Purge: late heads are at the top of the deadline heap.
        loop {
            self.top_reads += 1;
            let Some((ByPrecedence(head, _), stream)) = self.by_deadline.peek() else {
                break;
            };
            if head.deadline >= now {
                break;
            }
            let s = &mut self.streams[stream as usize];
            s.miss_from(s.window);
            if s.droppable {
                return Decision::Drop(stream);
            }
            s.charged += 1;
            self.by_deadline.remove(stream);
            self.by_window.remove(stream);
            self.in_late[stream as usize] = true;
            self.late.push_back(stream);
        }
        if !may_send {
            return Decision::Idle;
        }
        let stream = match self.late.front() {
            Some(&s) => s,
            None => match self.by_deadline.peek() {
                Some((_, s)) => s,
                None => return Decision::Idle,
            },
        };
        let deadline = q.head(stream).map_or(now, |h| h.deadline);
        self.sending = Some((stream, deadline));
        Decision::Send(stream)
    }

    fn applied(&mut self, now: SimTime, decision: Decision, q: &dyn StreamView) {
        match decision {
            Decision::Drop(stream) => self.rekey(stream, q),
            Decision::Send(stream) => {
                if self.late.front() == Some(&stream) && self.in_late[stream as usize] {
                    self.late.pop_front();
                    self.in_late[stream as usize] = false;
                }
                if let Some((s, deadline)) = self.sending.take() {
                    if s == stream {
                        self.streams[stream as usize].sent(deadline, now);
                    }
                }
                self.rekey(stream, q);
            }
            Decision::Idle => {}
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn memory(&self) -> MemoryAccesses {
        MemoryAccesses {
            scratchpad: 0,
            sram: self.top_reads
                + SRAM_PER_LEVEL * (self.by_deadline.moves() + self.by_window.moves()),
        }
    }

    fn explain(
        &self,
        now: SimTime,
        decision: Decision,
        q: &dyn StreamView,
    ) -> Option<super::explain::Explanation> {
        let window = |s: u32| self.streams[s as usize].window;
        super::dwcs_explain::explain(now, decision, q, &window, "DWCS (heap)", "")
    }

    fn window(&self, stream: u32) -> Window {
        self.streams[stream as usize].window
    }

    fn violations(&self, stream: u32) -> u64 {
        self.streams[stream as usize].violations
    }

    fn fault(&self) -> Option<String> {
        self.by_deadline
            .check()
            .err()
            .or_else(|| self.by_window.check().err())
    }
}
