//! The CIOQ switch's virtual output queues: many FIFO queues of packet handles, linked
//! through one node arena per switch instead of one `VecDeque` per queue.
//!
//! A switch of `p` ports and `c` output queues has `p * p * c` VOQs, almost all empty
//! at any time: a `VecDeque` costs 32 bytes each plus its own allocation once used (at
//! 4 096 end points, 768 switches of 32 ports: 786 432 queues, 25 MB of headers alone).
//! Here a queue is a (head, tail) pair of node indices, 8 bytes, and the nodes (packet,
//! next) come from a shared arena with a free list, which grows to the most packets the
//! switch ever held in its VOQs at once (at most its input buffers' credits).

/// No node: the end of a list, or an empty queue.
const NONE: u32 = u32::MAX;

/// FIFO queues of `u64` items, linked through one arena.
#[derive(Clone, Debug)]
pub(super) struct LinkedQueues {
    /// Per queue, its first node (`NONE` when empty) and its last (meaningless when
    /// empty), side by side: a push or pop touches one cache line for both.
    ends: Vec<Ends>,
    /// The nodes (item and link together, for the same reason).
    nodes: Vec<Node>,
    /// First free node (`NONE`: the arena grows).
    free: u32,
    /// Items queued in all queues.
    len: usize,
}

/// A queue's first and last node.
#[derive(Clone, Copy, Debug)]
struct Ends {
    head: u32,
    tail: u32,
}

/// One queued item and the next node of its queue, or of the free list.
#[derive(Clone, Copy, Debug)]
struct Node {
    item: u64,
    next: u32,
}

impl LinkedQueues {
    /// `queues` empty queues.
    pub(super) fn new(queues: usize) -> LinkedQueues {
        LinkedQueues {
            ends: vec![
                Ends {
                    head: NONE,
                    tail: NONE
                };
                queues
            ],
            nodes: Vec::new(),
            free: NONE,
            len: 0,
        }
    }

    /// Appends `item` to queue `q`.
    #[inline]
    pub(super) fn push_back(&mut self, q: usize, item: u64) {
        let node = Node { item, next: NONE };
        let n = if self.free == NONE {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        } else {
            let n = self.free;
            self.free = self.nodes[n as usize].next;
            self.nodes[n as usize] = node;
            n
        };
        let ends = &mut self.ends[q];
        if ends.head == NONE {
            ends.head = n;
        } else {
            self.nodes[ends.tail as usize].next = n;
        }
        ends.tail = n;
        self.len += 1;
    }

    /// The first item of queue `q`.
    #[inline]
    pub(super) fn front(&self, q: usize) -> Option<u64> {
        let n = self.ends[q].head;
        (n != NONE).then(|| self.nodes[n as usize].item)
    }

    /// Removes and returns the first item of queue `q`.
    #[inline]
    pub(super) fn pop_front(&mut self, q: usize) -> Option<u64> {
        let n = self.ends[q].head;
        if n == NONE {
            return None;
        }
        let node = &mut self.nodes[n as usize];
        self.ends[q].head = node.next;
        node.next = self.free;
        self.free = n;
        self.len -= 1;
        Some(node.item)
    }

    /// Whether queue `q` is empty.
    #[inline]
    pub(super) fn is_empty(&self, q: usize) -> bool {
        self.ends[q].head == NONE
    }

    /// Items in all queues.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The items of queue `q`, first to last.
    #[cfg(test)]
    pub(super) fn items(&self, q: usize) -> Vec<u64> {
        let mut out = Vec::new();
        let mut n = self.ends[q].head;
        while n != NONE {
            out.push(self.nodes[n as usize].item);
            n = self.nodes[n as usize].next;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use super::LinkedQueues;

    proptest::proptest! {
        /// Any sequence of pushes and pops on any queues behaves as one `VecDeque` per
        /// queue: the same fronts, popped items and lengths, and the same contents.
        #[test]
        fn behaves_as_a_deque_per_queue(
            queues in 1usize..6,
            ops in proptest::collection::vec((0usize..6, proptest::bool::ANY, proptest::num::u64::ANY), 0..400),
        ) {
            let mut linked = LinkedQueues::new(queues);
            let mut plain = vec![VecDeque::new(); queues];
            for (q, push, item) in ops {
                let q = q % queues;
                if push {
                    linked.push_back(q, item);
                    plain[q].push_back(item);
                } else {
                    proptest::prop_assert_eq!(linked.pop_front(q), plain[q].pop_front());
                }
                proptest::prop_assert_eq!(linked.front(q), plain[q].front().copied());
                proptest::prop_assert_eq!(linked.is_empty(q), plain[q].is_empty());
                proptest::prop_assert_eq!(linked.len(), plain.iter().map(VecDeque::len).sum::<usize>());
            }
            for (q, p) in plain.iter().enumerate() {
                proptest::prop_assert_eq!(linked.items(q), p.iter().copied().collect::<Vec<_>>());
            }
        }

        /// The arena reuses freed nodes: it never holds more nodes than the most items
        /// queued at once.
        #[test]
        fn arena_stays_at_the_peak(ops in proptest::collection::vec((0usize..4, proptest::bool::ANY), 0..300)) {
            let mut linked = LinkedQueues::new(4);
            let mut peak = 0;
            for (q, push) in ops {
                if push {
                    linked.push_back(q, 7);
                } else {
                    linked.pop_front(q);
                }
                peak = peak.max(linked.len());
                proptest::prop_assert!(linked.nodes.len() <= peak);
            }
        }
    }
}
