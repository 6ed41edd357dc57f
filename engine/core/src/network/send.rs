//! The one send protocol every output port follows (the link lab's port, every network
//! port, and the scheduler tests' mock port): ask the scheduler for a class, check the
//! head against the class's downstream credits, take them, pop the head, tell the
//! scheduler, and count every way this can go wrong as an audit finding instead of
//! trusting the scheduler.
//!
//! A port implements [`SendPort`] (its queues, as a [`PortView`] the scheduler reads,
//! plus popping and taking credits); [`send_one`] runs one decision on it.

use crate::schedulers::{PortView, Scheduler};
use crate::time::SimTime;

/// A port the send protocol can act on: what the scheduler sees, and the two changes a
/// send makes.
pub trait SendPort: PortView {
    /// What a queue holds (a packet, or a handle to one).
    type Item;
    /// Takes `credits` of `class`'s downstream buffer; false (and nothing taken) when
    /// they are not free.
    fn take_credits(&mut self, class: usize, credits: u32) -> bool;
    /// Removes the head of `class`'s queue.
    fn pop(&mut self, class: usize) -> Option<Self::Item>;
    /// What a send does once the scheduler has chosen `class`: take the credits of its
    /// head and remove it. The default asks `head`, `take_credits` and `pop`; a port may
    /// answer it finding the head once (it must answer exactly as the default does).
    fn send_head(&mut self, class: usize) -> Result<Self::Item, SendFault> {
        let Some(head) = self.head(class) else {
            return Err(SendFault::Empty);
        };
        if !self.take_credits(class, head.credits) {
            return Err(SendFault::NoCredits);
        }
        self.pop(class).ok_or(SendFault::Lost)
    }
}

/// Why [`SendPort::send_head`] sent nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendFault {
    /// The class's queue is empty.
    Empty,
    /// Its head does not fit the free credits (nothing was taken).
    NoCredits,
    /// The credits were taken but the pop found nothing (an inconsistent port; not
    /// counted, as before `send_head` existed).
    Lost,
}

/// Breaches the send protocol itself detects (all zero with a correct scheduler).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SendAudit {
    /// The scheduler chose a class whose head did not fit its credits.
    pub credit_violations: u64,
    /// The link stayed idle while a class could send (the scheduler chose nothing, or an
    /// empty class).
    pub idle_with_active_class: u64,
}

/// One decision: select, check and take credits, pop, `after_send`. Returns the class
/// and the item sent, or None when nothing was sent (the audit says whether that was a
/// fault).
#[inline(always)]
pub fn send_one<S: Scheduler, P: SendPort>(
    now: SimTime,
    scheduler: &mut S,
    port: &mut P,
    audit: &mut SendAudit,
) -> Option<(usize, P::Item)> {
    let Some(class) = scheduler.select_in(now, &*port) else {
        // The port's own answer (its active classes), not the scheduler's.
        if port.active_mask() != 0 {
            audit.idle_with_active_class += 1;
        }
        return None;
    };
    let item = match port.send_head(class) {
        Ok(item) => item,
        Err(SendFault::Empty) => {
            audit.idle_with_active_class += 1;
            return None;
        }
        Err(SendFault::NoCredits) => {
            audit.credit_violations += 1;
            return None;
        }
        Err(SendFault::Lost) => return None,
    };
    scheduler.after_send_in(now, class, &*port);
    Some((class, item))
}
