//! A network interface (end point): per-class traffic generators (see
//! [`crate::traffic::NetworkTraffic`]), unbounded application queues, injection buffers,
//! and the receiving side.
//!
//! ```text
//!  generator c ─► application queue c ─► injection buffer c ─┐
//!  (unbounded; latency counts from generation)  (credits)    ├─► output scheduler ─► link
//!  ...                                                        ┘   (head fits the first
//!                                                                  switch's credits)
//! ```
//! A generated packet joins its class's application queue, and moves at once (no time)
//! into the class's injection buffer whenever that has room for all of it, in FIFO order.
//! The interface's [`OutputPort`](super::port::OutputPort) holds the injection buffers'
//! contents as its output queues (each class's queue of routing lane 0); its scheduler
//! chooses among classes whose head fits the credits of its lane (the class's lane from
//! the lane map, [`super::lanes`]) in the next buffer (the first switch's input buffer). A packet's injection
//! space is freed when its tail has left on the link.
//!
//! The receiving side consumes every packet as soon as its tail arrives: the packet is
//! delivered and its reception-buffer credits go back to the sender (after the link's
//! credit delay).

use std::collections::VecDeque;

use super::CreditCounter;
use super::port::{NetPacket, OutputPort, PacketPool};
use crate::time::SimTime;
use crate::traffic::{ClassGenerator, Generated};

/// One end point's sending state.
pub struct Interface {
    /// Per class, packets generated but not yet in the injection buffer, held by value:
    /// a packet enters the [`PacketPool`] only when it enters the injection buffer, so the
    /// pool holds only the packets in the network (a few thousand, hot in the caches)
    /// however long the backlog of an overloaded class grows.
    pub application: Vec<VecDeque<NetPacket>>,
    /// Per class, free space of the injection buffer.
    pub injection: Vec<CreditCounter>,
    /// Per class, the generator (`None` for a silent class or no admitted connection).
    pub generators: Vec<Option<ClassGenerator>>,
    /// Per class, the generator's next packet, already drawn (its time is when the
    /// network's `Generate` event for the class fires).
    pub next: Vec<Option<Generated>>,
    /// Per class, the route (index into the routing's routes to the destination) of
    /// each admitted connection, by flow number.
    pub routes: Vec<Vec<u32>>,
}

impl Interface {
    /// An interface with `classes` classes, the routes of their connections, injection
    /// buffers of `credits` credits each.
    pub fn new(
        generators: Vec<Option<ClassGenerator>>,
        routes: Vec<Vec<u32>>,
        credits: u32,
    ) -> Interface {
        let classes = generators.len();
        Interface {
            application: vec![VecDeque::new(); classes],
            injection: vec![CreditCounter::new(credits); classes],
            generators,
            next: vec![None; classes],
            routes,
        }
    }

    /// Draws the next packet of `class` into [`Interface::next`] and returns its time
    /// (None when the class has nothing more to send).
    pub fn pull(&mut self, class: usize) -> Option<crate::time::SimTime> {
        let next = self.generators[class]
            .as_mut()
            .and_then(|g| g.next_packet());
        self.next[class] = next;
        next.map(|g| g.time)
    }

    /// Moves the heads of `class`'s application queue into the injection buffer (the
    /// port's output queue `queue`, the class's on routing lane 0) while they fit,
    /// telling the port's scheduler. Returns the credits moved.
    pub fn admit(
        &mut self,
        now: SimTime,
        class: usize,
        queue: usize,
        port: &mut OutputPort,
        pool: &mut PacketPool,
    ) -> u32 {
        let mut moved = 0;
        let application = &mut self.application[class];
        while let Some(packet) = application.front() {
            if !self.injection[class].consume(packet.credits) {
                break;
            }
            let Some(mut packet) = application.pop_front() else {
                break;
            };
            packet.tail = now;
            moved += packet.credits;
            let h = pool.insert(packet);
            port.enqueue(now, queue, h, pool);
        }
        moved
    }

    /// Packets of `class` waiting in the application queue.
    pub fn backlog(&self, class: usize) -> usize {
        self.application[class].len()
    }
}
