//! A switch under test with the fabric's part played by hand (for the unit tests of the
//! switches built from [`super::stages`]): its timers, what it put into output queues
//! and what input space it released.

use std::collections::BTreeMap;

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
            self.call(|sw, cx| sw.on_timer(cx, timer));
        }
        self.now = until;
    }

    /// The packets put into output queues, in order.
    pub fn order(&self) -> Vec<u32> {
        self.enqueued.iter().map(|e| e.3).collect()
    }
}
