//! The work estimate of a run (issue 16, docs/robustness.md): every accepted scenario
//! runs in bounded time. Per class it checks that the gap between packets is a finite
//! number of picoseconds, at least 1, and adds up the packets the run will generate and
//! the other per-packet work (on/off period changes), with every floor the generators
//! apply (video frames of at least 1 byte, at least one packet per frame). An estimate
//! that is not a number counts as over the limit.

use super::rules::{MAX_EXPECTED_PACKETS, Problems};
use super::{ArrivalConfig, Model, Scenario, TrafficConfig};
use crate::time::{BitRate, PS_PER_S, PS_PER_US};
use crate::traffic::config::ClassTrafficConfig;
use crate::traffic::generators::{GeneratorConfig, GeneratorWork};
use serde::Serialize;
use ts_rs::TS;

/// The expected work of one link-lab class over a run.
pub(super) struct Work {
    /// Packets generated.
    pub packets: f64,
    /// On/off period changes drawn (each a pair of random draws).
    pub period_changes: f64,
}

/// Mean gap in picoseconds between packets of `mean_bytes` offered at `load` of `link`.
fn mean_gap_ps(load: f64, link: BitRate, mean_bytes: f64) -> f64 {
    mean_bytes * 8.0 * PS_PER_S as f64 / (load * link.bits_per_s() as f64)
}

/// Refuses a load whose mean gap is not a finite number of picoseconds, at least 1.
fn check_gap(at: &str, load: f64, gap_ps: f64, p: &mut Problems) -> bool {
    if gap_ps.is_finite() && gap_ps >= 1.0 {
        return true;
    }
    let why = if gap_ps.is_finite() {
        format!("a mean gap between packets of {gap_ps:.3e} ps, below 1 ps")
    } else {
        "an infinite mean gap between packets (the load is too small to be represented)".to_string()
    };
    p.add(
        format!("{at}.traffic.load"),
        format!("{load:e} gives {why}; use 0 for a silent class or a load that gives a gap of 1 ps to 1e300 ps"),
    );
    false
}

/// The work of a valid link-lab class at `at` (`model.classes[i]`); None (with a problem
/// added) when its gaps cannot be simulated.
pub(super) fn link_lab_class_work(
    at: &str,
    t: &TrafficConfig,
    link: BitRate,
    duration_us: u64,
    p: &mut Problems,
) -> Option<Work> {
    if t.load == 0.0 {
        return Some(Work {
            packets: 0.0,
            period_changes: 0.0,
        });
    }
    let mean = t.size.mean_bytes();
    let gap = mean_gap_ps(t.load, link, mean);
    if !check_gap(at, t.load, gap, p) {
        return None;
    }
    let packets = duration_us as f64 * PS_PER_US as f64 / gap;
    let mut period_changes = 0.0;
    if let ArrivalConfig::OnOff(o) = &t.arrivals {
        // Gaps at the peak rate, on the on clock.
        let peak_gap = gap * o.mean_on_us / (o.mean_on_us + o.mean_off_us);
        if peak_gap.is_nan() || peak_gap < 1.0 {
            p.add(
                format!("{at}.traffic.arrivals.mean_on_us"),
                format!(
                    "with mean_off_us {} the peak rate gives a mean gap between packets of {peak_gap:.3e} ps during on periods, below 1 ps; lengthen the on periods",
                    o.mean_off_us
                ),
            );
            return None;
        }
        // Each gap crosses about peak_gap / on periods, at most MAX_PERIODS_PER_GAP.
        let per_packet = (peak_gap / (o.mean_on_us * PS_PER_US as f64))
            .min(f64::from(crate::traffic::source::MAX_PERIODS_PER_GAP));
        period_changes = packets * per_packet;
    }
    Some(Work {
        packets,
        period_changes,
    })
}

/// Packets one end point generates in a class of a network over a run, counting every
/// packet a message is split into when the class has an MTU (`mtu`); None (with a
/// problem added) when its gaps cannot be simulated.
pub(super) fn network_class_packets(
    at: &str,
    t: &ClassTrafficConfig,
    mtu: Option<u32>,
    link: BitRate,
    duration_us: u64,
    p: &mut Problems,
) -> Option<f64> {
    if t.load == 0.0 {
        return Some(0.0);
    }
    let seconds = duration_us as f64 / 1.0e6;
    let per_s = match t.generator.work(t.load, link) {
        GeneratorWork::Groups { packets, bytes } => {
            let gap = mean_gap_ps(t.load, link, bytes);
            if !check_gap(at, t.load, gap, p) {
                return None;
            }
            packets * PS_PER_S as f64 / gap
        }
        GeneratorWork::PerSecond(per_s) => per_s,
    };
    Some(per_s * seconds * packets_per_message(&t.generator, mtu))
}

/// Upper estimate of the packets a message of `g` is split into with an MTU of `mtu`
/// bytes: `ceil(size / mtu)` is below `size / mtu + 1`, so at most `mean / mtu + 1` on
/// average, and never more than `ceil(largest / mtu)`. 1 without an MTU.
pub(super) fn packets_per_message(g: &GeneratorConfig, mtu: Option<u32>) -> f64 {
    let Some(mtu) = mtu.filter(|&m| m > 0) else {
        return 1.0;
    };
    let mtu = f64::from(mtu);
    let most = libm::ceil(f64::from(g.max_packet_bytes()) / mtu).max(1.0);
    (g.mean_packet_bytes() / mtu + 1.0).min(most)
}

/// Refuses a run whose estimated work is over the limit (or not a number).
pub(super) fn check_work(packets: f64, period_changes: f64, p: &mut Problems) {
    let total = packets + period_changes;
    if total <= MAX_EXPECTED_PACKETS {
        return;
    }
    let what = if period_changes > 0.0 {
        format!("about {packets:.3e} packets and {period_changes:.3e} on/off period changes")
    } else {
        format!("about {packets:.3e} packets")
    };
    p.add(
        "duration_us",
        format!(
            "the run would generate {what}, more than the limit of {MAX_EXPECTED_PACKETS:.0e} (an estimate that is not a number counts as over); \
             shorten the run or lower the loads"
        ),
    );
}

/// The work a valid scenario's run is expected to do, as validation estimates it (the
/// figure it holds against its limit): shown before a run so a long one is no surprise.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct WorkEstimate {
    /// Packets the run is expected to generate (all classes and end points).
    pub packets: f64,
    /// On/off period changes drawn (link-lab on/off sources; 0 for networks).
    pub period_changes: f64,
    /// The most `packets + period_changes` validation accepts.
    pub limit: f64,
}

/// The work estimate of a scenario, with the helpers validation uses (for a scenario that
/// does not validate the figures are partial: classes it refuses count nothing).
pub fn work_estimate(s: &Scenario) -> WorkEstimate {
    let mut scratch = Problems::default();
    let (mut packets, mut period_changes) = (0.0, 0.0);
    match &s.model {
        Model::LinkLab(lab) => {
            if let Some(link) = BitRate::from_gbps(lab.link.rate_gbps) {
                for (i, class) in lab.classes.iter().enumerate() {
                    let at = format!("model.classes[{i}]");
                    let work =
                        link_lab_class_work(&at, &class.traffic, link, s.duration_us, &mut scratch);
                    if let Some(w) = work {
                        packets += w.packets;
                        period_changes += w.period_changes;
                    }
                }
            }
        }
        Model::Network(net) => {
            let link = BitRate::from_gbps(net.link.rate_gbps);
            let end_points = net.topology.try_build().map_or(0, |t| t.end_points());
            if let Some(link) = link {
                for (i, class) in net.classes.iter().enumerate() {
                    let at = format!("model.classes[{i}]");
                    let per_end_point = network_class_packets(
                        &at,
                        &class.traffic,
                        class.mtu_bytes,
                        link,
                        s.duration_us,
                        &mut scratch,
                    );
                    packets += per_end_point.unwrap_or(0.0) * f64::from(end_points);
                }
            }
        }
        Model::NetworkProcessor(_) => {}
    }
    if let Model::NetworkProcessor(np) = &s.model {
        // One arrival per stream and period (validation refuses periods it cannot run).
        packets = np
            .streams
            .iter()
            .filter(|g| g.period_us.is_finite() && g.period_us > 0.0)
            .map(|g| f64::from(g.count) * s.duration_us as f64 / g.period_us)
            .sum();
    }
    WorkEstimate {
        packets,
        period_changes,
        limit: MAX_EXPECTED_PACKETS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An estimate that is not a number is over the limit (defect 2 of issue 16).
    #[test]
    fn a_nan_estimate_is_over_the_limit() {
        let mut p = Problems::default();
        check_work(f64::NAN, 0.0, &mut p);
        assert_eq!(p.len(), 1);
        let mut p = Problems::default();
        check_work(1.0e6, 0.0, &mut p);
        assert_eq!(p.len(), 0);
        check_work(1.0e8, 1.5e8, &mut p);
        assert_eq!(p.len(), 1);
    }

    /// The estimate is the figure validation holds against the limit: a run just under it
    /// is accepted and one just over it refused (for a link lab and for a network).
    #[test]
    fn the_estimate_is_the_figure_validation_checks() {
        let link_lab = include_str!("../../../../public/presets/default.json");
        let network = include_str!("../../tests/data/network-r2.json");
        for json in [link_lab, network] {
            let s = super::super::parse(json).unwrap();
            let e = work_estimate(&s);
            assert!(e.packets > 0.0 && e.limit == MAX_EXPECTED_PACKETS);
            let per_us = (e.packets + e.period_changes) / s.duration_us as f64;
            let at = |duration_us: u64| {
                let mut t = s.clone();
                t.duration_us = duration_us;
                let work = work_estimate(&t);
                (
                    work.packets + work.period_changes,
                    super::super::validate(&t),
                )
            };
            let under = (MAX_EXPECTED_PACKETS / per_us * 0.99) as u64;
            let over = (MAX_EXPECTED_PACKETS / per_us * 1.01) as u64;
            let (w, v) = at(under);
            assert!(w <= MAX_EXPECTED_PACKETS && v.is_ok(), "{w} {v:?}");
            let (w, v) = at(over);
            assert!(w > MAX_EXPECTED_PACKETS, "{w}");
            let refused = format!("{:?}", v.unwrap_err());
            assert!(refused.contains("duration_us"), "{refused}");
        }
    }
}
