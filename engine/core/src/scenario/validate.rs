//! Every rule a scenario must satisfy, checked at once so the user sees all problems.
//!
//! Each message names the rule and, where useful, the offending value. Paths use the
//! JSON layout (`model.classes[2].traffic.load`). The limits keep every accepted
//! scenario runnable: no panic, no hang, bounded memory.

use super::rules::{
    ClassRef, MAX_BUFFER_BYTES, MAX_BURST_PACKETS, MAX_CLASSES, MAX_DURATION_US, MAX_LOAD,
    MAX_SEED, MIN_PERIOD_US, Problems, validate_class_name, validate_size,
};
use super::{ArrivalConfig, LinkLabConfig, Model, Scenario};
use crate::error::EngineError;

/// Checks every rule; returns all problems found.
pub fn validate(s: &Scenario) -> Result<(), EngineError> {
    let mut p = Problems::default();
    if s.name.trim().is_empty() {
        p.add("name", "must not be empty");
    } else if s.name.chars().count() > 200 {
        p.add("name", "must be at most 200 characters");
    }
    if s.description.chars().count() > 10_000 {
        p.add("description", "must be at most 10000 characters");
    }
    if s.seed > MAX_SEED {
        p.add(
            "seed",
            format!(
                "must be between 0 and 2^53 - 1 = {MAX_SEED} (got {})",
                s.seed
            ),
        );
    }
    if s.duration_us == 0 || s.duration_us > MAX_DURATION_US {
        p.add(
            "duration_us",
            format!(
                "must be between 1 and {MAX_DURATION_US} microseconds (got {})",
                s.duration_us
            ),
        );
    }
    if s.warmup_us >= s.duration_us {
        p.add(
            "warmup_us",
            format!(
                "must be shorter than duration_us ({} us), or nothing would be measured (got {})",
                s.duration_us, s.warmup_us
            ),
        );
    }
    match &s.model {
        Model::LinkLab(lab) => validate_link_lab(s, lab, &mut p),
        Model::Network(net) => super::network_rules::validate_network(s, net, &mut p),
        Model::NetworkProcessor(np) => {
            super::network_processor::validate_network_processor(s, np, &mut p)
        }
    }
    if p.0.is_empty() {
        Ok(())
    } else {
        Err(EngineError::Invalid { errors: p.0 })
    }
}

fn validate_link_lab(s: &Scenario, lab: &LinkLabConfig, p: &mut Problems) {
    let link = p.rate("model.link.rate_gbps", lab.link.rate_gbps);
    p.rate(
        "model.downstream.drain_rate_gbps",
        lab.downstream.drain_rate_gbps,
    );
    let buffer = lab.downstream.buffer_bytes;
    if !(64..=MAX_BUFFER_BYTES).contains(&buffer) {
        p.add(
            "model.downstream.buffer_bytes",
            format!("must be between 64 (one credit) and {MAX_BUFFER_BYTES} bytes (got {buffer})"),
        );
    }
    if lab.downstream.credit_delay_ns > 1_000_000_000 {
        p.add(
            "model.downstream.credit_delay_ns",
            "must be at most 1000000000 ns (1 s)",
        );
    }

    let n = lab.classes.len();
    if n == 0 || n > MAX_CLASSES {
        p.add(
            "model.classes",
            format!("must hold between 1 and {MAX_CLASSES} classes (got {n})"),
        );
    }
    let (mut expected_packets, mut period_changes) = (0.0, 0.0);
    for (i, class) in lab.classes.iter().enumerate() {
        let at = format!("model.classes[{i}]");
        validate_class_name(
            &at,
            &class.name,
            lab.classes[..i].iter().map(|c| c.name.as_str()),
            p,
        );
        if let Some(drain) = class.drain_rate_gbps {
            p.rate(&format!("{at}.drain_rate_gbps"), drain);
        }
        let t = &class.traffic;
        let load_ok = t.load.is_finite() && (0.0..=MAX_LOAD).contains(&t.load);
        if !load_ok {
            p.add(
                format!("{at}.traffic.load"),
                format!(
                    "must be a fraction of the link rate between 0 and {MAX_LOAD} (got {})",
                    t.load
                ),
            );
        }
        let size_ok = validate_size(&t.size, &format!("{at}.traffic.size"), p);
        if size_ok {
            let mtu = t.size.max_bytes();
            if mtu > buffer && (64..=MAX_BUFFER_BYTES).contains(&buffer) {
                p.add(
                    "model.downstream.buffer_bytes",
                    format!(
                        "must hold at least one packet of every class: class \"{}\" sends up to {mtu} B but the buffer has {buffer} B",
                        class.name
                    ),
                );
            }
        }
        let arrivals_ok = validate_arrivals(&t.arrivals, &format!("{at}.traffic.arrivals"), p);
        if let (true, true, true, Some(link)) = (size_ok, load_ok, arrivals_ok, link) {
            if let Some(work) = super::bounds::link_lab_class_work(&at, t, link, s.duration_us, p) {
                expected_packets += work.packets;
                period_changes += work.period_changes;
            }
        }
    }
    super::bounds::check_work(expected_packets, period_changes, p);

    let classes: Vec<ClassRef<'_>> = lab
        .classes
        .iter()
        .map(|c| ClassRef {
            name: &c.name,
            load: c.traffic.load,
            max_bytes: c.traffic.size.max_bytes(),
        })
        .collect();
    lab.scheduler.validate(&classes, "model.scheduler", p);
}

/// Checks an arrival process; true when it is valid.
pub(super) fn validate_arrivals(arrivals: &ArrivalConfig, at: &str, p: &mut Problems) -> bool {
    let before = p.len();
    match arrivals {
        ArrivalConfig::Constant | ArrivalConfig::Poisson => {}
        ArrivalConfig::OnOff(o) => {
            // Periods below 1 ps (1e-6 us) cannot be simulated in integer picoseconds.
            let on = o.mean_on_us;
            if !(on.is_finite() && (MIN_PERIOD_US..=1.0e9).contains(&on)) {
                p.add(
                    format!("{at}.mean_on_us"),
                    format!(
                        "must be a time in microseconds between {MIN_PERIOD_US} (1 ps) and 1e9 (got {on})"
                    ),
                );
            }
            let off = o.mean_off_us;
            if !(off.is_finite() && (off == 0.0 || (MIN_PERIOD_US..=1.0e9).contains(&off))) {
                p.add(
                    format!("{at}.mean_off_us"),
                    format!(
                        "must be 0 or a time in microseconds between {MIN_PERIOD_US} (1 ps) and 1e9 (got {off})"
                    ),
                );
            }
        }
        ArrivalConfig::Bursts(b) => {
            if !(1..=MAX_BURST_PACKETS).contains(&b.packets) {
                p.add(
                    format!("{at}.packets"),
                    format!(
                        "must be between 1 and {MAX_BURST_PACKETS} packets per burst (got {})",
                        b.packets
                    ),
                );
            }
        }
    }
    p.len() == before
}
