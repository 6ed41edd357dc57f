//! What PCFQ and its separate-WFQ baseline share: the options, the per-flow cost
//! prediction (single exponential smoothing of the processing cycles, the resize factor),
//! the virtual clock and the finish-tag formulas (`shared/spec/40-network-processors.md`,
//! "PCFQ exact form").
//!
//! Units: real time in seconds; a flow's predicted CPU cost is turned into seconds of the
//! engine pool (cycles / (k engines x clock)) and its link cost is `8 L lambda / BW`
//! seconds, so both terms of a finish tag, and the virtual time, are seconds per unit of
//! weight.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::spec::NodeFacts;
use crate::problems::Problems;
use crate::time::{PS_PER_S, SimTime};

/// Largest processing cycles of a packet (and largest initial prediction).
pub const MAX_CYCLES: u32 = 100_000_000;

/// Options of PCFQ and of the separate-WFQ baseline.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(deny_unknown_fields)]
pub struct PcfqConfig {
    /// Smoothing factor of the prediction, in (0, 1]: PP <- alpha P + (1 - alpha) PP
    /// (0.4 in the source's simulation, 0.5 on its hardware).
    pub alpha: f64,
    /// Every flow's predicted cycles before its first packet is processed.
    pub initial_prediction_cycles: f64,
    /// How the predicted cost of a packet scales with its length.
    #[serde(default)]
    pub scaling: CostScaling,
}

impl PcfqConfig {
    /// The options, and the engines PCFQ and the separate WFQs need (they schedule the CPU
    /// and the link).
    pub(crate) fn validate(&self, node: &NodeFacts, p: &mut Problems) {
        if !node.engines {
            p.add(
                "model.server",
                format!(
                    "must be processing engines with the {} scheduler (it schedules the CPU and the link; got the link as the server)",
                    node.kind
                ),
            );
        }
        if !(self.alpha.is_finite() && self.alpha > 0.0 && self.alpha <= 1.0) {
            p.add(
                "model.scheduler.alpha",
                format!(
                    "must be a smoothing factor in (0, 1] (0.4 in simulation, 0.5 on hardware; got {})",
                    self.alpha
                ),
            );
        }
        let init = self.initial_prediction_cycles;
        if !(init.is_finite() && (0.0..=f64::from(MAX_CYCLES)).contains(&init)) {
            p.add(
                "model.scheduler.initial_prediction_cycles",
                format!("must be between 0 and {MAX_CYCLES} cycles (got {init})"),
            );
        }
    }
}

/// The scaling factor SF of the expected cost EP = SF x PP.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum CostScaling {
    /// Header processing: SF = 1 (the cost does not depend on the length).
    #[default]
    Header,
    /// Payload processing: SF = L_new / L_old, the packet's length over the length of the
    /// flow's last processed packet (the one the prediction was last updated with).
    Payload,
}

/// One flow's weights and prediction.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowCost {
    /// CPU weight phi_cpu.
    pub phi_cpu: f64,
    /// Bandwidth weight phi_bw.
    pub phi_bw: f64,
    /// Predicted processing cycles PP.
    pub pp: f64,
    /// Resize factor lambda: output length over input length of the last processed
    /// packet (1 until one is processed).
    pub lambda: f64,
    /// Length of the last processed packet (0 until one is processed).
    pub last_len: u32,
}

impl FlowCost {
    /// A flow with weights `phi_cpu`, `phi_bw` and an initial prediction `pp`.
    pub fn new(phi_cpu: f64, phi_bw: f64, pp: f64) -> FlowCost {
        FlowCost {
            phi_cpu,
            phi_bw,
            pp,
            lambda: 1.0,
            last_len: 0,
        }
    }

    /// The prediction after a processed packet: PP <- alpha P + (1 - alpha) PP; lambda
    /// becomes its output length over its input length.
    pub fn observe(&mut self, alpha: f64, cycles: u64, bytes_in: u32, bytes_out: u32) {
        self.pp = alpha * cycles as f64 + (1.0 - alpha) * self.pp;
        if bytes_in > 0 {
            self.lambda = f64::from(bytes_out) / f64::from(bytes_in);
            self.last_len = bytes_in;
        }
    }

    /// The expected cost EP = SF x PP of a packet `len` bytes long, in cycles.
    pub fn expected_cycles(&self, scaling: CostScaling, len: u32) -> f64 {
        let sf = match scaling {
            CostScaling::Header => 1.0,
            CostScaling::Payload if self.last_len > 0 => f64::from(len) / f64::from(self.last_len),
            CostScaling::Payload => 1.0,
        };
        sf * self.pp
    }

    /// CPU term of a finish tag: EP / phi_cpu, EP in seconds of the pool (`pool_hz`:
    /// engines x clock, cycles per second).
    pub fn cpu_term(&self, ep_cycles: f64, pool_hz: f64) -> f64 {
        ep_cycles / pool_hz / self.phi_cpu
    }

    /// Link term of a finish tag: 8 L lambda / (BW phi_bw), seconds per unit weight.
    pub fn link_term(&self, len: u32, link_bps: f64) -> f64 {
        8.0 * f64::from(len) * self.lambda / (link_bps * self.phi_bw)
    }
}

/// A virtual clock over a set of backlogged flows: V advances by (real time elapsed) /
/// sum_w, sum_w the summed weights of the flows in the set, updated whenever the set
/// changes (so between changes it follows the spec's V += tau / sum_w exactly). With the
/// set empty V stands still; when the set empties V jumps to the largest finish tag given
/// so far (every packet has left the scheduler, as in GPS when the system empties), so a
/// flow is not carried ahead or behind across an idle period.
#[derive(Clone, Debug, Default)]
pub struct VirtualClock {
    v: f64,
    last: SimTime,
    sum_w: f64,
    members: usize,
    max_finish: f64,
}

impl VirtualClock {
    /// The virtual time at the last update.
    pub fn v(&self) -> f64 {
        self.v
    }

    /// Summed weights of the backlogged flows.
    pub fn sum_w(&self) -> f64 {
        self.sum_w
    }

    /// Flows in the set.
    pub fn members(&self) -> usize {
        self.members
    }

    /// V at `now` without updating (`now` at or after the last update).
    pub fn at(&self, now: SimTime) -> f64 {
        if self.members > 0 && self.sum_w > 0.0 && now > self.last {
            self.v + (now - self.last).as_ps() as f64 / PS_PER_S as f64 / self.sum_w
        } else {
            self.v
        }
    }

    /// Brings V to `now`.
    pub fn advance(&mut self, now: SimTime) {
        if self.members > 0 && self.sum_w > 0.0 && now > self.last {
            self.v += (now - self.last).as_ps() as f64 / PS_PER_S as f64 / self.sum_w;
        }
        self.last = self.last.max(now);
    }

    /// A flow of weight `w` joins at `now`.
    pub fn join(&mut self, now: SimTime, w: f64) {
        self.advance(now);
        self.members += 1;
        self.sum_w += w;
    }

    /// A flow of weight `w` leaves at `now`.
    pub fn leave(&mut self, now: SimTime, w: f64) {
        self.advance(now);
        self.members = self.members.saturating_sub(1);
        if self.members == 0 {
            self.sum_w = 0.0;
            self.v = self.v.max(self.max_finish);
        } else {
            self.sum_w -= w;
        }
    }

    /// The start tag S = max(F_prev, V) and finish tag F = S + `cost` of a packet whose
    /// flow's previous finish tag is `f_prev`; notes F.
    pub fn tag(&mut self, f_prev: f64, cost: f64) -> (f64, f64) {
        let s = f_prev.max(self.v);
        let f = s + cost;
        self.max_finish = self.max_finish.max(f);
        (s, f)
    }
}

/// An `f64` tag ordered by `total_cmp` (tags are finite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tag(pub f64);

impl Eq for Tag {}

impl PartialOrd for Tag {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Tag {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(t: u64) -> SimTime {
        SimTime::from_us(t)
    }

    #[test]
    fn prediction_smooths_exponentially() {
        // alpha 0.4 from 1000 cycles: 0.4 x 3000 + 0.6 x 1000 = 1800; then
        // 0.4 x 2400 + 0.6 x 1800 = 2040.
        let mut f = FlowCost::new(1.0, 1.0, 1000.0);
        f.observe(0.4, 3000, 100, 100);
        assert!((f.pp - 1800.0).abs() < 1e-9);
        f.observe(0.4, 2400, 100, 100);
        assert!((f.pp - 2040.0).abs() < 1e-9);
        // alpha 0.5: halfway.
        let mut g = FlowCost::new(1.0, 1.0, 100.0);
        g.observe(0.5, 300, 60, 90);
        assert!((g.pp - 200.0).abs() < 1e-9);
        assert!((g.lambda - 1.5).abs() < 1e-12);
    }

    #[test]
    fn scaling_factor_follows_the_length_for_payload_processing() {
        let mut f = FlowCost::new(1.0, 1.0, 1000.0);
        // Nothing processed yet: SF = 1 either way.
        assert_eq!(f.expected_cycles(CostScaling::Payload, 200), 1000.0);
        f.observe(1.0, 800, 100, 100);
        assert_eq!(f.expected_cycles(CostScaling::Header, 200), 800.0);
        // 200 B after a 100 B packet: SF = 2.
        assert_eq!(f.expected_cycles(CostScaling::Payload, 200), 1600.0);
    }

    #[test]
    fn finish_tag_terms_by_hand() {
        // 4 engines at 600 MHz: pool 2.4e9 cycles/s. EP 3000 cycles, phi_cpu 2:
        // 3000 / 2.4e9 / 2 = 6.25e-7 s.
        let f = FlowCost::new(2.0, 4.0, 3000.0);
        assert!((f.cpu_term(3000.0, 2.4e9) - 6.25e-7).abs() < 1e-18);
        // 48 B at 50 Mb/s, phi_bw 4, lambda 1: 384 / 5e7 / 4 = 1.92e-6 s.
        assert!((f.link_term(48, 5.0e7) - 1.92e-6).abs() < 1e-18);
    }

    #[test]
    fn virtual_time_runs_at_one_over_the_summed_weights() {
        let mut c = VirtualClock::default();
        c.join(us(0), 2.0); // sum_w 2
        c.join(us(10), 3.0); // V = 10 us / 2 = 5e-6; sum_w 5
        assert!((c.v() - 5.0e-6).abs() < 1e-18);
        c.advance(us(20)); // + 10 us / 5 = 2e-6
        assert!((c.v() - 7.0e-6).abs() < 1e-18);
        c.leave(us(30), 3.0); // + 10 us / 5 = 2e-6 -> 9e-6; sum_w 2
        assert!((c.v() - 9.0e-6).abs() < 1e-18);
        assert_eq!(c.sum_w(), 2.0);
        c.advance(us(34)); // + 4 us / 2
        assert!((c.v() - 1.1e-5).abs() < 1e-18);
    }

    #[test]
    fn tags_start_at_the_later_of_the_previous_finish_and_v() {
        let mut c = VirtualClock::default();
        c.join(us(0), 1.0);
        c.advance(us(5)); // V = 5e-6
        // Previous finish behind V: S = V.
        let (s, f) = c.tag(1.0e-6, 2.0e-6);
        assert_eq!(s, 5.0e-6);
        assert!((f - 7.0e-6).abs() < 1e-18);
        // Previous finish ahead of V: S = F_prev.
        let (s, f) = c.tag(f, 1.0e-6);
        assert!((s - 7.0e-6).abs() < 1e-18 && (f - 8.0e-6).abs() < 1e-18);
        // The set empties: V jumps to the largest finish tag.
        c.leave(us(6), 1.0);
        assert!((c.v() - 8.0e-6).abs() < 1e-18);
        c.advance(us(100)); // empty: V stands still
        assert!((c.v() - 8.0e-6).abs() < 1e-18);
    }
}
