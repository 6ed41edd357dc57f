//! The sorted structure of the virtual-time schedulers (SCFQ, SFQ, WFQ, WF2Q+): a
//! min-heap of class heads keyed by a tag, which skips heads blocked by credits.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{PortView, SchedulerCost};

/// Normalises weights into shares summing to 1 (weights are validated: finite, > 0).
pub(super) fn shares(weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    weights
        .iter()
        .map(|&w| {
            let s = if total > 0.0 { w / total } else { 0.0 };
            // Guard against degenerate input (a zero share would give infinite tags).
            if s > 0.0 { s } else { f64::MIN_POSITIVE }
        })
        .collect()
}

/// Order-preserving integer key of a non-negative tag (the IEEE-754 bit pattern of a
/// non-negative float increases with its value).
fn key_of(tag: f64) -> u64 {
    if tag > 0.0 { tag.to_bits() } else { 0 }
}

/// A min-heap of class heads keyed by a tag (ties by class index), shared by the
/// virtual-time schedulers (SCFQ, SFQ, WFQ, WF2Q+). It holds at most one entry per
/// class and never allocates after construction.
#[derive(Clone, Debug)]
pub(super) struct HeadHeap {
    heap: BinaryHeap<Reverse<(u64, usize)>>,
    /// Scratch list of heads set aside because their class is blocked by credits.
    blocked: Vec<(u64, usize)>,
}

impl HeadHeap {
    /// An empty heap for `classes` classes.
    pub(super) fn new(classes: usize) -> HeadHeap {
        HeadHeap {
            heap: BinaryHeap::with_capacity(classes + 1),
            blocked: Vec::with_capacity(classes + 1),
        }
    }

    /// Adds the head of `class` with `tag`.
    pub(super) fn push(&mut self, tag: f64, class: usize, cost: &mut SchedulerCost) {
        self.heap.push(Reverse((key_of(tag), class)));
        cost.heap_operations += 1;
    }

    /// The smallest (tag, class) without removing it.
    pub(super) fn peek(&self) -> Option<(f64, usize)> {
        self.heap
            .peek()
            .map(|Reverse((k, c))| (f64::from_bits(*k), *c))
    }

    /// Removes the smallest entry.
    pub(super) fn pop(&mut self, cost: &mut SchedulerCost) -> Option<(f64, usize)> {
        let Reverse((k, c)) = self.heap.pop()?;
        cost.heap_operations += 1;
        Some((f64::from_bits(k), c))
    }

    /// Removes and returns the smallest entry whose class is active; entries of blocked
    /// classes are put back. `None` when no class in the heap is active.
    pub(super) fn pop_active(
        &mut self,
        port: &dyn PortView,
        cost: &mut SchedulerCost,
    ) -> Option<(f64, usize)> {
        self.blocked.clear();
        let mut found = None;
        while let Some(Reverse((k, c))) = self.heap.pop() {
            cost.heap_operations += 1;
            cost.classes_examined += 1;
            if port.is_active(c) {
                found = Some((f64::from_bits(k), c));
                break;
            }
            self.blocked.push((k, c));
        }
        for &(k, c) in &self.blocked {
            self.heap.push(Reverse((k, c)));
            cost.heap_operations += 1;
        }
        found
    }

    /// Whether the heap is empty.
    pub(super) fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Removes every entry.
    pub(super) fn clear(&mut self) {
        self.heap.clear();
    }
}

#[cfg(test)]
#[path = "head_heap_tests.rs"]
mod tests;
