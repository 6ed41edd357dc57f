//! DWCS (dynamic window-constrained scheduling): the window state of a stream, its
//! adjustment after a packet is served or missed, and the precedence between two head
//! packets (`shared/spec/40-network-processors.md`). Both implementations (the exact
//! heap and the constant-time HILQ) use these rules; they differ in how they find the
//! packet that precedes all others.

use std::cmp::Ordering;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::time::SimTime;

/// How two heads with equal deadlines and both current window constraints zero are
/// ordered (precedence rule 3; the sources disagree, so it is a visible option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ZeroTie {
    /// The stream with the larger current window denominator y' goes first (more packets
    /// of its window must still be on time).
    #[default]
    HighestYFirst,
    /// The stream with the smaller y' goes first (closest to the end of its window).
    LowestYFirst,
}

/// The window constraint of one stream: at most `x` late or lost packets in any `y`
/// consecutive ones, and the current values `x'`, `y'` the scheduler works with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Original numerator (late or lost packets allowed per window).
    pub x: u32,
    /// Original denominator (window length in packets, at least 1).
    pub y: u32,
    /// Current numerator x'.
    pub xc: u32,
    /// Current denominator y' (may grow past `y` after violations).
    pub yc: u32,
}

/// What a missed deadline did to the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Miss {
    /// The window allowed it (x' was above 0).
    Tolerated,
    /// x' was already 0: a window violation.
    Violation,
}

impl Window {
    /// A fresh window x/y (current values equal the original ones).
    pub fn new(x: u32, y: u32) -> Window {
        Window { x, y, xc: x, yc: y }
    }

    /// Back to the original values once both current ones reach zero.
    fn reset_if_spent(&mut self) {
        if self.xc == 0 && self.yc == 0 {
            self.xc = self.x;
            self.yc = self.y;
        }
    }

    /// A packet of the stream was served before (or at) its deadline:
    /// if y' > x' then y' -= 1; if x' = y' = 0, reset to x, y.
    pub fn on_time(&mut self) {
        if self.yc > self.xc {
            self.yc -= 1;
        }
        self.reset_if_spent();
    }

    /// A packet of the stream missed its deadline (dropped or sent late):
    /// with x' > 0, x' -= 1 and y' -= 1 (reset at 0/0); with x' = 0 a violation, and y'
    /// grows by (y - x) / x (integer) when x > 0, by y when x = 0.
    pub fn miss(&mut self) -> Miss {
        if self.xc > 0 {
            self.xc -= 1;
            self.yc = self.yc.saturating_sub(1);
            self.reset_if_spent();
            Miss::Tolerated
        } else {
            let grow = (self.y - self.x.min(self.y))
                .checked_div(self.x)
                .unwrap_or(self.y);
            self.yc = self.yc.saturating_add(grow);
            Miss::Violation
        }
    }

    /// The current constraint x'/y' compared with another's, exactly (cross products;
    /// y' = 0 only with x' = 0, which counts as 0).
    pub fn cmp_constraint(&self, other: &Window) -> Ordering {
        let a = u64::from(self.xc) * u64::from(other.yc.max(1));
        let b = u64::from(other.xc) * u64::from(self.yc.max(1));
        a.cmp(&b)
    }
}

/// A head packet as the precedence rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeadKey {
    /// The packet's deadline (latest time its service may start).
    pub deadline: SimTime,
    /// Its stream's window.
    pub window: Window,
    /// When the packet arrived (rule 5: first come, first served).
    pub arrival: SimTime,
    /// The stream (the last tie-break, so the order is total and runs repeat).
    pub stream: u32,
}

/// Which of two heads goes first (`Less`: `a` precedes `b`):
/// 1. earliest deadline; 2. lowest current constraint x'/y'; 3. both constraints zero:
///    by y' in the direction of `tie`; 4. equal non-zero constraints: lowest x';
/// 5. first come, first served (then the lower stream number).
pub fn precedence(a: &HeadKey, b: &HeadKey, tie: ZeroTie) -> Ordering {
    a.deadline
        .cmp(&b.deadline)
        .then_with(|| a.window.cmp_constraint(&b.window))
        .then_with(|| {
            if a.window.xc == 0 && b.window.xc == 0 {
                match tie {
                    ZeroTie::HighestYFirst => b.window.yc.cmp(&a.window.yc),
                    ZeroTie::LowestYFirst => a.window.yc.cmp(&b.window.yc),
                }
            } else {
                a.window.xc.cmp(&b.window.xc)
            }
        })
        .then_with(|| a.arrival.cmp(&b.arrival))
        .then_with(|| a.stream.cmp(&b.stream))
}

/// The window constraint that rule 2 compares, for the animation and results: x'/y'.
pub fn constraint(w: &Window) -> f64 {
    if w.yc == 0 {
        0.0
    } else {
        f64::from(w.xc) / f64::from(w.yc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(x: u32, y: u32, xc: u32, yc: u32) -> Window {
        Window { x, y, xc, yc }
    }

    #[test]
    fn on_time_with_room_shrinks_the_window() {
        let mut a = Window::new(2, 5);
        a.on_time();
        assert_eq!(a, w(2, 5, 2, 4));
    }

    #[test]
    fn on_time_with_x_equal_y_changes_nothing() {
        let mut a = w(2, 5, 1, 1);
        a.on_time();
        assert_eq!(a, w(2, 5, 1, 1));
    }

    #[test]
    fn on_time_reaching_zero_resets() {
        // x = 0: y' counts down to 0 and the window starts again.
        let mut a = w(0, 3, 0, 1);
        a.on_time();
        assert_eq!(a, w(0, 3, 0, 3));
        // A whole window of on-time packets for 0/3: 3 -> 2 -> 1 -> reset.
        let mut b = Window::new(0, 3);
        for _ in 0..3 {
            b.on_time();
        }
        assert_eq!(b, Window::new(0, 3));
    }

    #[test]
    fn tolerated_miss_takes_from_both() {
        let mut a = Window::new(2, 5);
        assert_eq!(a.miss(), Miss::Tolerated);
        assert_eq!(a, w(2, 5, 1, 4));
    }

    #[test]
    fn tolerated_miss_reaching_zero_resets() {
        let mut a = w(3, 7, 1, 1);
        assert_eq!(a.miss(), Miss::Tolerated);
        assert_eq!(a, Window::new(3, 7));
    }

    #[test]
    fn violation_with_x_above_zero_grows_y_by_y_minus_x_over_x() {
        let mut a = w(2, 7, 0, 3);
        assert_eq!(a.miss(), Miss::Violation);
        // (7 - 2) / 2 = 2 (integer division).
        assert_eq!(a, w(2, 7, 0, 5));
        let mut b = w(3, 4, 0, 1);
        assert_eq!(b.miss(), Miss::Violation);
        // (4 - 3) / 3 = 0.
        assert_eq!(b, w(3, 4, 0, 1));
    }

    #[test]
    fn violation_with_x_zero_grows_y_by_y() {
        let mut a = w(0, 4, 0, 2);
        assert_eq!(a.miss(), Miss::Violation);
        assert_eq!(a, w(0, 4, 0, 6));
    }

    /// A hand-computed sequence for 1/3: on time, miss, on time, on time, miss, miss.
    #[test]
    fn a_hand_computed_sequence() {
        let mut a = Window::new(1, 3);
        a.on_time(); // (1,2)
        assert_eq!((a.xc, a.yc), (1, 2));
        assert_eq!(a.miss(), Miss::Tolerated); // (0,1)
        assert_eq!((a.xc, a.yc), (0, 1));
        a.on_time(); // y' > x': (0,0) -> reset (1,3)
        assert_eq!((a.xc, a.yc), (1, 3));
        a.on_time(); // (1,2)
        assert_eq!(a.miss(), Miss::Tolerated); // (0,1)
        assert_eq!(a.miss(), Miss::Violation); // y' += (3-1)/1 = 2 -> (0,3)
        assert_eq!((a.xc, a.yc), (0, 3));
    }

    fn key(deadline: u64, window: Window, arrival: u64, stream: u32) -> HeadKey {
        HeadKey {
            deadline: SimTime(deadline),
            window,
            arrival: SimTime(arrival),
            stream,
        }
    }

    #[test]
    fn rule_1_earliest_deadline_first() {
        let a = key(10, w(0, 1, 0, 1), 5, 1);
        let b = key(20, w(5, 10, 0, 10), 0, 0);
        assert_eq!(precedence(&a, &b, ZeroTie::default()), Ordering::Less);
        assert_eq!(precedence(&b, &a, ZeroTie::default()), Ordering::Greater);
    }

    #[test]
    fn rule_2_lowest_constraint_first() {
        // 1/4 = 0.25 before 1/3 = 0.33 at the same deadline, whatever the arrival.
        let a = key(10, w(1, 4, 1, 4), 9, 1);
        let b = key(10, w(1, 3, 1, 3), 0, 0);
        assert_eq!(precedence(&a, &b, ZeroTie::default()), Ordering::Less);
        // 0/5 before 1/9.
        let c = key(10, w(1, 9, 0, 5), 9, 1);
        let d = key(10, w(1, 9, 1, 9), 0, 0);
        assert_eq!(precedence(&c, &d, ZeroTie::default()), Ordering::Less);
    }

    #[test]
    fn rule_3_zero_constraints_by_y_in_the_chosen_direction() {
        let a = key(10, w(0, 8, 0, 8), 9, 1);
        let b = key(10, w(0, 3, 0, 3), 0, 0);
        assert_eq!(precedence(&a, &b, ZeroTie::HighestYFirst), Ordering::Less);
        assert_eq!(precedence(&a, &b, ZeroTie::LowestYFirst), Ordering::Greater);
    }

    #[test]
    fn rule_4_equal_non_zero_constraints_lowest_x_first() {
        // 1/2 and 2/4 are equal; the one with x' = 1 goes first.
        let a = key(10, w(3, 6, 2, 4), 0, 0);
        let b = key(10, w(1, 2, 1, 2), 9, 1);
        assert_eq!(precedence(&b, &a, ZeroTie::default()), Ordering::Less);
    }

    #[test]
    fn rule_5_first_come_first_served() {
        let a = key(10, w(1, 2, 1, 2), 3, 7);
        let b = key(10, w(1, 2, 1, 2), 4, 2);
        assert_eq!(precedence(&a, &b, ZeroTie::default()), Ordering::Less);
        // Same arrival: the lower stream number, so the order is total.
        let c = key(10, w(1, 2, 1, 2), 3, 2);
        assert_eq!(precedence(&c, &a, ZeroTie::default()), Ordering::Less);
        assert_eq!(precedence(&a, &a, ZeroTie::default()), Ordering::Equal);
    }
}
