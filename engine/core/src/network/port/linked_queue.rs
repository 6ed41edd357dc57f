//! An output queue of packet handles linked through the packet pool: the queue itself is
//! its two ends, kept in the port, and each packet's successor is in the pool's links
//! ([`PacketLinks`]). Reaching a queue's head reads no block of its own (a `VecDeque`
//! per queue kept its handles in a buffer of its own, one more cache line per queue in
//! a large network), and a queue allocates nothing.

/// The handle that means "no packet".
const NO_PACKET: u32 = u32::MAX;

/// Each stored packet's successor in the queue it waits in, by handle (meaningful only
/// for a packet that is not its queue's tail).
#[derive(Clone, Debug, Default)]
pub struct PacketLinks {
    next: Vec<u32>,
}

impl PacketLinks {
    /// Room for handles below `n`.
    #[inline]
    pub fn cover(&mut self, n: usize) {
        if self.next.len() < n {
            self.next.resize(n, NO_PACKET);
        }
    }

    #[inline]
    fn next(&self, h: u32) -> u32 {
        self.next[h as usize]
    }

    #[inline]
    fn set_next(&mut self, h: u32, next: u32) {
        self.next[h as usize] = next;
    }
}

/// A FIFO queue of packet handles linked through [`PacketLinks`]. A handle is in at
/// most one queue at a time (a packet waits in one output queue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkedQueue {
    head: u32,
    tail: u32,
}

impl LinkedQueue {
    /// The empty queue.
    pub const EMPTY: LinkedQueue = LinkedQueue {
        head: NO_PACKET,
        tail: NO_PACKET,
    };

    /// Whether no packet waits.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.head == NO_PACKET
    }

    /// The packet at the head.
    #[inline]
    pub fn front(&self) -> Option<u32> {
        (self.head != NO_PACKET).then_some(self.head)
    }

    /// The packet behind the head.
    #[inline]
    pub fn second(&self, links: &PacketLinks) -> Option<u32> {
        (self.head != self.tail).then(|| links.next(self.head))
    }

    /// Queues `h` (not in any queue) at the back.
    #[inline]
    pub fn push_back(&mut self, h: u32, links: &mut PacketLinks) {
        debug_assert_ne!(h, NO_PACKET);
        if self.head == NO_PACKET {
            self.head = h;
        } else {
            links.set_next(self.tail, h);
        }
        self.tail = h;
    }

    /// Takes the packet at the head.
    #[inline]
    pub fn pop_front(&mut self, links: &PacketLinks) -> Option<u32> {
        let h = self.front()?;
        if h == self.tail {
            *self = LinkedQueue::EMPTY;
        } else {
            self.head = links.next(h);
        }
        Some(h)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Several queues sharing one set of links behave as one `VecDeque` each, handles
        /// being reused once popped (as the pool reuses them).
        #[test]
        fn queues_linked_through_one_pool_are_fifos(
            ops in proptest::collection::vec((0usize..3, any::<bool>()), 0..400),
        ) {
            let mut links = PacketLinks::default();
            let mut queues = [LinkedQueue::EMPTY; 3];
            let mut models: [VecDeque<u32>; 3] = Default::default();
            let mut free: Vec<u32> = Vec::new();
            let mut issued = 0u32;
            for (q, push) in ops {
                if push {
                    let h = free.pop().unwrap_or_else(|| {
                        issued += 1;
                        issued - 1
                    });
                    links.cover(h as usize + 1);
                    queues[q].push_back(h, &mut links);
                    models[q].push_back(h);
                } else {
                    let got = queues[q].pop_front(&links);
                    prop_assert_eq!(got, models[q].pop_front());
                    free.extend(got);
                }
                for (queue, model) in queues.iter().zip(&models) {
                    prop_assert_eq!(queue.front(), model.front().copied());
                    prop_assert_eq!(queue.second(&links), model.get(1).copied());
                    prop_assert_eq!(queue.is_empty(), model.is_empty());
                }
            }
        }
    }
}
