//! VL allocation: per input port, one lane (VL) of those whose head is routed and may
//! move is chosen round robin, starting after the lane that won last (the pointer moves
//! only when the chosen lane's packet is granted the crossbar, as a round-robin
//! arbiter's does). The winner then requests its output in switch allocation
//! ([`super::switch_allocation`]).

use super::rotated_bits;

/// The VL allocators of one switch (one per input).
pub struct VlAllocator {
    /// Per input, the lane to look at first.
    next: Vec<u32>,
}

impl VlAllocator {
    /// Allocators for `ports` inputs.
    pub fn new(ports: u32) -> VlAllocator {
        VlAllocator {
            next: vec![0; ports as usize],
        }
    }

    /// Among `candidates` (bit per lane), the lane `input` offers to switch allocation.
    pub fn choose(&self, input: u32, candidates: u64) -> Option<u32> {
        rotated_bits(candidates, self.next[input as usize]).next()
    }

    /// `lane` of `input` was granted the crossbar: the next round starts after it.
    pub fn granted(&mut self, input: u32, lane: u32) {
        self.next[input as usize] = (lane + 1) % 64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three lanes always ready: they win in turn, and a lane that is not ready is
    /// skipped without losing its turn for later.
    #[test]
    fn lanes_win_round_robin() {
        let mut va = VlAllocator::new(2);
        let mut order = Vec::new();
        for _ in 0..6 {
            let lane = va.choose(1, 0b1101).unwrap();
            order.push(lane);
            va.granted(1, lane);
        }
        assert_eq!(order, vec![0, 2, 3, 0, 2, 3]);
        // Input 0 has its own pointer; a choice not granted keeps it.
        assert_eq!(va.choose(0, 0b110), Some(1));
        assert_eq!(va.choose(0, 0b110), Some(1));
        va.granted(0, 1);
        assert_eq!(va.choose(0, 0b110), Some(2));
        assert_eq!(va.choose(0, 0), None);
    }
}
