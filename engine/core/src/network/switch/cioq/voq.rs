//! The CIOQ switch's virtual output queues: many FIFO queues of packet handles, in
//! groups (one per (input, output) pair), linked through one node arena per switch
//! instead of one `VecDeque` per queue.
//!
//! A switch of `p` ports and `c` output queues has `p * p * c` VOQs, almost all empty
//! at any time: a `VecDeque` costs 32 bytes each plus its own allocation once used (at
//! 4 096 end points, 768 switches of 32 ports: 786 432 queues, 25 MB of headers alone).
//! Here a queue is a 16-byte cell: its first item, held in place, and the (head, tail)
//! node indices of the items behind it, which come from a shared arena with a free list
//! that grows to the most packets the switch ever held behind a VOQ's first at once.
//! Each group's queues follow a 16-byte cell of the group's own (which of its queues
//! hold items, and a round-robin pointer its user keeps), and a group of up to three
//! queues lies in one cache line.
//!
//! So the common case of a large network touches one cache line of the table: most VOQs
//! hold at most one packet (a header usually finds its VOQ empty at the loads studied),
//! and a push or pop of a single item writes its queue's first item and the group's
//! mask side by side, reading no node (the most recently freed node, the free list's
//! head, has long left the cache there) and linking none.

/// No node: the end of a list, or no item behind the first.
const NONE: u32 = u32::MAX;

/// The first item of an empty queue. An item is a packet's credits and handle
/// (`credits << 32 | handle`), never all ones.
const EMPTY: u64 = u64::MAX;

/// Most queues in a group (one bit each in the group's mask).
const MAX_PER_GROUP: usize = 64;

/// Groups of FIFO queues of `u64` items (never [`EMPTY`]), each queue holding its first
/// item in place and the rest linked through one arena.
#[derive(Clone, Debug)]
pub(super) struct LinkedQueues {
    /// The cells, 4 to a cache line: per group, its own cell then one per queue
    /// ([`LinkedQueues::group_cell`], [`LinkedQueues::queue_cell`]).
    lines: Vec<Line>,
    /// Cells from one group's own cell to the next's.
    stride: usize,
    /// The nodes (item and link together, side by side in one line).
    nodes: Vec<Node>,
    /// First free node (`NONE`: the arena grows).
    free: u32,
    /// Items queued in all queues.
    len: usize,
}

/// A 16-byte cell: a group's own (`word`: bit `q` set when its queue `q` holds an item;
/// `a`: its round-robin pointer; `b` unused) or a queue (`word`: its first item,
/// [`EMPTY`] when it has none; `a`, `b`: the first and last nodes of the items behind
/// it, `a` being `NONE` when there are none and `b` then meaningless).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct Cell {
    word: u64,
    a: u32,
    b: u32,
}

/// Four cells on one cache line (the vector's start is line aligned, so a group of
/// four cells or fewer never straddles two lines).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Line([Cell; 4]);

/// One queued item and the next node of its queue, or of the free list.
#[derive(Clone, Copy, Debug)]
struct Node {
    item: u64,
    next: u32,
}

impl LinkedQueues {
    /// `groups` groups of `per_group` (at most [`MAX_PER_GROUP`]) empty queues.
    pub(super) fn new(groups: usize, per_group: usize) -> LinkedQueues {
        debug_assert!(per_group <= MAX_PER_GROUP, "a group of {per_group} queues");
        let cells = 1 + per_group;
        // Up to a line, a power of two (it divides the line, so no group straddles
        // two); beyond, whole lines.
        let stride = if cells <= 4 {
            cells.next_power_of_two()
        } else {
            cells.next_multiple_of(4)
        };
        let queue = Cell {
            word: EMPTY,
            a: NONE,
            b: NONE,
        };
        let mut lines = vec![Line([queue; 4]); (groups * stride).div_ceil(4)];
        for g in 0..groups {
            let i = g * stride;
            lines[i / 4].0[i % 4] = Cell {
                word: 0,
                a: 0,
                b: 0,
            };
        }
        LinkedQueues {
            lines,
            stride,
            nodes: Vec::new(),
            free: NONE,
            len: 0,
        }
    }

    /// Starts fetching `group`'s cells ([`crate::cache_hint`]).
    pub(super) fn warm_group(&self, group: usize) {
        let first = self.group_cell(group) / 4;
        if let Some(lines) = self.lines.get(first..first + self.stride.div_ceil(4)) {
            crate::cache_hint::prefetch_all(lines);
        }
    }

    /// Index of `group`'s own cell.
    #[inline]
    fn group_cell(&self, group: usize) -> usize {
        group * self.stride
    }

    /// Index of the cell of queue `queue` of `group`.
    #[inline]
    fn queue_cell(&self, group: usize, queue: u32) -> usize {
        self.group_cell(group) + 1 + queue as usize
    }

    /// Cell `i` ([`LinkedQueues::group_cell`], [`LinkedQueues::queue_cell`]).
    #[inline]
    fn cell(&self, i: usize) -> &Cell {
        &self.lines[i / 4].0[i % 4]
    }

    /// Cell `i`, to change.
    #[inline]
    fn cell_mut(&mut self, i: usize) -> &mut Cell {
        &mut self.lines[i / 4].0[i % 4]
    }

    /// Appends `item` (not [`EMPTY`]) to queue `queue` of `group`.
    #[inline]
    pub(super) fn push_back(&mut self, group: usize, queue: u32, item: u64) {
        debug_assert_ne!(item, EMPTY, "the empty marker queued as an item");
        self.len += 1;
        let q = self.queue_cell(group, queue);
        if self.cell(q).word == EMPTY {
            self.cell_mut(q).word = item;
            let g = self.group_cell(group);
            self.cell_mut(g).word |= 1 << queue;
            return;
        }
        let n = self.new_node(Node { item, next: NONE });
        let cell = *self.cell(q);
        if cell.a == NONE {
            self.cell_mut(q).a = n;
        } else {
            self.nodes[cell.b as usize].next = n;
        }
        self.cell_mut(q).b = n;
    }

    /// A node holding `node`, from the free list or else the arena's end.
    #[inline]
    fn new_node(&mut self, node: Node) -> u32 {
        if self.free == NONE {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        } else {
            let n = self.free;
            self.free = self.nodes[n as usize].next;
            self.nodes[n as usize] = node;
            n
        }
    }

    /// The first item of queue `queue` of `group`.
    #[inline]
    pub(super) fn front(&self, group: usize, queue: u32) -> Option<u64> {
        let first = self.cell(self.queue_cell(group, queue)).word;
        (first != EMPTY).then_some(first)
    }

    /// Removes and returns the first item of queue `queue` of `group`.
    #[inline]
    pub(super) fn pop_front(&mut self, group: usize, queue: u32) -> Option<u64> {
        let q = self.queue_cell(group, queue);
        let cell = *self.cell(q);
        if cell.word == EMPTY {
            return None;
        }
        self.len -= 1;
        let n = cell.a;
        if n == NONE {
            self.cell_mut(q).word = EMPTY;
            let g = self.group_cell(group);
            self.cell_mut(g).word &= !(1 << queue);
            return Some(cell.word);
        }
        // The item behind moves into place; its node goes to the free list.
        let node = self.nodes[n as usize];
        self.nodes[n as usize].next = self.free;
        self.free = n;
        let c = self.cell_mut(q);
        c.word = node.item;
        c.a = node.next;
        Some(cell.word)
    }

    /// Whether queue `queue` of `group` is empty.
    #[inline]
    pub(super) fn is_empty(&self, group: usize, queue: u32) -> bool {
        self.cell(self.queue_cell(group, queue)).word == EMPTY
    }

    /// Bit `q` set for each queue `q` of `group` that holds an item.
    #[inline]
    pub(super) fn nonempty(&self, group: usize) -> u64 {
        self.cell(self.group_cell(group)).word
    }

    /// The round-robin pointer `group`'s user keeps (0 at first).
    #[inline]
    pub(super) fn pointer(&self, group: usize) -> u32 {
        self.cell(self.group_cell(group)).a
    }

    /// Sets `group`'s round-robin pointer.
    #[inline]
    pub(super) fn set_pointer(&mut self, group: usize, pointer: u32) {
        let g = self.group_cell(group);
        self.cell_mut(g).a = pointer;
    }

    /// Items in all queues.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The items of queue `queue` of `group`, first to last.
    #[cfg(test)]
    pub(super) fn items(&self, group: usize, queue: u32) -> Vec<u64> {
        let mut out: Vec<u64> = self.front(group, queue).into_iter().collect();
        let mut n = self.cell(self.queue_cell(group, queue)).a;
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

    /// A queue that never holds more than one item keeps it in place: no node is ever
    /// taken from the arena.
    #[test]
    fn single_items_take_no_node() {
        let mut linked = LinkedQueues::new(2, 3);
        for round in 0..10u64 {
            for q in 0..3 {
                linked.push_back(1, q, round * 3 + u64::from(q));
            }
            for q in 0..3 {
                assert_eq!(linked.pop_front(1, q), Some(round * 3 + u64::from(q)));
            }
        }
        assert!(linked.nodes.is_empty());
        linked.push_back(0, 1, 5);
        linked.push_back(0, 1, 6);
        assert_eq!(
            linked.nodes.len(),
            1,
            "the second item behind the first takes a node"
        );
    }

    /// Each group's cells lie in one cache line when there are at most four, and the
    /// pointer stays the user's.
    #[test]
    fn small_groups_keep_to_one_line() {
        for per_group in 1..=9 {
            let linked = LinkedQueues::new(7, per_group);
            assert_eq!(linked.lines.as_ptr().addr() % 64, 0, "line-aligned storage");
            for g in 0..7 {
                let first = linked.group_cell(g);
                let last = linked.queue_cell(g, per_group as u32 - 1);
                if per_group < 4 {
                    assert_eq!(first / 4, last / 4, "{per_group} queues, group {g}");
                } else {
                    assert_eq!(first % 4, 0, "{per_group} queues, group {g}");
                }
            }
        }
        let mut linked = LinkedQueues::new(3, 2);
        linked.set_pointer(1, 1);
        linked.push_back(1, 0, 9);
        assert_eq!((linked.pointer(0), linked.pointer(1)), (0, 1));
        assert_eq!(linked.nonempty(1), 1);
    }

    proptest::proptest! {
        /// Any sequence of pushes and pops on any queues of any groups behaves as one
        /// `VecDeque` per queue: the same fronts, popped items, masks and lengths, and
        /// the same contents.
        #[test]
        fn behaves_as_a_deque_per_queue(
            groups in 1usize..4,
            per_group in 1usize..7,
            ops in proptest::collection::vec((0usize..4, 0u32..7, proptest::bool::ANY, 0..super::EMPTY), 0..400),
        ) {
            let mut linked = LinkedQueues::new(groups, per_group);
            let mut plain = vec![vec![VecDeque::new(); per_group]; groups];
            for (g, q, push, item) in ops {
                let (g, q) = (g % groups, q % per_group as u32);
                let deque = &mut plain[g][q as usize];
                if push {
                    linked.push_back(g, q, item);
                    deque.push_back(item);
                } else {
                    proptest::prop_assert_eq!(linked.pop_front(g, q), deque.pop_front());
                }
                proptest::prop_assert_eq!(linked.front(g, q), deque.front().copied());
                proptest::prop_assert_eq!(linked.is_empty(g, q), deque.is_empty());
                let mask = plain[g].iter().enumerate().filter(|(_, d)| !d.is_empty()).fold(0, |m, (q, _)| m | 1 << q);
                proptest::prop_assert_eq!(linked.nonempty(g), mask);
                proptest::prop_assert_eq!(linked.len(), plain.iter().flatten().map(VecDeque::len).sum::<usize>());
            }
            for (g, queues) in plain.iter().enumerate() {
                for (q, p) in queues.iter().enumerate() {
                    proptest::prop_assert_eq!(linked.items(g, q as u32), p.iter().copied().collect::<Vec<_>>());
                }
            }
        }

        /// The arena reuses freed nodes: it never holds more nodes than the most items
        /// queued at once.
        #[test]
        fn arena_stays_at_the_peak(ops in proptest::collection::vec((0u32..4, proptest::bool::ANY), 0..300)) {
            let mut linked = LinkedQueues::new(1, 4);
            let mut peak = 0;
            for (q, push) in ops {
                if push {
                    linked.push_back(0, q, 7);
                } else {
                    linked.pop_front(0, q);
                }
                peak = peak.max(linked.len());
                proptest::prop_assert!(linked.nodes.len() <= peak);
            }
        }
    }
}
