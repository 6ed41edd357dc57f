//! Switch allocation: per output port, one of the inputs whose VL allocation winner
//! requests it is granted the crossbar, round robin from the input after the one
//! granted last. A granted input and output stay busy until the transfer ends.

use super::rotated_bits;

/// The switch allocators and crossbar state of one switch (at most 64 ports).
pub struct SwitchAllocator {
    /// Per output, the input to look at first.
    next: Vec<u32>,
    input_busy: u64,
    output_busy: u64,
}

impl SwitchAllocator {
    /// Allocators for a crossbar of `ports` ports.
    pub fn new(ports: u32) -> SwitchAllocator {
        SwitchAllocator {
            next: vec![0; ports as usize],
            input_busy: 0,
            output_busy: 0,
        }
    }

    /// Whether `input` is sending through the crossbar.
    pub fn input_busy(&self, input: u32) -> bool {
        self.input_busy & (1 << input) != 0
    }

    /// Whether `output` is receiving from the crossbar.
    pub fn output_busy(&self, output: u32) -> bool {
        self.output_busy & (1 << output) != 0
    }

    /// Among the free inputs of `requests` (bit per input), the one `output` grants, if
    /// `output` is free.
    pub fn choose(&self, output: u32, requests: u64) -> Option<u32> {
        if self.output_busy(output) {
            return None;
        }
        rotated_bits(requests & !self.input_busy, self.next[output as usize]).next()
    }

    /// `output` granted `input`: both are busy, and `output`'s next round starts after
    /// `input`.
    pub fn grant(&mut self, input: u32, output: u32) {
        self.input_busy |= 1 << input;
        self.output_busy |= 1 << output;
        self.next[output as usize] = (input + 1) % 64;
    }

    /// The transfer from `input` to `output` has ended.
    pub fn release(&mut self, input: u32, output: u32) {
        self.input_busy &= !(1 << input);
        self.output_busy &= !(1 << output);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inputs 1, 2 and 4 keep requesting output 0: they are granted in turn, never a
    /// busy input, and nothing while the output is busy.
    #[test]
    fn inputs_are_granted_round_robin() {
        let mut sa = SwitchAllocator::new(5);
        let mut order = Vec::new();
        for _ in 0..6 {
            let i = sa.choose(0, 0b10110).unwrap();
            sa.grant(i, 0);
            assert_eq!(sa.choose(0, 0b10110), None, "output 0 busy");
            order.push(i);
            sa.release(i, 0);
        }
        assert_eq!(order, vec![1, 2, 4, 1, 2, 4]);
        sa.grant(2, 3);
        assert!(sa.input_busy(2) && sa.output_busy(3));
        assert_eq!(sa.choose(0, 0b00100), None, "input 2 busy elsewhere");
        assert_eq!(sa.choose(0, 0b00110), Some(1));
    }
}
