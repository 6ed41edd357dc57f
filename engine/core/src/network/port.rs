//! Pieces every network node shares: packets in a pool addressed by index, and the
//! output port (queues per SL and routing lane, the per-lane credits of the downstream
//! buffer, an output scheduler over SLs, and the link it drives).

use std::sync::Arc;

use super::lanes::LaneCredits;
use super::send::{SendAudit, SendFault, SendPort, send_one};
use crate::schedulers::{AnyScheduler, Head, PortView, Scheduler, classes_in};
use crate::time::{Duration, SimTime};

mod linked_queue;
use linked_queue::{LinkedQueue, PacketLinks};

/// A packet travelling through a network.
///
/// Aligned to a cache line: the packet is 64 bytes, and the pool's (and an application
/// queue's) buffer would otherwise start 16 bytes into a line (a large allocation's
/// header), so that every packet spanned two lines and most reads of one fetched both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(align(64))]
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
    /// Each packet's successor in the output queue it waits in.
    links: PacketLinks,
}

impl PacketPool {
    /// Stores a packet and returns its handle.
    pub fn insert(&mut self, packet: NetPacket) -> u32 {
        if let Some(h) = self.free.pop() {
            self.slots[h as usize] = packet;
            h
        } else {
            self.slots.push(packet);
            self.links.cover(self.slots.len());
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

    /// Starts bringing packet `h` into the cache ([`crate::cache_hint`]): a packet that
    /// waited in a queue is read when it leaves it.
    #[inline(always)]
    pub fn prefetch(&self, h: u32) {
        if let Some(p) = self.slots.get(h as usize) {
            crate::cache_hint::prefetch(p);
        }
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

/// Where an output port's link leads, looked up in the topology (and the switch's
/// timing) once when the network is built: every send needs it, and the topology's
/// tables are cold by then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkEnd {
    /// No link (a switch port the topology leaves unconnected).
    Unconnected,
    /// Input port `port` (global) of switch `switch` (its index among the switches),
    /// where a header crosses `header_delay` after it arrived.
    Switch {
        /// The global port at the other end.
        port: u32,
        /// The switch's index among the switches.
        switch: u32,
        /// The switch's [`crate::network::switch::SwitchModel::header_delay`].
        header_delay: Duration,
    },
    /// End point `host`'s port `port` (global).
    EndPoint {
        /// The global port at the other end.
        port: u32,
        /// The end point.
        host: u32,
    },
}

/// An output port: output queues (per SL and routing lane, see
/// [`crate::network::lanes`]), the credits per lane of the buffer at the other end of the
/// link, the scheduler choosing among SLs, and whether its link is busy sending. Packets
/// enter by [`OutputPort::enqueue`] and leave by [`OutputPort::send`], the one send
/// protocol of [`super::send`].
#[repr(align(64))]
pub struct OutputPort {
    /// FIFO queues of packet handles: queue `sl * R + r` for SL `sl`, routing lane `r`.
    queues: QueueSet,
    /// Bit `sl` set when some queue of SL `sl` holds a packet: the active classes are
    /// found among these without reading the empty queues.
    nonempty: u64,
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
    /// Whether the port is an end point's (its output buffer is the interface's
    /// injection buffer, per class) rather than a switch's (per lane).
    pub from_end_point: bool,
    /// Where its link leads.
    pub link: LinkEnd,
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
            queues: QueueSet::new(lane_of_queue.len()),
            nonempty: 0,
            credits,
            lane_of_queue,
            routing_lanes: routing_lanes.max(1),
            scheduler,
            busy: false,
            from_end_point: false,
            link: LinkEnd::Unconnected,
        }
    }

    /// The port with the facts of its link (see [`LinkEnd`]) set.
    pub fn with_link(self, from_end_point: bool, link: LinkEnd) -> OutputPort {
        OutputPort {
            from_end_point,
            link,
            ..self
        }
    }

    /// The lane of queue `queue`'s packets.
    pub fn lane_of_queue(&self, queue: usize) -> u16 {
        self.lane_of_queue[queue]
    }

    /// Queues packet `h` (in `pool`, in no queue) on `queue` and tells the scheduler
    /// (about its SL).
    pub fn enqueue(&mut self, now: SimTime, queue: usize, h: u32, pool: &mut PacketPool) {
        let queues = self.queues.as_mut_slice();
        queues[queue].push_back(h, &mut pool.links);
        let pool = &*pool;
        let bytes = pool.get(h).bytes;
        // One routing lane (the common case) needs no division.
        let sl = match self.routing_lanes {
            1 => queue,
            r => queue / usize::from(r),
        };
        self.nonempty |= 1 << sl;
        let view = PortQueues {
            queues,
            nonempty: &mut self.nonempty,
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
    ///
    /// Out of line, with the protocol inlined into it: the inliner's choice otherwise
    /// shifts with unrelated changes, and the other split measured 44 M more instructions
    /// on the 64-node run (`docs/performance.md`, seventeenth stop).
    #[inline(never)]
    pub fn send(
        &mut self,
        now: SimTime,
        pool: &PacketPool,
        audit: &mut SendAudit,
    ) -> Option<(usize, u32)> {
        let mut view = PortQueues {
            queues: self.queues.as_mut_slice(),
            nonempty: &mut self.nonempty,
            credits: &mut self.credits,
            lane_of_queue: &self.lane_of_queue,
            routing_lanes: usize::from(self.routing_lanes),
            pool,
            taken: None,
        };
        send_one(now, &mut self.scheduler, &mut view, audit).map(|(_, item)| item)
    }
}

/// An output port's queues (each its two ends, linked through the pool): one queue (a
/// port with one SL and one lane, as most of a large network's) held in the port itself,
/// so that reaching it reads no other block; several in a vector of their own.
#[derive(Clone, Debug)]
enum QueueSet {
    One(LinkedQueue),
    Many(Vec<LinkedQueue>),
}

impl QueueSet {
    /// `n` empty queues.
    fn new(n: usize) -> QueueSet {
        if n == 1 {
            QueueSet::One(LinkedQueue::EMPTY)
        } else {
            QueueSet::Many(vec![LinkedQueue::EMPTY; n])
        }
    }

    /// The queues, in order.
    #[inline]
    fn as_mut_slice(&mut self) -> &mut [LinkedQueue] {
        match self {
            QueueSet::One(q) => std::slice::from_mut(q),
            QueueSet::Many(v) => v,
        }
    }
}

/// What a scheduler sees of an output port (per SL, the head of the SL's queue that
/// would go next, looked up in the pool, and its lane's credits), and what a send
/// changes.
struct PortQueues<'a> {
    queues: &'a mut [LinkedQueue],
    /// The port's [`OutputPort::nonempty`], kept as the queues are popped.
    nonempty: &'a mut u64,
    credits: &'a mut LaneCredits,
    lane_of_queue: &'a [u16],
    routing_lanes: usize,
    pool: &'a PacketPool,
    /// The (SL, queue) whose credits a send has just taken: the queue it pops.
    taken: Option<(usize, usize)>,
}

impl PortQueues<'_> {
    /// Pops the head of queue `q` (of SL `sl`), clearing the SL's bit of `nonempty` when
    /// it leaves all of the SL's queues empty.
    #[inline]
    fn pop_queue(&mut self, sl: usize, q: usize) -> Option<u32> {
        let h = self.queues[q].pop_front(&self.pool.links);
        if self.queues[q].is_empty() {
            let first = sl * self.routing_lanes;
            let lanes = &self.queues[first..first + self.routing_lanes];
            if self.routing_lanes == 1 || lanes.iter().all(LinkedQueue::is_empty) {
                *self.nonempty &= !(1 << sl);
            }
        }
        h
    }

    /// The queue of SL `sl` that sends next: with one routing lane, the SL's queue; with
    /// several, the one whose head fits its lane's credits (the oldest such head), else
    /// the one with the oldest head.
    ///
    /// Inlined for the one-lane case (every send asks it several times); the choice among
    /// several lanes is [`PortQueues::best_routing_lane`].
    #[inline]
    fn queue_of(&self, sl: usize) -> usize {
        if self.routing_lanes == 1 {
            return sl;
        }
        self.best_routing_lane(sl)
    }

    /// [`PortQueues::queue_of`] with several routing lanes.
    #[inline(never)]
    fn best_routing_lane(&self, sl: usize) -> usize {
        let first = sl * self.routing_lanes;
        let mut best: Option<(bool, u64, usize)> = None;
        for q in first..first + self.routing_lanes {
            let Some(h) = self.queues[q].front() else {
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
        self.queues[q].front().map(|h| {
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
        self.queues[q].front().is_some_and(|h| {
            self.pool.get(h).credits <= self.credits.free(usize::from(self.lane_of_queue[q]))
        })
    }

    /// As the default, asking only the SLs with a packet queued.
    fn active_mask(&self) -> u64 {
        classes_in(*self.nonempty)
            .filter(|&c| self.is_active(c))
            .fold(0, |m, c| m | 1 << c)
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

    /// As the default, choosing the queue once: `head`, `take_credits` and `pop` would
    /// each ask `queue_of`, and nothing between them changes its answer.
    #[inline]
    fn send_head(&mut self, class: usize) -> Result<(usize, u32), SendFault> {
        let q = self.queue_of(class);
        let Some(h) = self.queues[q].front() else {
            return Err(SendFault::Empty);
        };
        let lane = usize::from(self.lane_of_queue[q]);
        if !self.credits.consume(lane, self.pool.get(h).credits) {
            return Err(SendFault::NoCredits);
        }
        self.pop_queue(class, q);
        // The packet behind the new head is read when the new head has gone: start
        // fetching it now.
        if let Some(next) = self.queues[q].second(&self.pool.links) {
            self.pool.prefetch(next);
        }
        Ok((q, h))
    }

    fn pop(&mut self, class: usize) -> Option<(usize, u32)> {
        // Taking the credits may change which queue `queue_of` prefers: pop the one whose
        // head they were taken for.
        let q = match self.taken.take() {
            Some((sl, q)) if sl == class => q,
            _ => self.queue_of(class),
        };
        self.pop_queue(class, q).map(|h| (q, h))
    }
}

#[cfg(test)]
mod tests;
