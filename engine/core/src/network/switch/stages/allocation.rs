//! One allocation round of a crossbar (the InfiniBand-like switch's crossbar, and each
//! local crossbar and the central crossbar of the Omni-Path-like switch): VL allocation
//! at every free input ([`super::vl_allocation`]: round robin among the lanes whose head
//! may move now), then switch allocation at every output some input's winner requests
//! ([`super::switch_allocation`]: round robin among those inputs). The switch says,
//! head by head, which crossbar output it would take now (its output free and the buffer
//! behind it with room), so one round serves any crossbar whatever lies behind its
//! outputs; it then starts the granted transfers itself.

use super::bits;
use super::input_buffer::{InputBuffers, Routed};
use super::switch_allocation::SwitchAllocator;
use super::vl_allocation::VlAllocator;

/// A transfer one round granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grant {
    /// The input of the buffers (not the crossbar's index).
    pub input: u32,
    /// The lane whose head was granted.
    pub lane: u32,
    /// The crossbar output.
    pub output: u32,
}

/// The scratch of allocation rounds of one crossbar (at most 64 inputs and outputs).
pub struct AllocationRound {
    /// Per crossbar output, the crossbar inputs requesting it.
    requests: Vec<u64>,
    /// Per crossbar input, the lane its VL allocation chose.
    chosen: Vec<u32>,
    /// The grants of the last round.
    pub grants: Vec<Grant>,
}

impl AllocationRound {
    /// Scratch for a crossbar of `inputs` x `outputs`.
    pub fn new(inputs: u32, outputs: u32) -> AllocationRound {
        AllocationRound {
            requests: vec![0; outputs as usize],
            chosen: vec![0; inputs as usize],
            grants: Vec::new(),
        }
    }

    /// One round over inputs `first .. first + count` of `buffers`, which are crossbar
    /// inputs `0 .. count` of `sa`; `target(input, head)` is the crossbar output the head
    /// would take if it may move now (None: it may not). The grants (none: nothing could
    /// be granted) are left in [`AllocationRound::grants`]; the caller pops the heads and
    /// tells `vl` and `sa`.
    pub fn run(
        &mut self,
        buffers: &InputBuffers,
        first: u32,
        count: u32,
        vl: &VlAllocator,
        sa: &SwitchAllocator,
        mut target: impl FnMut(u32, &Routed) -> Option<u32>,
    ) {
        self.grants.clear();
        let mut wanted = 0u64;
        let mut to = [0u32; 64];
        for x in 0..count {
            let input = first + x;
            let heads = buffers.heads(input);
            if heads == 0 || sa.input_busy(x) {
                continue;
            }
            let mut candidates = 0u64;
            for lane in bits(heads) {
                if let Some(out) = buffers.head(input, lane).and_then(|h| target(input, h)) {
                    candidates |= 1 << lane;
                    to[lane as usize] = out;
                }
            }
            let Some(lane) = vl.choose(input, candidates) else {
                continue;
            };
            let out = to[lane as usize];
            self.chosen[x as usize] = lane;
            self.requests[out as usize] |= 1 << x;
            wanted |= 1 << out;
        }
        for output in bits(wanted) {
            let requests = std::mem::take(&mut self.requests[output as usize]);
            if let Some(x) = sa.choose(output, requests) {
                self.grants.push(Grant {
                    input: first + x,
                    lane: self.chosen[x as usize],
                    output,
                });
            }
        }
    }
}
