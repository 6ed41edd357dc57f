//! Credit returns kept in the upstream port: an event only when the port waits for them.
//!
//! A credit return (`credit_delay` > 0) used to be an event at `now + credit_delay`: give
//! the credits back to the upstream output port, then try to send. That event only
//! matters at its own place in the event order when the port, at that place, is idle with
//! packets queued (*waiting*): its try may send. Otherwise it gives credits to a busy port
//! (which reads none until its link frees), or tries an idle port with nothing queued
//! (the scheduler is asked and finds nothing: only its cost counters and state change,
//! the same whenever it is asked, given the same time and the same port).
//!
//! So the return takes the insertion number its event would have had
//! ([`EventQueue::reserve`](crate::kernel::EventQueue::reserve)) and waits in the port's
//! list of pending credits, in (time, number) order (times are `now + credit_delay`, so
//! the list is a FIFO). Before the fabric touches a port (tries to send, queues a
//! packet, frees its link) it *settles* it: every pending credit whose (time, number) is
//! at or before the event being processed is replayed in order, as its event would have
//! run: credits back, and, when the port is idle, a try at the credit's time. Between
//! two touches nothing changes a port, so a replayed try sees what the event would have
//! seen. And whenever a try leaves the port waiting with credits pending, a wake-up is
//! scheduled with the first pending credit's (time, number)
//! ([`EventQueue::schedule_reserved`](crate::kernel::EventQueue::schedule_reserved)):
//! the event pops exactly where the credit's event would have. A replay therefore never
//! finds the port waiting (checked in debug builds).
//!
//! Results are unchanged: the same sends at the same places, the same scheduler calls,
//! and `events` counts every credit return (a replayed one adds one, like its event).
//! At the end of the run the credits due by then are replayed. A run stopped early
//! (budget) or read part-way may hold credits not yet replayed.

use std::collections::VecDeque;

use super::{Event, NetworkSim};
use crate::time::SimTime;

/// A credit return not yet handled: its would-be event's (time, insertion number), and
/// what it gives back.
#[derive(Clone, Copy, Debug)]
pub(super) struct PendingCredit {
    at: u64,
    seq: u64,
    lane: u16,
    credits: u16,
}

/// Per global port, the pending credit returns and the insertion number of the wake-up
/// scheduled for it (0: none; numbers start at 1).
#[derive(Debug, Default)]
pub(super) struct PendingCredits {
    queues: Vec<VecDeque<PendingCredit>>,
    wake: Vec<u64>,
    /// Credit returns handled in the port (replayed without their event).
    pub(super) folded: u64,
    /// Tests' oracle: every credit return gets its event (a wake-up at its place), as
    /// before credits were kept in the port.
    #[cfg(test)]
    pub(super) eager: bool,
}

impl PendingCredits {
    /// None pending, for `ports` global ports.
    pub(super) fn new(ports: usize) -> PendingCredits {
        PendingCredits {
            queues: vec![VecDeque::new(); ports],
            wake: vec![0; ports],
            folded: 0,
            #[cfg(test)]
            eager: false,
        }
    }
}

impl NetworkSim {
    /// `credits` of `lane` go back to output port `port` at `now + credit_delay`.
    pub(super) fn return_credits(&mut self, now: SimTime, port: u32, lane: u16, credits: u16) {
        let seq = self.events.reserve();
        let at = (now + self.credit_delay).as_ps();
        self.pending.queues[port as usize].push_back(PendingCredit {
            at,
            seq,
            lane,
            credits,
        });
        let out = &mut self.ports[port as usize];
        out.credits_due = out.credits_due.min(at);
        #[cfg(test)]
        if self.pending.eager {
            self.events
                .schedule_reserved(SimTime(at), seq, Event::Wake { port });
            return;
        }
        self.arm_wake(port);
    }

    /// Replays the credit returns of `port` due at or before the event being processed.
    #[inline]
    pub(super) fn settle(&mut self, port: u32) {
        let (now, seq) = self.events.position();
        if self.ports[port as usize].credits_due <= now.as_ps() {
            self.settle_until(port, (now.as_ps(), seq));
        }
    }

    /// Replays, in order, the credit returns of `port` whose (time, number) is at or
    /// before `key`.
    fn settle_until(&mut self, port: u32, key: (u64, u64)) {
        let g = port as usize;
        let current = self.events.position().1;
        while let Some(&c) = self.pending.queues[g].front() {
            if (c.at, c.seq) > key {
                break;
            }
            self.pending.queues[g].pop_front();
            self.ports[g].credits_due = self.pending.queues[g].front().map_or(u64::MAX, |c| c.at);
            if c.seq != current {
                // Its own wake-up is an event already counted.
                self.pending.folded += 1;
            }
            let out = &mut self.ports[g];
            out.credits
                .give_back(usize::from(c.lane), u32::from(c.credits));
            if !out.busy {
                debug_assert!(
                    c.seq == current || !out.queues.iter().any(|q| !q.is_empty()),
                    "a credit due while its port waited was not woken"
                );
                self.send_now(SimTime(c.at), port);
            }
        }
    }

    /// A wake-up of `port`: its first pending credit is due now.
    pub(super) fn wake(&mut self, port: u32) {
        self.pending.wake[port as usize] = 0;
        self.settle(port);
    }

    /// If `port` waits (idle, packets queued) with credits pending, makes sure a wake-up
    /// is scheduled at the first pending credit's place.
    pub(super) fn arm_wake(&mut self, port: u32) {
        #[cfg(test)]
        if self.pending.eager {
            return;
        }
        let g = port as usize;
        let out = &self.ports[g];
        if out.busy || out.credits_due == u64::MAX || out.queues.iter().all(|q| q.is_empty()) {
            return;
        }
        let Some(first) = self.pending.queues[g].front() else {
            return;
        };
        if self.pending.wake[g] == first.seq {
            return;
        }
        self.pending.wake[g] = first.seq;
        self.events
            .schedule_reserved(SimTime(first.at), first.seq, Event::Wake { port });
    }

    /// At the end of the run: replays every credit return due by its end.
    pub(super) fn settle_all(&mut self) {
        let end = self.window.end.as_ps();
        for port in 0..self.ports.len() as u32 {
            self.settle_until(port, (end, u64::MAX));
        }
    }
}
