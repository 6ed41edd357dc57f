//! Pieces every network node shares: packets in a pool addressed by index, and the
//! output port (per-class queues, credits of the downstream buffers, an output scheduler
//! and the link it drives).

use std::collections::VecDeque;

use super::CreditCounter;
use super::send::{SendAudit, SendPort, send_one};
use crate::schedulers::{Head, PortView, Scheduler};
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
    /// Class (virtual channel).
    pub class: u16,
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

/// An output port: a queue per class (packet handles), the credits of the downstream
/// buffer of each class, the scheduler choosing among classes, and whether its link is
/// busy sending. Packets enter by [`OutputPort::enqueue`] and leave by
/// [`OutputPort::send`], the one send protocol of [`super::send`].
pub struct OutputPort {
    /// Per-class FIFO queues of packet handles.
    pub queues: Vec<VecDeque<u32>>,
    /// Free credits of each class's buffer at the other end of the link.
    pub credits: Vec<CreditCounter>,
    /// The output scheduler.
    pub scheduler: Box<dyn Scheduler>,
    /// Whether a packet is being sent.
    pub busy: bool,
}

impl OutputPort {
    /// A port with `classes` empty queues and downstream buffers of `credits` credits.
    pub fn new(classes: usize, credits: u32, scheduler: Box<dyn Scheduler>) -> OutputPort {
        OutputPort {
            queues: vec![VecDeque::new(); classes],
            credits: vec![CreditCounter::new(credits); classes],
            scheduler,
            busy: false,
        }
    }

    /// Queues packet `h` (in `pool`) on `class` and tells the scheduler.
    pub fn enqueue(&mut self, now: SimTime, class: usize, h: u32, pool: &PacketPool) {
        self.queues[class].push_back(h);
        let bytes = pool.get(h).bytes;
        let view = PortQueues {
            queues: &mut self.queues,
            credits: &mut self.credits,
            pool,
        };
        self.scheduler.on_enqueue(now, class, bytes, &view);
    }

    /// One decision of the send protocol ([`send_one`]): the class and packet handle
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
            pool,
        };
        send_one(now, self.scheduler.as_mut(), &mut view, audit)
    }
}

/// What a scheduler sees of an output port (its queue heads, looked up in the pool, and
/// its credits), and what a send changes.
struct PortQueues<'a> {
    queues: &'a mut [VecDeque<u32>],
    credits: &'a mut [CreditCounter],
    pool: &'a PacketPool,
}

impl PortView for PortQueues<'_> {
    fn class_count(&self) -> usize {
        self.queues.len()
    }

    fn head(&self, class: usize) -> Option<Head> {
        self.queues[class].front().map(|&h| {
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
        self.credits[class].free()
    }
}

impl SendPort for PortQueues<'_> {
    type Item = u32;

    fn take_credits(&mut self, class: usize, credits: u32) -> bool {
        self.credits[class].consume(credits)
    }

    fn pop(&mut self, class: usize) -> Option<u32> {
        self.queues[class].pop_front()
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
            class: 0,
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
