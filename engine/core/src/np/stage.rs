//! The node's transmit queue onto the link: first come, first served, or ordered by a key
//! the scheduler gives each processed packet (the separate-WFQ baseline's link-side WFQ);
//! equal keys keep their order of arrival.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::predict::Tag;

#[derive(Debug)]
struct Entry<T> {
    key: Tag,
    seq: u64,
    pkt: T,
}

impl<T> PartialEq for Entry<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.key, self.seq) == (other.key, other.seq)
    }
}
impl<T> Eq for Entry<T> {}
impl<T> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Entry<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.key, self.seq).cmp(&(other.key, other.seq))
    }
}

/// The transmit queue.
#[derive(Debug)]
pub(super) struct TxQueue<T> {
    heap: BinaryHeap<Reverse<Entry<T>>>,
    seq: u64,
}

impl<T> Default for TxQueue<T> {
    fn default() -> Self {
        TxQueue {
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }
}

impl<T> TxQueue<T> {
    /// Queues `pkt` with `key` (None: behind everything queued so far with no key).
    pub fn push(&mut self, key: Option<f64>, pkt: T) {
        self.seq += 1;
        self.heap.push(Reverse(Entry {
            key: Tag(key.unwrap_or(0.0)),
            seq: self.seq,
            pkt,
        }));
    }

    /// The next packet for the link.
    pub fn pop(&mut self) -> Option<T> {
        self.heap.pop().map(|Reverse(e)| e.pkt)
    }

    /// Packets queued.
    pub fn len(&self) -> usize {
        self.heap.len()
    }
}
