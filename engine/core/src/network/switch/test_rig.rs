//! A switch under test with the fabric's part played by hand (for the unit tests of the
//! switches built from [`super::stages`]): its timers, what it put into output queues
//! and what input space it released.

use std::collections::{BTreeMap, VecDeque};

use super::{Header, SwitchAction, SwitchContext, SwitchModel, SwitchSetup, SwitchTimer};
use crate::network::lanes::CreditPolicyConfig;
use crate::network::port::{NetPacket, PacketPool};
use crate::time::{BitRate, SimTime};

/// A test packet: number `id`, `bytes` long (in 64-byte credits rounded up), from end
/// point 0 to 0, SL, lane and priority 0, no flow; tests set what they need with
/// struct-update syntax.
pub(crate) fn packet(id: u64, bytes: u32) -> NetPacket {
    NetPacket {
        id,
        created: SimTime::ZERO,
        tail: SimTime::ZERO,
        bytes,
        credits: bytes.div_ceil(64),
        source: 0,
        destination: 0,
        sl: 0,
        lane: 0,
        priority: 0,
        flow: crate::traffic::NO_FLOW,
        route: crate::network::routing::RouteState::default(),
    }
}

/// The rig: the switch, the packets, the time and the switch's answers.
pub(crate) struct Rig<S: SwitchModel> {
    pub sw: S,
    pub pool: PacketPool,
    pub now: SimTime,
    pub timers: BTreeMap<(SimTime, u64), SwitchTimer>,
    seq: u64,
    /// (time, output, queue, packet) of every packet put into an output queue.
    pub enqueued: Vec<(SimTime, u32, u16, u32)>,
    /// (time, input, lane, credits) of every input space released.
    pub released: Vec<(SimTime, u32, u16, u32)>,
    /// Input space released by timers that [`SwitchModel::input_released_by`] did not
    /// announce (a hint may stay silent; one it gives must be right, which
    /// [`Rig::run_until`] asserts).
    pub unannounced_releases: usize,
}

/// A switch of `ports` ports and `lanes` lanes (one queue per lane) on 100 Gb/s links.
pub(crate) fn setup(ports: u32, lanes: u16, credits: CreditPolicyConfig) -> SwitchSetup {
    SwitchSetup {
        ports,
        lanes,
        routing_lanes: 1,
        lane_of_queue: (0..lanes).collect(),
        link: BitRate::from_gbps(100.0).unwrap(),
        link_gbps: 100.0,
        credits,
    }
}

impl<S: SwitchModel> Rig<S> {
    /// A rig around `sw` at time 0.
    pub fn with(sw: S) -> Rig<S> {
        Rig {
            sw,
            pool: PacketPool::default(),
            now: SimTime::ZERO,
            timers: BTreeMap::new(),
            seq: 0,
            enqueued: Vec::new(),
            released: Vec::new(),
            unannounced_releases: 0,
        }
    }

    /// Calls the switch now and carries out its answers.
    pub fn call(&mut self, f: impl FnOnce(&mut S, &mut SwitchContext)) {
        let mut actions = Vec::new();
        let mut cx = SwitchContext {
            now: self.now,
            pool: &mut self.pool,
            actions: &mut actions,
        };
        f(&mut self.sw, &mut cx);
        for a in actions {
            match a {
                SwitchAction::Wake { at, timer } => {
                    assert!(at >= self.now);
                    self.seq += 1;
                    self.timers.insert((at, self.seq), timer);
                }
                SwitchAction::Enqueue {
                    output,
                    queue,
                    packet,
                } => self.enqueued.push((self.now, output, queue, packet)),
                SwitchAction::ReleaseInput {
                    input,
                    lane,
                    credits,
                } => self.released.push((self.now, input, lane, credits)),
            }
        }
    }

    /// A routed header of `bytes` on `lane` (SL and queue `lane` too) whose tail reaches
    /// the input at `tail`, handed over now.
    pub fn header(&mut self, input: u32, lane: u16, output: u32, bytes: u32, tail: SimTime) -> u32 {
        let packet = self.pool.insert(NetPacket {
            tail,
            sl: lane,
            lane,
            ..packet(self.pool.len() as u64, bytes)
        });
        let h = Header {
            input,
            in_lane: lane,
            output,
            queue: lane,
            packet,
        };
        self.call(|sw, cx| sw.on_header(cx, h));
        packet
    }

    /// Runs the switch's timers due up to `until`.
    pub fn run_until(&mut self, until: SimTime) {
        while let Some((&(at, seq), _)) = self.timers.first_key_value() {
            if at > until {
                break;
            }
            let timer = self.timers.remove(&(at, seq)).unwrap();
            self.now = at;
            let announced = self.sw.input_released_by(timer);
            let before = self.released.len();
            self.call(|sw, cx| sw.on_timer(cx, timer));
            let released = &self.released[before..];
            match announced {
                Some(input) => assert!(
                    released.iter().any(|r| r.1 == input),
                    "timer {timer:?} announced input {input}, released {released:?}"
                ),
                None => self.unannounced_releases += released.len(),
            }
        }
        self.now = until;
    }

    /// The packets put into output queues, in order.
    pub fn order(&self) -> Vec<u32> {
        self.enqueued.iter().map(|e| e.3).collect()
    }

    /// Drives the switch with `packets` (input, lane, output, bytes, gap in ns) on 96
    /// credits per input (`policy` over `lanes`), each sent when its input lane has room
    /// upstream, its output space freed a packet-dependent time after it entered its
    /// queue, until everything has come out (or 200 000 steps). Returns what the switch
    /// did, in order.
    pub fn random_traffic(
        &mut self,
        policy: &CreditPolicyConfig,
        lanes: u16,
        packets: &[(u32, u16, u32, u32, u64)],
    ) -> TrafficLog {
        let ports = packets.iter().map(|p| p.0 + 1).max().unwrap_or(1);
        let mut upstream: Vec<_> = (0..ports)
            .map(|_| super::stages::port_buffer(policy, lanes, 96))
            .collect();
        let mut pending: VecDeque<_> = packets.iter().copied().collect();
        let mut frees: BTreeMap<(SimTime, u32), (u32, u16, u32)> = BTreeMap::new();
        let (mut seen, mut released, mut timers) = (0, Vec::new(), Vec::new());
        for _ in 0..200_000 {
            if let Some(&(input, lane, output, bytes, gap)) = pending.front() {
                if upstream[input as usize].consume(usize::from(lane), bytes.div_ceil(64)) {
                    pending.pop_front();
                    self.header(input, lane, output, bytes, self.now);
                    let t = self.now.plus_ps(gap * 1000);
                    self.run_until(t);
                }
            }
            for &(at, output, queue, p) in &self.enqueued[seen..] {
                let credits = self.pool.get(p).credits;
                frees.insert(
                    (at.plus_ps(u64::from(p % 5) * 7000 + 1), p),
                    (output, queue, credits),
                );
            }
            seen = self.enqueued.len();
            for r in self.released.drain(..) {
                upstream[r.1 as usize].give_back(usize::from(r.2), r.3);
                released.push(r);
            }
            timers.extend(self.timers.iter().map(|(&(at, _), t)| (at, t.0)));
            if pending.is_empty() && self.timers.is_empty() && frees.is_empty() {
                break;
            }
            let next_timer = self.timers.first_key_value().map(|(k, _)| k.0);
            match (frees.first_key_value().map(|(k, _)| k.0), next_timer) {
                (Some(f), t) if t.is_none_or(|t| f <= t) => {
                    let ((at, _), (output, queue, credits)) = frees.pop_first().unwrap();
                    self.now = self.now.max(at);
                    self.call(|sw, cx| sw.on_output_freed(cx, output, queue, credits));
                }
                (_, Some(t)) => self.run_until(t),
                _ => {}
            }
        }
        TrafficLog {
            enqueued: self.enqueued.clone(),
            released,
            timers,
        }
    }
}

/// What a switch did under [`Rig::random_traffic`], in order.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TrafficLog {
    /// (time, output, queue, packet) entering output queues.
    pub enqueued: Vec<(SimTime, u32, u16, u32)>,
    /// (time, input, lane, credits) of input space released.
    pub released: Vec<(SimTime, u32, u16, u32)>,
    /// (time, timer) of the timers pending after each step.
    pub timers: Vec<(SimTime, u64)>,
}

/// Random packets for [`Rig::random_traffic`] on `ports` ports and `lanes` lanes: (input,
/// lane, output, 1 to 1 024 bytes, a gap of up to 40 ns), 1 to 199 of them.
pub(crate) fn random_packets(
    ports: u32,
    lanes: u16,
) -> impl proptest::strategy::Strategy<Value = Vec<(u32, u16, u32, u32, u64)>> {
    proptest::collection::vec(
        (0..ports, 0..lanes, 0..ports, 1u32..=1024, 0u64..40),
        1..200,
    )
}

/// A switch's allocation limited to what an event changed (`drive(false)`) does exactly
/// what its exhaustive form (`drive(true)`) does, and all `packets` come out.
pub(crate) fn limited_as_exhaustive(
    drive: impl Fn(bool) -> TrafficLog,
    packets: usize,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let limited = drive(false);
    proptest::prop_assert_eq!(limited.enqueued.len(), packets, "every packet comes out");
    proptest::prop_assert_eq!(limited, drive(true));
    Ok(())
}

/// Per-lane input buffers, or shared ones (1 024 B reserved per lane, at most 4 096 B).
pub(crate) fn policy(shared: bool) -> CreditPolicyConfig {
    if shared {
        CreditPolicyConfig::Shared(crate::network::lanes::credits::SharedCreditsConfig {
            min_bytes: 1024,
            max_bytes: 4096,
        })
    } else {
        CreditPolicyConfig::PerLane
    }
}
