//! Connection classes: constant-bit-rate and video connections of one end point.
//!
//! An end point offering load `L` of its link rate `R` with connections of rate `r`
//! (b/s; for video the mean rate, for an unscaled trace the trace's own mean rate) opens
//! `round(L x R / r)` connections ([`connection_count`], half away from zero). The
//! remainder `L x R - count x r` is not offered: the class's real offered load is
//! `count x r / R` ([`ConnectionPlan::offered_bps`]), e.g. VO at 0.046 of 2 Gb/s with
//! 64 kb/s connections opens 1438 connections (0.046016 of the link).
//!
//! Building a class is two-phase so that admission control can see every request first:
//! 1. [`ConnectionPlan::new`] draws each connection's destination from the destination
//!    model (in connection order);
//! 2. [`admit_round_robin`] asks admission control about the requests of many plans in a
//!    deterministic, fair order (request 0 of every plan, then request 1, ...);
//! 3. [`ConnectionGenerator::new`] builds the packet processes of the admitted requests.
//!
//! Each connection starts at a random phase: a CBR connection of packet size `b` sends
//! packet `k` at `phase + floor(k x b x 8 / r)` (exact integer picoseconds, so its long-run
//! rate is exactly `r`), the phase uniform in one period; video streams see `generators/video`.
//! Phases are drawn for every request, admitted or not, so admission decisions never shift
//! another connection's phase. Flow ids number the admitted connections 0, 1, ...

use crate::rng::{RngStream, RngStreams};
use crate::time::{BitRate, SimTime};

use super::connection_queue::ConnectionQueue;
use super::destinations::DestinationSetup;
use super::generated::{Generated, stream, streams};
use super::limits::MAX_CONNECTIONS;

/// Connections an end point opens to offer `load` of `link` with connections of
/// `rate_bps`: `round(load x link / rate)` (0 for a zero rate or a non-positive load).
pub fn connection_count(load: f64, link: BitRate, rate_bps: u64) -> u64 {
    if rate_bps == 0 || !load.is_finite() || load <= 0.0 {
        return 0;
    }
    let n = libm::round(load * link.bits_per_s() as f64 / rate_bps as f64);
    if n >= u64::MAX as f64 {
        u64::MAX
    } else {
        n as u64
    }
}

/// One connection an end point wants to open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionRequest {
    /// Destination end point.
    pub destination: u32,
    /// Whether admission control accepted it (true until asked).
    pub admitted: bool,
}

/// The connections one end point wants to open for one class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectionPlan {
    /// The end point.
    pub endpoint: u32,
    /// The class.
    pub class: u32,
    /// Rate of each connection (b/s), the amount admission control reserves.
    pub rate_bps: u64,
    /// The requests, in opening order.
    pub requests: Vec<ConnectionRequest>,
}

impl ConnectionPlan {
    /// The plan of `endpoint` for a connection class offering `load` of `link` in
    /// connections of `rate_bps` each (destinations drawn from the end point's model).
    /// Errors for too many connections.
    pub fn new(
        endpoint: u32,
        class: u32,
        (load, rate_bps): (f64, u64),
        link: BitRate,
        destinations: &DestinationSetup,
        rng: &RngStreams,
    ) -> Result<ConnectionPlan, String> {
        let count = connection_count(load, link, rate_bps);
        if count > MAX_CONNECTIONS {
            return Err(format!(
                "{count} connections per end point is more than {MAX_CONNECTIONS}"
            ));
        }
        let mut model = destinations.for_source(endpoint, class, rng);
        let requests = (0..count)
            .map(|_| ConnectionRequest {
                destination: model.next_destination(),
                admitted: true,
            })
            .collect();
        Ok(ConnectionPlan {
            endpoint,
            class,
            rate_bps,
            requests,
        })
    }

    /// Connections admitted.
    pub fn admitted(&self) -> usize {
        self.requests.iter().filter(|r| r.admitted).count()
    }

    /// Connections refused.
    pub fn refused(&self) -> usize {
        self.requests.len() - self.admitted()
    }

    /// Rate offered by the admitted connections, in b/s.
    pub fn offered_bps(&self) -> u64 {
        self.admitted() as u64 * self.rate_bps
    }
}

/// Asks `admit(endpoint, class, destination, rate_bps)` about every request of `plans`
/// in rounds: request 0 of each plan in slice order, then request 1, ... (so no end point
/// or class takes all the capacity before the others ask), recording each answer.
pub fn admit_round_robin(
    plans: &mut [ConnectionPlan],
    mut admit: impl FnMut(u32, u32, u32, u64) -> bool,
) {
    let rounds = plans.iter().map(|p| p.requests.len()).max().unwrap_or(0);
    for k in 0..rounds {
        for plan in plans.iter_mut() {
            let (endpoint, class, rate) = (plan.endpoint, plan.class, plan.rate_bps);
            if let Some(r) = plan.requests.get_mut(k) {
                r.admitted = admit(endpoint, class, r.destination, rate);
            }
        }
    }
}

/// The packet process of one connection: its packets as (time, bytes) in time order.
/// Each connection generator (`traffic/generators/`) has its own.
pub trait ConnectionProcess: std::fmt::Debug {
    /// The next packet (None once time runs out of range).
    fn next_packet(&mut self) -> Option<(SimTime, u32)>;

    /// A copy of the process in its current state.
    fn clone_box(&self) -> Box<dyn ConnectionProcess>;

    /// Whether each packet follows the one before by about one fixed period (CBR of one
    /// packet size): the generator then keeps its connections in a sorted ring
    /// ([`ConnectionQueue`]), where such a connection's next packet goes at the back.
    /// Only speed depends on it.
    fn periodic(&self) -> bool {
        false
    }

    /// Where a trace-replaying process keeps its frames (for tests of sharing).
    #[cfg(test)]
    fn trace_buffer(&self) -> Option<*const u32> {
        None
    }
}

impl Clone for Box<dyn ConnectionProcess> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// The merged packets of one end point's admitted connections of one class.
#[derive(Clone, Debug)]
pub struct ConnectionGenerator {
    processes: Vec<Box<dyn ConnectionProcess>>,
    destinations: Vec<u32>,
    /// Next packet of each connection: (time, connection), earliest first, ties by
    /// connection index; the bytes wait in `pending`.
    queue: ConnectionQueue,
    pending: Vec<u32>,
}

impl ConnectionGenerator {
    /// The generator of the admitted requests of `plan`. `process(phases, sizes)` builds
    /// one connection's process: it draws the connection's phase (and start position)
    /// from `phases`, the end point's phase stream, and may keep `sizes`, the
    /// connection's own stream. It is called for every request, admitted or not, so
    /// admission decisions never shift another connection's phase.
    pub fn new(
        plan: &ConnectionPlan,
        mut process: impl FnMut(&mut RngStream, RngStream) -> Result<Box<dyn ConnectionProcess>, String>,
        rng: &RngStreams,
    ) -> Result<ConnectionGenerator, String> {
        let mut phases = stream(rng, plan.endpoint, plan.class, streams::PHASES);
        let mut processes = Vec::new();
        let mut destinations = Vec::new();
        for (i, req) in plan.requests.iter().enumerate() {
            let process = process(
                &mut phases,
                stream(
                    rng,
                    plan.endpoint,
                    plan.class,
                    streams::FRAME_SIZES.saturating_add(i as u32),
                ),
            )?;
            if req.admitted {
                processes.push(process);
                destinations.push(req.destination);
            }
        }
        let periodic = processes.iter().all(|p| p.periodic());
        Ok(Self::start(processes, destinations, periodic))
    }

    /// The generator of `processes` (their first packets drawn now), the connections
    /// kept in a sorted ring if `periodic`, else in a heap.
    fn start(
        mut processes: Vec<Box<dyn ConnectionProcess>>,
        destinations: Vec<u32>,
        periodic: bool,
    ) -> ConnectionGenerator {
        let mut pending = vec![0; processes.len()];
        let mut first = Vec::with_capacity(processes.len());
        for (i, p) in processes.iter_mut().enumerate() {
            if let Some((t, bytes)) = p.next_packet() {
                pending[i] = bytes;
                first.push((t, i as u32));
            }
        }
        ConnectionGenerator {
            queue: ConnectionQueue::new(periodic, first),
            pending,
            processes,
            destinations,
        }
    }

    fn pull(&mut self, i: usize) {
        if let Some((t, bytes)) = self.processes[i].next_packet() {
            self.pending[i] = bytes;
            self.queue.push((t, i as u32));
        }
    }

    /// Where each video-trace connection keeps its frames (for tests of sharing).
    #[cfg(test)]
    pub(crate) fn trace_buffers(&self) -> Vec<*const u32> {
        self.processes
            .iter()
            .filter_map(|p| p.trace_buffer())
            .collect()
    }

    /// Number of (admitted) connections.
    pub fn connections(&self) -> usize {
        self.processes.len()
    }

    /// Destination of connection `flow`.
    pub fn destination(&self, flow: u32) -> Option<u32> {
        self.destinations.get(flow as usize).copied()
    }

    /// The next packet of any connection, in time order (ties: lower flow first).
    pub fn next_packet(&mut self) -> Option<Generated> {
        let (time, flow) = self.queue.pop()?;
        let i = flow as usize;
        let bytes = self.pending[i];
        self.pull(i);
        Some(Generated {
            time,
            bytes,
            destination: self.destinations[i],
            flow,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::PS_PER_S;
    use crate::traffic::config::{ClassTrafficConfig, DestinationConfig};
    use crate::traffic::generators::{CbrConfig, GeneratorConfig};

    /// The connections of `plan` for a CBR class.
    fn generator(
        plan: &ConnectionPlan,
        g: &GeneratorConfig,
        rng: &RngStreams,
    ) -> ConnectionGenerator {
        let GeneratorConfig::Cbr(c) = g else {
            panic!("a CBR class")
        };
        ConnectionGenerator::new(plan, |phases, sizes| Ok(c.process(phases, sizes)), rng).unwrap()
    }

    fn link() -> BitRate {
        BitRate::from_gbps(2.0).unwrap()
    }

    fn class(load: f64, rate_bps: u64, packet_bytes: u32) -> ClassTrafficConfig {
        ClassTrafficConfig {
            load,
            generator: GeneratorConfig::Cbr(CbrConfig {
                max_packet_bytes: None,
                rate_bps,
                packet_bytes,
            }),
            destinations: DestinationConfig::Uniform,
        }
    }

    fn plan(endpoint: u32, cfg: &ClassTrafficConfig, rng: &RngStreams) -> ConnectionPlan {
        let setup = DestinationSetup::new(&cfg.destinations, 1, 64, rng).unwrap();
        let rate = cfg.generator.mean_connection_rate().unwrap().unwrap();
        ConnectionPlan::new(endpoint, 1, (cfg.load, rate), link(), &setup, rng).unwrap()
    }

    #[test]
    fn counts_round_to_the_nearest_connection() {
        // R2: VO 0.046 x 2 Gb/s / 64 kb/s = 1437.5 -> 1438; CL 0.203 x 2 Gb/s / 750 kb/s
        // = 541.3 -> 541; VI 0.453 x 2 Gb/s / 3 Mb/s = 302.
        assert_eq!(connection_count(0.046, link(), 64_000), 1438);
        assert_eq!(connection_count(0.203, link(), 750_000), 541);
        assert_eq!(connection_count(0.453, link(), 3_000_000), 302);
        assert_eq!(connection_count(0.0, link(), 64_000), 0);
        assert_eq!(connection_count(0.1, link(), 0), 0);
    }

    #[test]
    fn cbr_connections_send_at_exactly_their_rate() {
        let rng = RngStreams::new(4);
        let cfg = class(0.203, 750_000, 2048);
        let p = plan(3, &cfg, &rng);
        assert_eq!(p.requests.len(), 541);
        assert!(p.requests.iter().all(|r| r.destination != 3));
        let mut g = generator(&p, &cfg.generator, &rng);
        // 2048 B at 750 kb/s: a period of 21.845333 ms.
        let horizon = 2 * PS_PER_S;
        let mut per_flow = vec![Vec::new(); 541];
        let mut last = SimTime::ZERO;
        loop {
            let pk = g.next_packet().unwrap();
            assert!(pk.time >= last, "time order");
            last = pk.time;
            if pk.time.as_ps() >= horizon {
                break;
            }
            assert_eq!(pk.bytes, 2048);
            assert_eq!(Some(pk.destination), g.destination(pk.flow));
            per_flow[pk.flow as usize].push(pk.time.as_ps());
        }
        let period = 2048u64 * 8 * PS_PER_S / 750_000; // floor
        for times in &per_flow {
            assert!(times[0] < period + 1, "phase within one period");
            for w in times.windows(2) {
                let gap = w[1] - w[0];
                assert!(gap == period || gap == period + 1, "gap {gap}");
            }
            // Exact long-run spacing: packet k at phase + floor(k x 16384e12 / 750000).
            let k = times.len() as u128 - 1;
            let exact = u128::from(times[0]) + k * 16_384 * u128::from(PS_PER_S) / 750_000;
            assert_eq!(u128::from(*times.last().unwrap()), exact);
        }
    }

    /// CBR with sizes from a range (R4's controlled load: 64-2048 B at 1 MB/s): every
    /// size within the range, both ends drawn, and each gap exactly the previous packet's
    /// bits at the rate, so each connection keeps its rate.
    #[test]
    fn cbr_with_a_size_range_keeps_its_rate() {
        let rng = RngStreams::new(9);
        let mut cfg = class(0.05, 8_000_000, 64);
        if let GeneratorConfig::Cbr(c) = &mut cfg.generator {
            c.max_packet_bytes = Some(2048);
        }
        let p = plan(2, &cfg, &rng);
        let mut g = generator(&p, &cfg.generator, &rng);
        let flows = g.connections();
        assert_eq!(flows, 13, "0.05 x 2 Gb/s / 8 Mb/s = 12.5 -> 13");
        let mut per_flow: Vec<Vec<(u64, u32)>> = vec![Vec::new(); flows];
        loop {
            let pk = g.next_packet().unwrap();
            if pk.time.as_ps() >= PS_PER_S / 10 {
                break;
            }
            assert!((64..=2048).contains(&pk.bytes), "{} B", pk.bytes);
            per_flow[pk.flow as usize].push((pk.time.as_ps(), pk.bytes));
        }
        let sizes: Vec<u32> = per_flow.iter().flatten().map(|p| p.1).collect();
        assert!(sizes.iter().any(|&b| b < 200) && sizes.iter().any(|&b| b > 1900));
        for packets in &per_flow {
            let start = u128::from(packets[0].0);
            let mut bits = 0u128;
            for &(t, bytes) in packets {
                assert_eq!(
                    u128::from(t),
                    start + bits * u128::from(PS_PER_S) / 8_000_000,
                    "packet at the bits before it over the rate"
                );
                bits += u128::from(bytes) * 8;
            }
            // Mean size near 1056 B: about 8e6 x 0.1 / (8 x 1056) = 95 packets.
            assert!((70..=130).contains(&packets.len()), "{}", packets.len());
        }
    }

    /// The sorted ring (chosen for CBR of one size) and the heap give the same packets.
    #[test]
    fn the_ring_and_the_heap_give_the_same_packets() {
        let rng = RngStreams::new(8);
        for cfg in [class(0.046, 64_000, 160), class(0.203, 750_000, 2048)] {
            let p = plan(5, &cfg, &rng);
            let ring = generator(&p, &cfg.generator, &rng);
            assert!(matches!(ring.queue, ConnectionQueue::Sorted(_)));
            let mut heap = ring.clone();
            let keys: Vec<_> = std::iter::from_fn(|| heap.queue.pop()).collect();
            heap.queue = ConnectionQueue::new(false, keys);
            let mut ring = ring;
            for _ in 0..50_000 {
                let (a, b) = (ring.next_packet().unwrap(), heap.next_packet().unwrap());
                assert_eq!(
                    (a.time, a.flow, a.bytes, a.destination),
                    (b.time, b.flow, b.bytes, b.destination)
                );
            }
        }
    }

    #[test]
    fn refused_requests_send_nothing_and_do_not_shift_others() {
        let rng = RngStreams::new(5);
        let cfg = class(0.01, 1_000_000, 1000);
        let all = plan(0, &cfg, &rng);
        let mut some = all.clone();
        some.requests[1].admitted = false;
        let packets = |p: &ConnectionPlan, skip: Option<u32>| {
            let mut g = generator(p, &cfg.generator, &rng);
            let mut seen = Vec::new();
            loop {
                let pk = g.next_packet().unwrap();
                if pk.time.as_ps() > PS_PER_S {
                    return (g.connections(), seen);
                }
                if Some(pk.flow) != skip {
                    seen.push((pk.time, pk.destination, pk.bytes));
                }
            }
        };
        let (n_all, a) = packets(&all, Some(1));
        let (n_some, b) = packets(&some, None);
        assert_eq!((n_all, n_some), (20, 19));
        assert!(b.len() > 1000);
        assert_eq!(a, b, "the other connections are unchanged");
    }

    #[test]
    fn round_robin_asks_in_rounds() {
        let rng = RngStreams::new(6);
        let cfg = class(0.0001, 64_000, 160); // round(3.125) = 3 connections each
        let mut plans: Vec<ConnectionPlan> = (0..3).map(|e| plan(e, &cfg, &rng)).collect();
        plans[2].requests.truncate(1);
        let mut order = Vec::new();
        let mut budget = 4;
        admit_round_robin(&mut plans, |e, c, d, r| {
            assert_eq!((c, r), (1, 64_000));
            assert_ne!(d, e);
            order.push(e);
            budget -= 1;
            budget >= 0
        });
        assert_eq!(order, [0, 1, 2, 0, 1, 0, 1]);
        let admitted: Vec<usize> = plans.iter().map(ConnectionPlan::admitted).collect();
        assert_eq!(admitted, [2, 1, 1]);
        assert_eq!(plans[0].refused(), 1);
        assert_eq!(plans[0].offered_bps(), 128_000);
    }
}
