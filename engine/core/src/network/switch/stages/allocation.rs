//! One allocation round of a crossbar (the InfiniBand-like switch's crossbar, and each
//! local crossbar and the central crossbar of the Omni-Path-like switch): VL allocation
//! at every free input ([`super::vl_allocation`]: round robin among the lanes whose head
//! may move now), then switch allocation at every output some input's winner requests
//! ([`super::switch_allocation`]: round robin among those inputs). The switch says,
//! head by head, which crossbar output it would take now (its output free and the buffer
//! behind it with room), so one round serves any crossbar whatever lies behind its
//! outputs; it then starts the granted transfers itself.
//!
//! A round may be limited to some inputs (`scan`): an input left out must be one that
//! could request nothing, so that the round grants what a round over every input would.
//! A round reports its *losers*, the inputs that requested an output and were not
//! granted. Where granting only makes inputs and outputs busy and takes output buffer
//! space (nothing a round grants can let another head move), the losers are the only
//! inputs a next round at the same instant can grant, so a switch runs the next round
//! over them alone and none at all when there are none (the round that would find
//! nothing is never run).

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
    /// Crossbar inputs (bits) that requested an output in the last round and were not
    /// granted.
    pub losers: u64,
}

impl AllocationRound {
    /// Scratch for a crossbar of `inputs` x `outputs`.
    pub fn new(inputs: u32, outputs: u32) -> AllocationRound {
        AllocationRound {
            requests: vec![0; outputs as usize],
            chosen: vec![0; inputs as usize],
            grants: Vec::new(),
            losers: 0,
        }
    }

    /// The bits of crossbar inputs `0 .. count`: a round over every input.
    pub fn every(count: u32) -> u64 {
        if count >= 64 {
            u64::MAX
        } else {
            (1 << count) - 1
        }
    }

    /// One round over inputs `first .. first + count` of `buffers`, which are crossbar
    /// inputs `0 .. count` of `sa`, of which those in `scan` (bits of crossbar inputs;
    /// [`AllocationRound::every`] for all); `target(input, head)` is the crossbar output
    /// the head would take if it may move now (None: it may not). The grants (none:
    /// nothing could be granted) are left in [`AllocationRound::grants`] and the inputs
    /// that requested in vain in [`AllocationRound::losers`]; the caller pops the heads
    /// and tells `vl` and `sa`.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &mut self,
        buffers: &InputBuffers,
        first: u32,
        count: u32,
        scan: u64,
        vl: &VlAllocator,
        sa: &SwitchAllocator,
        mut target: impl FnMut(u32, &Routed) -> Option<u32>,
    ) {
        self.grants.clear();
        let mut wanted = 0u64;
        let mut requested = 0u64;
        let mut to = [0u32; 64];
        for x in bits(scan & Self::every(count)) {
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
            requested |= 1 << x;
            wanted |= 1 << out;
        }
        self.losers = requested;
        for output in bits(wanted) {
            let requests = std::mem::take(&mut self.requests[output as usize]);
            if let Some(x) = sa.choose(output, requests) {
                self.losers &= !(1 << x);
                self.grants.push(Grant {
                    input: first + x,
                    lane: self.chosen[x as usize],
                    output,
                });
            }
        }
    }
}
