//! DWCS in the decision animation: the words and candidates of a send, shared by the heap
//! and HILQ (each implements `NpScheduler::explain` with one call here).

use super::contract::{Decision, StreamView};
use super::dwcs::Window;
use super::explain::{Explanation, MAX_CANDIDATES, NpCandidate, NpValue};
use crate::time::{PS_PER_NS, SimTime};

fn us(t: SimTime) -> f64 {
    t.as_ps() as f64 / PS_PER_NS as f64 / 1000.0
}

/// The account of `decision` (a send) by a DWCS scheduler named `who`, whose current
/// windows `window` gives; `note` is appended (HILQ's approximation).
pub fn explain(
    now: SimTime,
    decision: Decision,
    q: &dyn StreamView,
    window: &dyn Fn(u32) -> Window,
    who: &str,
    note: &str,
) -> Option<Explanation> {
    let Decision::Send(s) = decision else {
        return None;
    };
    let head = q.head(s)?;
    let mut heads: Vec<(SimTime, u64, u32)> = (0..q.streams() as u32)
        .filter_map(|i| {
            q.head(i).map(|h| {
                let w = window(i);
                // x'/y' as a sortable fixed-point ratio (display order only).
                let r = if w.yc == 0 {
                    0
                } else {
                    u64::from(w.xc) * 1_000_000 / u64::from(w.yc)
                };
                (h.deadline, r, i)
            })
        })
        .collect();
    heads.sort();
    let tied = heads.iter().filter(|h| h.0 == head.deadline).count();
    let w = window(s);
    let timing = if head.deadline >= now {
        format!("on time ({:.3} µs to spare)", us(head.deadline) - us(now))
    } else {
        format!("late by {:.3} µs", us(now) - us(head.deadline))
    };
    let mut words = format!(
        "{who}: the server is free; of {} head packets, stream {s}'s goes: deadline {:.3} µs (the latest its service may start), {timing}.",
        heads.len(),
        us(head.deadline)
    );
    if tied > 1 {
        words.push_str(&format!(
            " {tied} heads share that deadline, so the current windows decide: lowest x′/y′ first (then the zero-constraint rule, then lowest x′); stream {s} has x′/y′ = {}/{}.",
            w.xc, w.yc
        ));
    } else {
        words.push_str(" It has the earliest deadline.");
    }
    words.push_str(&format!(
        " Its window x/y = {}/{} stands at x′/y′ = {}/{}: {}",
        w.x,
        w.y,
        w.xc,
        w.yc,
        if head.deadline >= now {
            "an on-time packet takes one from y′ (if y′ > x′)."
        } else if w.xc > 0 {
            "a miss takes one from x′ and y′."
        } else {
            "a miss with x′ = 0 is a window violation: y′ grows."
        }
    ));
    if !note.is_empty() {
        words.push(' ');
        words.push_str(note);
    }
    let candidates = heads
        .iter()
        .take(MAX_CANDIDATES)
        .map(|&(d, _, i)| NpCandidate {
            stream: i,
            key: us(d),
        })
        .collect();
    Some(Explanation {
        words,
        key_name: "deadline (µs)".to_string(),
        candidates,
        values: vec![
            NpValue {
                name: "now (µs)".to_string(),
                value: us(now),
            },
            NpValue {
                name: "x′".to_string(),
                value: f64::from(w.xc),
            },
            NpValue {
                name: "y′".to_string(),
                value: f64::from(w.yc),
            },
        ],
    })
}
