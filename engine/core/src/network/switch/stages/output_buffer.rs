//! Output buffers: per output port one buffer whose space its lanes share under the
//! network's credit policy. The crossbar writes a packet only when the lane of its
//! output queue has room for all of it; the space is free again when its tail has left
//! on the link. The output scheduler draining it is the fabric's output port.

use std::sync::Arc;

use super::credit_table::CreditTable;
use crate::network::lanes::CreditPolicyConfig;

/// The output buffers of one switch.
pub struct OutputBuffers {
    /// Per output port, the lane of each of its queues (an output port may map SLs to
    /// VLs its own way).
    lane_of_queue: Vec<Arc<[u16]>>,
    /// Per output, the space per lane.
    room: CreditTable,
}

impl OutputBuffers {
    /// Buffers of `total` credits for outputs of `lanes` lanes under `policy`, one per
    /// queue-to-lane table of `lane_of_queue` (one per output port).
    pub fn new(
        lanes: u16,
        lane_of_queue: Vec<Arc<[u16]>>,
        total: u32,
        policy: &CreditPolicyConfig,
    ) -> OutputBuffers {
        let ports = lane_of_queue.len() as u32;
        OutputBuffers {
            lane_of_queue,
            room: CreditTable::new(ports, policy, lanes, total),
        }
    }

    /// The lane of output queue `queue` of `output`.
    pub fn lane(&self, output: u32, queue: u16) -> u16 {
        self.lane_of_queue[output as usize][usize::from(queue)]
    }

    /// The queue-to-lane table of `output`.
    pub fn table(&self, output: u32) -> &Arc<[u16]> {
        &self.lane_of_queue[output as usize]
    }

    /// Whether `credits` fit the lane of `queue` at `output` now.
    pub fn fits(&self, output: u32, queue: u16, credits: u32) -> bool {
        self.room
            .fits(output, usize::from(self.lane(output, queue)), credits)
    }

    /// Takes `credits` of `queue`'s lane at `output`; false (nothing taken) when they
    /// do not fit.
    pub fn take(&mut self, output: u32, queue: u16, credits: u32) -> bool {
        let lane = usize::from(self.lane(output, queue));
        self.room.consume(output, lane, credits)
    }

    /// A packet's tail of `credits` has left `lane` of `output` on the link.
    pub fn freed(&mut self, output: u32, lane: u16, credits: u32) {
        self.room.give_back(output, usize::from(lane), credits);
    }

    /// Credits `lane` of `output` holds.
    pub fn in_use(&self, output: u32, lane: u16) -> u32 {
        self.room.in_use(output, usize::from(lane))
    }
}
