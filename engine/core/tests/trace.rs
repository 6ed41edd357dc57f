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
        let keep =
            selected.is_some_and(|c| active(d, c) && i64::from(d.queues[c][0].div_ceil(64)) <= acc);
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
        assert_eq!(
            d.registers.entry,
            Some(entry as u32),
            "step {}: entry",
            d.step
        );
        assert_eq!(
            d.registers.accumulated,
            Some(acc),
            "step {}: accumulated",
            d.step
        );
        assert_eq!(
            d.registers.deficit.as_ref(),
            Some(&deficit),
            "step {}: deficits",
            d.step
        );
    }
}

/// Every scheduler can be traced, and shows the registers its animation draws.
#[test]
fn every_scheduler_shows_its_registers() {
    use serde_json::json;
    let entries = |w: u32| {
        (0..4)
            .map(|c| json!({"class": c, "weight": w}))
            .collect::<Vec<_>>()
    };
    let kinds = [
        json!({"kind": "as_basic", "table": (0..32).map(|i| i % 4).collect::<Vec<_>>()}),
        json!({"kind": "iba", "high": entries(34)[..1].to_vec(), "low": entries(34), "high_limit": 1}),
        json!({"kind": "dtable", "table": entries(32)}),
        json!({"kind": "drr", "quanta_bytes": [2048, 2048, 2048, 2048]}),
        json!({"kind": "scfq", "weights": [1, 2, 3, 4]}),
        json!({"kind": "wfq", "weights": [1, 2, 3, 4]}),
        json!({"kind": "wf2q_plus", "weights": [1, 2, 3, 4]}),
        json!({"kind": "sfq", "weights": [1, 2, 3, 4]}),
        json!({"kind": "strict_priority", "priorities": [3, 2, 1, 0]}),
        json!({"kind": "fifo"}),
        json!({"kind": "edf", "deadlines_ns": [1000, 5000, 20000, 100000]}),
    ];
    for scheduler in kinds {
        let kind = scheduler["kind"].as_str().unwrap().to_string();
        let mut doc = common::small(
            &[
                ("a", 0.3, 64),
                ("b", 0.3, 256),
                ("c", 0.3, 1024),
                ("d", 0.3, 2048),
            ],
            32,
            2_000,
        );
        doc["model"]["scheduler"] = scheduler;
        let t = trace(scenario::parse(&doc.to_string()).unwrap(), 300, 100).unwrap();
        assert_eq!(t.scheduler, kind);
        assert_eq!(t.decisions.len(), 300, "{kind}");
        for d in &t.decisions {
            assert!(active(d, d.class as usize), "{kind} step {}", d.step);
            assert_eq!(d.work.decisions, 1, "{kind}");
        }
        let r = &t.decisions[299].registers;
        match kind.as_str() {
            "as_basic" => assert!(r.entry.is_some() && r.selected.is_some() && t.table.len() == 32),
            "iba" => assert!(
                r.high_entry.is_some()
                    && r.low_entry.is_some()
                    && r.remaining_weight.is_some()
                    && r.high_limit_used.is_some()
                    && r.high_limit_bytes == Some(4096)
                    && t.table.len() == 5
            ),
            "dtable" => assert!(r.accumulated.is_some() && r.deficit.is_some()),
            "drr" => assert!(r.deficit.is_some() && r.selected.is_some()),
            "scfq" | "wfq" => assert!(r.virtual_time.is_some() && r.finish_tags.is_some()),
            "wf2q_plus" | "sfq" => assert!(r.start_tags.is_some() && r.finish_tags.is_some()),
            "edf" => assert!(r.deadlines_ns.is_some()),
            _ => {}
        }
        if !matches!(kind.as_str(), "as_basic" | "iba" | "dtable") {
            assert!(t.table.is_empty(), "{kind}");
        }
    }
}
