//! Pieces every network node shares: packets in a pool addressed by index, and the
//! output port (queues per SL and routing lane, the per-lane credits of the downstream
//! buffer, an output scheduler over SLs, and the link it drives).

use std::collections::VecDeque;
use std::sync::Arc;

use super::lanes::LaneCredits;
use super::send::{SendAudit, SendPort, send_one};
use crate::schedulers::{AnyScheduler, Head, PortView, Scheduler};
use crate::time::SimTime;

/// A packet travelling through a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetPacket {
    /// Generation order within the run (unique, increasing).
    pub id: u64,
    /// When the source generated it; latency counts from here.
    pub created: SimTime,
    /// When its tail reaches (or reached) the buffer it is in now. Virtual cut-through: a
    /// packet may leave a buffer before its tail has arrived, but its tail can never leave
    /// before this time.
    pub tail: SimTime,
    /// Size in bytes.
    pub bytes: u32,
    /// Size in credits.
    pub credits: u32,
    /// Generating end point.
    pub source: u32,
    /// Destination end point.
    pub destination: u32,
    /// Service level: the scenario's class, end to end (statistics are per SL).
    pub sl: u16,
    /// The lane of the buffer the packet is in on the input side of a port (the lane of
    /// the link it last crossed); set when it is sent.
    pub lane: u16,
    /// Priority level 0 to 7 (7 highest), given by the network interface from the
    /// class ([`crate::scenario::NetworkClassConfig::priority_level`]); the two-VC
    /// switch's arbiters read it.
    pub priority: u8,
    /// The connection within its source and class ([`crate::traffic::NO_FLOW`] for
    /// bursts), for jitter.
    pub flow: u32,
    /// What the routing carries with the packet ([`crate::network::routing::Router`]).
    pub route: crate::network::routing::RouteState,
}

/// Packets in flight, addressed by a `u32` handle; freed slots are reused, so the pool
/// stops allocating once it has reached the largest number of packets in flight.
#[derive(Clone, Debug, Default)]
pub struct PacketPool {
    slots: Vec<NetPacket>,
    free: Vec<u32>,
}

impl PacketPool {
    /// Stores a packet and returns its handle.
    pub fn insert(&mut self, packet: NetPacket) -> u32 {
        if let Some(h) = self.free.pop() {
            self.slots[h as usize] = packet;
            h
        } else {
            self.slots.push(packet);
            (self.slots.len() - 1) as u32
        }
    }

    /// The packet with handle `h`.
    pub fn get(&self, h: u32) -> &NetPacket {
        &self.slots[h as usize]
    }

    /// The packet with handle `h`, mutably.
    pub fn get_mut(&mut self, h: u32) -> &mut NetPacket {
        &mut self.slots[h as usize]
    }

    /// Frees handle `h` for reuse.
    pub fn remove(&mut self, h: u32) {
        self.free.push(h);
    }

    /// Packets stored now.
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Whether no packet is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An output port: output queues (per SL and routing lane, see
/// [`crate::network::lanes`]), the credits per lane of the buffer at the other end of the
/// link, the scheduler choosing among SLs, and whether its link is busy sending. Packets
/// enter by [`OutputPort::enqueue`] and leave by [`OutputPort::send`], the one send
/// protocol of [`super::send`].
pub struct OutputPort {
    /// FIFO queues of packet handles: queue `sl * R + r` for SL `sl`, routing lane `r`.
    pub queues: Vec<VecDeque<u32>>,
    /// Free credits per lane of the buffer at the other end of the link.
    pub credits: LaneCredits,
    /// Per queue, the lane (credit pool) its packets use.
    lane_of_queue: Arc<[u16]>,
    /// Routing lanes `R`: queues per SL.
    routing_lanes: u16,
    /// The output scheduler (over SLs), statically dispatched.
    pub scheduler: AnyScheduler,
    /// Whether a packet is being sent.
    pub busy: bool,
}

impl OutputPort {
    /// A port with `lane_of_queue.len()` empty queues, `routing_lanes` per SL, sending
    /// into a buffer with `credits`.
    pub fn new(
        lane_of_queue: Arc<[u16]>,
        routing_lanes: u16,
        credits: LaneCredits,
        scheduler: AnyScheduler,
    ) -> OutputPort {
        OutputPort {
            queues: vec![VecDeque::new(); lane_of_queue.len()],
            credits,
            lane_of_queue,
            routing_lanes: routing_lanes.max(1),
            scheduler,
            busy: false,
        }
    }

    /// The lane of queue `queue`'s packets.
    pub fn lane_of_queue(&self, queue: usize) -> u16 {
        self.lane_of_queue[queue]
    }

    /// Queues packet `h` (in `pool`) on `queue` and tells the scheduler (about its SL).
    pub fn enqueue(&mut self, now: SimTime, queue: usize, h: u32, pool: &PacketPool) {
        self.queues[queue].push_back(h);
        let bytes = pool.get(h).bytes;
        let sl = queue / usize::from(self.routing_lanes);
        let view = PortQueues {
            queues: &mut self.queues,
            credits: &mut self.credits,
            lane_of_queue: &self.lane_of_queue,
            routing_lanes: usize::from(self.routing_lanes),
            pool,
            taken: None,
        };
        self.scheduler.on_enqueue_in(now, sl, bytes, &view);
    }

    /// One decision of the send protocol ([`send_one`]): the queue and packet handle
    /// sent, or None (faults counted in `audit`). The caller marks the port busy.
    pub fn send(
        &mut self,
        now: SimTime,
        pool: &PacketPool,
        audit: &mut SendAudit,
    ) -> Option<(usize, u32)> {
        let mut view = PortQueues {
            queues: &mut self.queues,
            credits: &mut self.credits,
            lane_of_queue: &self.lane_of_queue,
            routing_lanes: usize::from(self.routing_lanes),
            pool,
            taken: None,
        };
        send_one(now, &mut self.scheduler, &mut view, audit).map(|(_, item)| item)
    }
}

/// What a scheduler sees of an output port (per SL, the head of the SL's queue that
/// would go next, looked up in the pool, and its lane's credits), and what a send
/// changes.
struct PortQueues<'a> {
    queues: &'a mut [VecDeque<u32>],
    credits: &'a mut LaneCredits,
    lane_of_queue: &'a [u16],
    routing_lanes: usize,
    pool: &'a PacketPool,
    /// The (SL, queue) whose credits a send has just taken: the queue it pops.
    taken: Option<(usize, usize)>,
}

impl PortQueues<'_> {
    /// The queue of SL `sl` that sends next: with one routing lane, the SL's queue; with
    /// several, the one whose head fits its lane's credits (the oldest such head), else
    /// the one with the oldest head.
    fn queue_of(&self, sl: usize) -> usize {
        let first = sl * self.routing_lanes;
        if self.routing_lanes == 1 {
            return first;
        }
        let mut best: Option<(bool, u64, usize)> = None;
        for q in first..first + self.routing_lanes {
            let Some(&h) = self.queues[q].front() else {
                continue;
            };
            let p = self.pool.get(h);
            let fits = self
                .credits
                .fits(usize::from(self.lane_of_queue[q]), p.credits);
            let better = match best {
                None => true,
                Some((bf, bid, _)) => (fits && !bf) || (fits == bf && p.id < bid),
            };
            if better {
                best = Some((fits, p.id, q));
            }
        }
        best.map_or(first, |(_, _, q)| q)
    }
}

impl PortView for PortQueues<'_> {
    fn class_count(&self) -> usize {
        self.queues.len() / self.routing_lanes
    }

    fn head(&self, class: usize) -> Option<Head> {
        let q = self.queue_of(class);
        self.queues[q].front().map(|&h| {
            let p = self.pool.get(h);
            Head {
                id: p.id,
                bytes: p.bytes,
                credits: p.credits,
                created: p.created,
            }
        })
    }

    fn free_credits(&self, class: usize) -> u32 {
        let q = self.queue_of(class);
        self.credits.free(usize::from(self.lane_of_queue[q]))
    }

    /// As the default (`head` fits `free_credits`), choosing the queue once and reading
    /// only the head's credits: schedulers ask this of every class per decision.
    fn is_active(&self, class: usize) -> bool {
        let q = self.queue_of(class);
        self.queues[q].front().is_some_and(|&h| {
            self.pool.get(h).credits <= self.credits.free(usize::from(self.lane_of_queue[q]))
        })
    }
}

impl SendPort for PortQueues<'_> {
    /// The queue and the packet handle.
    type Item = (usize, u32);

    fn take_credits(&mut self, class: usize, credits: u32) -> bool {
        let q = self.queue_of(class);
        let ok = self
            .credits
            .consume(usize::from(self.lane_of_queue[q]), credits);
        self.taken = ok.then_some((class, q));
        ok
    }

    fn pop(&mut self, class: usize) -> Option<(usize, u32)> {
        // Taking the credits may change which queue `queue_of` prefers: pop the one whose
        // head they were taken for.
        let q = match self.taken.take() {
            Some((sl, q)) if sl == class => q,
            _ => self.queue_of(class),
        };
        self.queues[q].pop_front().map(|h| (q, h))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(id: u64) -> NetPacket {
        NetPacket {
            route: crate::network::routing::RouteState::default(),
            flow: crate::traffic::NO_FLOW,
            id,
            created: SimTime::ZERO,
            tail: SimTime::ZERO,
            bytes: 64,
            credits: 1,
            source: 0,
            destination: 1,
            sl: 0,
            lane: 0,
            priority: 0,
        }
    }

    /// A view that answers `is_active` (and so `active_classes`) by the trait's defaults
    /// (head fits free credits).
    struct ByDefault<'a>(&'a PortQueues<'a>);

    impl PortView for ByDefault<'_> {
        fn class_count(&self) -> usize {
            self.0.class_count()
        }
        fn head(&self, class: usize) -> Option<Head> {
            self.0.head(class)
        }
        fn free_credits(&self, class: usize) -> u32 {
            self.0.free_credits(class)
        }
    }

    proptest::proptest! {
        /// The port's own `is_active` answers as the trait's default, with one or several
        /// routing lanes, per-lane or shared credits, and packets of several sizes.
        #[test]
        fn is_active_is_the_default(
            routing_lanes in 1usize..4,
            shared in proptest::bool::ANY,
            taken in proptest::collection::vec(0u32..6, 4),
            packets in proptest::collection::vec((0usize..8, 1u32..6), 0..12),
        ) {
            let queues_n = 2 * routing_lanes;
            let lanes = 4;
            let mut credits = if shared {
                LaneCredits::shared(lanes, 16, 1, 8)
            } else {
                LaneCredits::per_lane(lanes, 5)
            };
            for (lane, t) in taken.iter().enumerate() {
                let _ = credits.consume(lane, *t);
            }
            let lane_of_queue: Vec<u16> = (0..queues_n).map(|q| (q % lanes) as u16).collect();
            let mut pool = PacketPool::default();
            let mut queues = vec![VecDeque::new(); queues_n];
            for (i, (q, c)) in packets.into_iter().enumerate() {
                let h = pool.insert(NetPacket { credits: c, ..packet(i as u64) });
                queues[q % queues_n].push_back(h);
            }
            let view = PortQueues {
                queues: &mut queues,
                credits: &mut credits,
                lane_of_queue: &lane_of_queue,
                routing_lanes,
                pool: &pool,
                taken: None,
            };
            for class in 0..2 {
                proptest::prop_assert_eq!(view.is_active(class), ByDefault(&view).is_active(class));
            }
            let (mut mine, mut default) = (Vec::new(), Vec::new());
            view.active_classes(&mut mine);
            ByDefault(&view).active_classes(&mut default);
            proptest::prop_assert_eq!(mine, default);
        }
    }

    #[test]
    fn pool_reuses_freed_slots() {
        let mut pool = PacketPool::default();
        let a = pool.insert(packet(1));
        let b = pool.insert(packet(2));
        assert_eq!(pool.len(), 2);
        pool.remove(a);
        let c = pool.insert(packet(3));
        assert_eq!(c, a);
        assert_eq!(pool.get(c).id, 3);
        assert_eq!(pool.get(b).id, 2);
        assert_eq!(pool.len(), 2);
    }
}
