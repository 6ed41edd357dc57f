//! The Omni-Path-like switch's allocation: rounds of the local crossbars an event
//! changed, then rounds of the central crossbar, each until nothing more can be granted.

use super::{MPORT_LINKS, MPORT_PORTS, Omnipath};
use crate::network::switch::SwitchContext;
use crate::network::switch::stages::allocation::AllocationRound;

impl Omnipath {
    /// Allocation until nothing more can be granted now: rounds of the local crossbars
    /// of the MPorts in `mports` (bits), then rounds of the central crossbar (a grant
    /// frees nothing at once, so no local round can gain from a central one at the same
    /// instant). Every allocation leaves each local crossbar unable to grant, so only
    /// those whose inputs, outputs or buffers the event changed are visited (a property
    /// test compares this with visiting all of them: `exhaustive`).
    pub(super) fn allocate(&mut self, cx: &mut SwitchContext, mports: u64) {
        #[cfg(test)]
        let mports = if self.exhaustive { u64::MAX } else { mports };
        for m in (0..self.mports).filter(|m| mports >> m & 1 == 1) {
            while self.local_round(cx, m) {}
        }
        while self.central_round(cx) {}
    }

    /// One round of MPort `m`'s local crossbar; true when something was granted.
    fn local_round(&mut self, cx: &mut SwitchContext, m: u32) -> bool {
        let first = m * MPORT_PORTS;
        let count = MPORT_PORTS.min(self.ports - first);
        let sa = &self.local[m as usize];
        let (outputs, central) = (&self.outputs, &self.central);
        self.local_round.run(
            &self.inputs,
            first,
            count,
            AllocationRound::every(count),
            &self.vl,
            sa,
            |input, h| {
                if !outputs.fits(h.output, h.queue, h.credits) {
                    return None;
                }
                if Self::mport(h.output) == m {
                    let to = h.output - first;
                    return (!sa.output_busy(to)).then_some(to);
                }
                let l = Self::link_of(input);
                let lane = outputs.lane(h.output, h.queue);
                (!sa.output_busy(MPORT_PORTS + l)
                    && central.fits(m * MPORT_LINKS + l, lane, h.credits))
                .then_some(MPORT_PORTS + l)
            },
        );
        let grants = std::mem::take(&mut self.local_round.grants);
        let mut granted = false;
        for &g in &grants {
            // Two central links of one round may carry heads for one output: the
            // second waits if the first took the room it needed.
            let fits = self
                .inputs
                .head(g.input, g.lane)
                .is_some_and(|h| self.outputs.fits(h.output, h.queue, h.credits));
            if fits {
                self.start_local(cx, m, g);
                granted = true;
            }
        }
        self.local_round.grants = grants;
        granted
    }

    /// One round of the central crossbar; true when something was granted.
    fn central_round(&mut self, cx: &mut SwitchContext) -> bool {
        let links = self.mports * MPORT_LINKS;
        let sa = &self.central_sa;
        // The output space was reserved at the local grant.
        self.central_round.run(
            &self.central,
            0,
            links,
            AllocationRound::every(links),
            &self.central_vl,
            sa,
            |_, h| (!sa.output_busy(h.output)).then_some(h.output),
        );
        let grants = std::mem::take(&mut self.central_round.grants);
        for &g in &grants {
            self.start_central(cx, g);
        }
        let granted = !grants.is_empty();
        self.central_round.grants = grants;
        granted
    }
}
