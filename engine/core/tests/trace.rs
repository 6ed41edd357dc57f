//! Decision traces: complete, deterministic, and consistent with the spec's DTable
//! pseudocode replayed independently on what the trace says the port looked like.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use common::default_preset;
use qoslab_core::scenario;
use qoslab_core::trace::{Decision, MAX_TRACE_DECISIONS, Trace, trace};

fn default_trace(decisions: u32, from_us: u64) -> Trace {
    let s = scenario::parse(&default_preset().to_string()).unwrap();
    trace(s, decisions, from_us).unwrap()
}

/// Whether class `c` could send in the port state recorded before decision `d`.
fn active(d: &Decision, c: usize) -> bool {
    d.queue_lengths[c] > 0 && d.queues[c][0].div_ceil(64) <= d.free_credits[c]
}

#[test]
fn records_what_was_asked_from_where_it_was_asked() {
    let t = default_trace(300, 5_000);
    assert_eq!(t.decisions.len(), 300);
    assert_eq!(t.scheduler, "dtable");
    assert_eq!(t.classes.len(), 4);
    assert_eq!(t.table.len(), 8);
    assert_eq!(t.from_ns, 5_000_000.0);
    for (k, d) in t.decisions.iter().enumerate() {
        assert_eq!(d.step as usize, k);
        assert!(d.time_ns >= t.from_ns);
        assert!(d.end_ns > d.time_ns);
        if k > 0 {
            // One link: a packet starts only after the previous one has left.
            assert!(d.time_ns >= t.decisions[k - 1].end_ns);
        }
        let c = d.class as usize;
        assert!(active(d, c), "step {k}: chose an inactive class");
        assert_eq!(d.queues[c][0], d.bytes, "step {k}: not the head packet");
        assert_eq!(d.credits, d.bytes.div_ceil(64));
        assert_eq!(d.work.decisions, 1);
    }
}

#[test]
fn is_deterministic_and_capped() {
    assert_eq!(default_trace(50, 0), default_trace(50, 0));
    let huge = default_trace(u32::MAX, 0);
    assert_eq!(huge.decisions.len(), MAX_TRACE_DECISIONS as usize);
}

#[test]
fn ends_early_when_the_run_ends() {
    let mut doc = default_preset();
    doc["duration_us"] = serde_json::json!(20);
    doc["warmup_us"] = serde_json::json!(0);
    let t = trace(scenario::parse(&doc.to_string()).unwrap(), 5_000, 0).unwrap();
    assert!(!t.decisions.is_empty() && t.decisions.len() < 5_000);
}

/// Replays the spec's DTable pseudocode on the port states the trace recorded and checks
/// every decision: the entry, the class, the accumulated register and the deficits.
#[test]
fn dtable_registers_follow_the_spec_pseudocode() {
    let t = default_trace(2_000, 1_000);
    let n = t.table.len();
    let classes = t.classes.len();
    let mut entry = t.initial.entry.map_or(n - 1, |e| e as usize);
    let mut selected: Option<usize> = t.initial.selected.map(|c| c as usize);
    let mut acc: i64 = t.initial.accumulated.unwrap();
    let mut deficit: Vec<i64> = t.initial.deficit.clone().unwrap();
    assert_eq!(deficit.len(), classes);
    for d in &t.decisions {
        let keep = selected.is_some_and(|c| {
            active(d, c) && i64::from(d.queues[c][0].div_ceil(64)) <= acc
        });
        if !keep {
            if let Some(c) = selected {
                deficit[c] = acc;
            }
            entry = (1..=n)
                .map(|k| (entry + k) % n)
                .find(|&e| active(d, t.table[e].class as usize))
                .expect("a decision was made, so some class was active");
            let c = t.table[entry].class as usize;
            selected = Some(c);
            acc = deficit[c] + i64::from(t.table[entry].weight.unwrap());
        }
        let c = selected.unwrap();
        acc -= i64::from(d.credits);
        // After sending: empty, or the next head no longer fits the credits -> forfeit.
        let left = d.queue_lengths[c] - 1;
        let free_after = d.free_credits[c] - d.credits;
        let still_active = left > 0 && d.queues[c][1].div_ceil(64) <= free_after;
        if !still_active {
            acc = 0;
        }
        assert_eq!(d.class as usize, c, "step {}: class", d.step);
        assert_eq!(d.registers.entry, Some(entry as u32), "step {}: entry", d.step);
        assert_eq!(d.registers.accumulated, Some(acc), "step {}: accumulated", d.step);
        assert_eq!(d.registers.deficit.as_ref(), Some(&deficit), "step {}: deficits", d.step);
    }
}
