//! DWCS over HILQ: every arriving packet queues an element (its stream and the window
//! x'/y' of that moment) in the segment of its deadline and the slot of that window; the
//! scheduler serves the element that goes first and sends its stream's head packet (so a
//! stream's packets stay in order even when its elements sit in different slots).
//!
//! The collector runs when time passes a segment boundary (the scheduler asks to be woken
//! at each millisecond while anything is queued): every element left in a passed segment
//! is a late packet. On the network processor it runs beside the scheduler, sweeping the
//! segment while it is current, so it works on the window values x'/y' as they were when
//! the segment became current: it applies the miss rule to those and writes the result
//! back, overwriting what the scheduler changed in that millisecond. That, the 1 ms
//! deadline granularity (a packet counts as on time for the window bookkeeping while its
//! segment is current) and the rounding of x'/y' to slots are where HILQ's inaccuracy
//! against the exact heap comes from; the node measures lateness against the exact
//! deadlines independently (`late_sent`, `windows_violated`). A droppable stream's late head is dropped; a non-droppable one
//! is charged and sent late, before anything else.
//!
//! A deadline 100 ms or more ahead cannot be indexed: validation refuses periods that
//! long; should a deadline still run that far ahead (a stream served faster than its
//! period), it is queued in the last segment (99 ms ahead) and counted in `clamped`.

use std::collections::VecDeque;

use super::queue::Token;
use super::{HILQ_HORIZON_US, Index, Lookup, NUMERATORS, SEGMENT_PS, SEGMENTS};
use crate::np::contract::{Decision, MemoryAccesses, NpScheduler, StreamView};
use crate::np::dwcs::Window;
use crate::np::spec::{NpSchedulerSpec, NpSetup, period_within};
use crate::np::stream_state::{DwcsStream, StreamSpec};
use crate::time::SimTime;

/// No parameters; periods must stay below the horizon of [`SEGMENTS`] ms.
impl NpSchedulerSpec for DwcsHilq {
    type Config = ();

    fn check_period(_config: &(), t: f64) -> Result<(), String> {
        if t.is_finite() && t >= HILQ_HORIZON_US {
            let ms = t / 1000.0;
            return Err(format!(
                "must be below {HILQ_HORIZON_US} us ({SEGMENTS} ms) with HILQ: it indexes deadlines one segment per ms, {SEGMENTS} segments ahead, so a deadline {ms:.0} ms ahead would alias into the segment of {:.0} ms (got {t})",
                ms % SEGMENTS as f64
            ));
        }
        period_within(t, HILQ_HORIZON_US, false)
    }

    fn build(_config: &(), setup: &NpSetup) -> Box<dyn NpScheduler> {
        Box::new(DwcsHilq::new(setup.specs))
    }
}

/// DWCS with the HILQ index.
pub struct DwcsHilq {
    streams: Vec<DwcsStream>,
    index: Index,
    lookup: Lookup,
    mem: MemoryAccesses,
    /// Late heads the collector found, to drop.
    drops: VecDeque<u32>,
    /// Late heads of non-droppable streams, to send first.
    late: VecDeque<u32>,
    /// The packet being sent: stream and deadline.
    sending: Option<(u32, SimTime)>,
    /// Deadlines queued in the last segment because they were 100 ms or more ahead.
    clamped: u64,
    /// Elements the collector took.
    collected: u64,
    /// Per stream: a millisecond and the window as it was when that millisecond began
    /// (kept by the first change within it): what the collector of that millisecond's
    /// segment reads.
    snapshot: Vec<(u64, Window)>,
}

impl DwcsHilq {
    /// Streams with their windows and drop policy.
    pub fn new(specs: &[StreamSpec]) -> DwcsHilq {
        DwcsHilq {
            streams: specs
                .iter()
                .map(|&(x, y, d)| DwcsStream::new(x, y, d))
                .collect(),
            index: Index::default(),
            lookup: Lookup::default(),
            mem: MemoryAccesses::default(),
            drops: VecDeque::new(),
            late: VecDeque::new(),
            sending: None,
            clamped: 0,
            collected: 0,
            snapshot: specs
                .iter()
                .map(|&(x, y, _)| (u64::MAX, Window::new(x, y)))
                .collect(),
        }
    }

    /// Deadlines queued 99 ms ahead because they were further.
    pub fn clamped(&self) -> u64 {
        self.clamped
    }

    /// Elements the collector took from passed segments.
    pub fn collected(&self) -> u64 {
        self.collected
    }

    /// The index (tests and the animation).
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The slot a stream's elements go to now.
    pub fn slot_of(&self, stream: u32) -> usize {
        let w = self.streams[stream as usize].window;
        self.lookup.slot(w.xc, w.yc, &mut MemoryAccesses::default())
    }

    /// Where HILQ found stream `s`'s head: its deadline segment and the slot of its window.
    fn slot_note(&self, s: u32, deadline: SimTime) -> String {
        let w = self.streams[s as usize].window;
        let slot = self.slot_of(s);
        let numerator = slot % NUMERATORS as usize;
        let constraint = slot / NUMERATORS as usize;
        format!(
            "HILQ found it in the segment of millisecond {} (deadlines {}-{} ms) at slot {slot} = 20 × {constraint} + {numerator}: x′/y′ = {}/{} rounds to the constraint {:.2}, and x′ = {} gives the numerator{}. It is the first non-empty slot of the earliest non-empty segment (two bitmap reads each), so the order matches exact DWCS to 1 ms and 0.02.",
            deadline.as_ps() / SEGMENT_PS,
            deadline.as_ps() / SEGMENT_PS,
            deadline.as_ps() / SEGMENT_PS + 1,
            w.xc,
            w.yc,
            constraint as f64 * 0.02,
            w.xc,
            if w.xc >= NUMERATORS {
                " (x′ above 19 counts as 19)"
            } else {
                ""
            },
        )
    }

    /// Runs the collector up to the segment of `now`.
    fn collect(&mut self, now: SimTime) {
        let ms = now.as_ps() / SEGMENT_PS;
        if ms <= self.index.now_ms() {
            return;
        }
        let streams = &mut self.streams;
        let snapshot = &mut self.snapshot;
        let (drops, late, collected) = (&mut self.drops, &mut self.late, &mut self.collected);
        self.index.advance_to(ms, &mut self.mem, |passed, token| {
            *collected += 1;
            let s = &mut streams[token.stream as usize];
            // The collector of a segment read the windows when the segment became
            // current; changes the scheduler made since are overwritten.
            let snap = &mut snapshot[token.stream as usize];
            let stale = if snap.0 == passed { snap.1 } else { s.window };
            s.miss_from(stale);
            *snap = (passed, s.window);
            if s.droppable {
                drops.push_back(token.stream);
            } else {
                s.charged += 1;
                late.push_back(token.stream);
            }
        });
    }
}

impl NpScheduler for DwcsHilq {
    fn kind(&self) -> &'static str {
        "dwcs_hilq"
    }

    fn on_arrival(&mut self, now: SimTime, stream: u32, q: &dyn StreamView) {
        self.collect(now);
        let w = self.streams[stream as usize].window;
        let slot = self.lookup.slot(w.xc, w.yc, &mut self.mem);
        let token = Token {
            stream,
            xc: w.xc,
            yc: w.yc,
        };
        // The arriving packet is the stream's last.
        let deadline = q.tail(stream).map_or(now, |p| p.deadline);
        let ms = deadline.as_ps() / SEGMENT_PS;
        if self.index.insert(ms, slot, token, &mut self.mem).is_err() {
            self.clamped += 1;
            let last = self.index.now_ms() + SEGMENTS as u64 - 1;
            // 99 ms ahead is within the horizon, so this insert cannot be refused.
            let _ = self.index.insert(last, slot, token, &mut self.mem);
        }
    }

    fn decide(&mut self, now: SimTime, may_send: bool, q: &dyn StreamView) -> Decision {
        self.collect(now);
        if let Some(stream) = self.drops.pop_front() {
            return Decision::Drop(stream);
        }
        if !may_send {
            return Decision::Idle;
        }
        let stream = match self.late.pop_front() {
            Some(s) => s,
            None => match self.index.pop_first(&mut self.mem) {
                Some((_, _, token)) => token.stream,
                None => return Decision::Idle,
            },
        };
        let deadline = q.head(stream).map_or(now, |h| h.deadline);
        self.sending = Some((stream, deadline));
        Decision::Send(stream)
    }

    fn applied(&mut self, now: SimTime, decision: Decision, _q: &dyn StreamView) {
        if let Decision::Send(stream) = decision {
            if let Some((s, deadline)) = self.sending.take() {
                if s == stream {
                    let ms = self.index.now_ms();
                    let snap = &mut self.snapshot[stream as usize];
                    if snap.0 != ms {
                        *snap = (ms, self.streams[stream as usize].window);
                    }
                    // HILQ knows deadlines to the millisecond: on time while the
                    // deadline's segment has not passed.
                    let segment_end = SimTime((deadline.as_ps() / SEGMENT_PS + 1) * SEGMENT_PS);
                    self.streams[stream as usize].sent(segment_end, now);
                }
            }
        }
    }

    fn wake_at(&self) -> Option<SimTime> {
        if self.index.is_empty() {
            None
        } else {
            Some(SimTime((self.index.now_ms() + 1) * SEGMENT_PS))
        }
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn memory(&self) -> MemoryAccesses {
        self.mem
    }

    fn explain(
        &self,
        now: SimTime,
        decision: Decision,
        q: &dyn StreamView,
    ) -> Option<crate::np::explain::Explanation> {
        let window = |s: u32| self.streams[s as usize].window;
        let note = match decision {
            Decision::Send(s) => q.head(s).map(|head| self.slot_note(s, head.deadline)),
            _ => None,
        }
        .unwrap_or_default();
        crate::np::dwcs_explain::explain(now, decision, q, &window, "DWCS (HILQ)", &note)
    }

    fn window(&self, stream: u32) -> Window {
        self.streams[stream as usize].window
    }

    fn violations(&self, stream: u32) -> u64 {
        self.streams[stream as usize].violations
    }

    fn fault(&self) -> Option<String> {
        self.index.check().err()
    }
}
