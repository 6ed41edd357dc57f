//! What both DWCS schedulers keep per stream besides their index structures: the window,
//! whether late heads are dropped, the violations, and the misses already charged to
//! packets still queued (a late packet that is sent late is charged once, when found).

use super::dwcs::{Miss, Window};
use crate::time::SimTime;

/// One stream's DWCS state.
#[derive(Clone, Debug)]
pub struct DwcsStream {
    /// The window constraint and its current values.
    pub window: Window,
    /// Whether late head packets are dropped (else they are sent late).
    pub droppable: bool,
    /// Window violations so far (misses with x' = 0).
    pub violations: u64,
    /// Queued packets already charged a miss (sent late later without a second charge).
    pub charged: u32,
}

impl DwcsStream {
    /// A stream with window x/y.
    pub fn new(x: u32, y: u32, droppable: bool) -> DwcsStream {
        DwcsStream {
            window: Window::new(x, y),
            droppable,
            violations: 0,
            charged: 0,
        }
    }

    /// Applies the miss rule to `window` and stores the result, counting a violation.
    pub fn miss_from(&mut self, mut window: Window) {
        if window.miss() == Miss::Violation {
            self.violations += 1;
        }
        self.window = window;
    }

    /// A packet with `deadline` was sent at `now`: on time, late (charged now), or late and
    /// already charged when it was found late.
    pub fn sent(&mut self, deadline: SimTime, now: SimTime) {
        if self.charged > 0 {
            self.charged -= 1;
        } else if deadline >= now {
            self.window.on_time();
        } else {
            self.miss_from(self.window);
        }
    }
}

/// The streams of a node as the schedulers build them: `(x, y, droppable)` per stream.
pub type StreamSpec = (u32, u32, bool);
