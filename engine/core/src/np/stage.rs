//! The node's transmit queue onto the link: first come, first served, or ordered by a key
//! the scheduler gives each processed packet (the separate-WFQ baseline's link-side WFQ);
//! equal keys keep their order of arrival.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::node::Pkt;
use super::predict::Tag;

#[derive(Debug)]
struct Entry {
    key: Tag,
    seq: u64,
    pkt: Pkt,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        (self.key, self.seq) == (other.key, other.seq)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.key, self.seq).cmp(&(other.key, other.seq))
    }
}

/// The transmit queue.
#[derive(Debug, Default)]
pub(super) struct TxQueue {
    heap: BinaryHeap<Reverse<Entry>>,
    seq: u64,
}

impl TxQueue {
    /// Queues `pkt` with `key` (None: behind everything queued so far with no key).
    pub fn push(&mut self, key: Option<f64>, pkt: Pkt) {
        self.seq += 1;
        self.heap.push(Reverse(Entry {
            key: Tag(key.unwrap_or(0.0)),
            seq: self.seq,
            pkt,
        }));
    }

    /// The next packet for the link.
    pub fn pop(&mut self) -> Option<Pkt> {
        self.heap.pop().map(|Reverse(e)| e.pkt)
    }

    /// Packets queued.
    pub fn len(&self) -> usize {
        self.heap.len()
    }
}
