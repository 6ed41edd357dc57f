//! The run-time budget (issue 16, docs/robustness.md): what validation cannot foresee,
//! checked while a run advances. Validation bounds the packets a run generates; an
//! overloaded class still piles them up in its queue, and the events a run processes
//! depend on the packets' paths. [`Run::advance`](crate::Run::advance) processes events in
//! slices of at most [`CHECK_EVERY_EVENTS`] and, after each, checks
//! - the packets held (generated, not yet delivered: queued anywhere or on a link),
//!   whose memory is the packet pool and the queues;
//! - the events processed since the start.
//!
//! A run over budget stops with an [`EngineError::Budget`] that names the figure, its
//! value and the limit; the results so far stay readable.

use crate::error::EngineError;

/// Most packets a run may hold at once (queued or in flight): 4 194 304, about 0.5 GB
/// with the queues' and the pool's bookkeeping (at most [`BYTES_PER_HELD_PACKET`] each).
pub const MAX_PACKETS_HELD: u64 = 1 << 22;
/// Most events a run may process (far above any run validation accepts in practice:
/// 2e8 packets of a few events per hop).
pub const MAX_EVENTS: u64 = 10_000_000_000;
/// Events processed between two checks of the budget.
pub const CHECK_EVERY_EVENTS: u64 = 1 << 16;
/// Memory one held packet may take, in bytes (its pool slot, queue entry and event), for
/// the message only.
pub const BYTES_PER_HELD_PACKET: u64 = 128;

/// The limits of one run and, once one is hit, why the run stopped.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Most packets held at once.
    pub max_packets_held: u64,
    /// Most events processed.
    pub max_events: u64,
    stopped: Option<EngineError>,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::new(MAX_PACKETS_HELD, MAX_EVENTS)
    }
}

impl Budget {
    /// A budget with the given limits (tests and tools use small ones).
    pub fn new(max_packets_held: u64, max_events: u64) -> Budget {
        Budget {
            max_packets_held,
            max_events,
            stopped: None,
        }
    }

    /// Why the run stopped, once it hit the budget.
    pub fn stopped(&self) -> Option<&EngineError> {
        self.stopped.as_ref()
    }

    /// Advances a model by up to `max_events` events in slices, checking the budget after
    /// each. `step(n)` advances by up to `n` events and returns (done, packets held,
    /// events processed). True when the run is complete or stopped.
    pub fn advance(
        &mut self,
        max_events: u64,
        mut step: impl FnMut(u64) -> (bool, u64, u64),
    ) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        let mut left = max_events;
        loop {
            let n = left.min(CHECK_EVERY_EVENTS);
            let (done, held, events) = step(n);
            left -= n;
            if self.check(held, events) || done {
                return true;
            }
            if left == 0 {
                return false;
            }
        }
    }

    /// Records a stop if `held` or `events` is over its limit; true when stopped.
    fn check(&mut self, held: u64, events: u64) -> bool {
        let over = |figure: &str, value: u64, limit: u64, what: String| EngineError::Budget {
            figure: figure.to_string(),
            value,
            limit,
            message: what,
        };
        if held > self.max_packets_held {
            self.stopped = Some(over(
                "packets_held",
                held,
                self.max_packets_held,
                format!(
                    "the run holds {held} packets (about {} MB of packet memory), more than the budget of {} packets: \
                     a class is offered more than its share of the link and its queue grows without bound; \
                     lower its load or shorten the run",
                    held.saturating_mul(BYTES_PER_HELD_PACKET) / 1_000_000,
                    self.max_packets_held
                ),
            ));
        } else if events > self.max_events {
            self.stopped = Some(over(
                "events",
                events,
                self.max_events,
                format!(
                    "the run has processed {events} events, more than the budget of {}; shorten the run or lower the loads",
                    self.max_events
                ),
            ));
        }
        self.stopped.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_at_the_first_figure_over_its_limit_and_stays_stopped() {
        let mut b = Budget::new(10, 1000);
        // Held grows by 4 per slice: 4, 8, 12 -> stopped in the third slice.
        let mut calls = 0;
        let done = b.advance(10 * CHECK_EVERY_EVENTS, |_| {
            calls += 1;
            (false, 4 * calls, 1)
        });
        assert!(done);
        assert_eq!(calls, 3);
        match b.stopped() {
            Some(EngineError::Budget {
                figure,
                value,
                limit,
                ..
            }) => assert_eq!((figure.as_str(), *value, *limit), ("packets_held", 12, 10)),
            other => panic!("{other:?}"),
        }
        assert!(b.advance(1, |_| panic!("advanced after a stop")));
    }

    #[test]
    fn events_over_budget_stop_and_slices_cover_the_request() {
        let mut b = Budget::new(10, 1000);
        let mut asked = Vec::new();
        assert!(!b.advance(CHECK_EVERY_EVENTS + 5, |n| {
            asked.push(n);
            (false, 0, 10)
        }));
        assert_eq!(asked, vec![CHECK_EVERY_EVENTS, 5]);
        assert!(b.advance(1, |_| (false, 0, 1001)));
        assert!(
            matches!(b.stopped(), Some(EngineError::Budget { figure, .. }) if figure == "events")
        );
        // At the limit is not over it.
        let mut b = Budget::new(10, 1000);
        assert!(!b.advance(1, |_| (false, 10, 1000)));
        assert!(b.advance(1, |_| (true, 10, 1000)));
        assert!(b.stopped().is_none());
    }
}
