//! The fabric's audit of its invariants, and delivery at the end points (where FIFO
//! order, duplicates and misdelivery are checked).

use std::collections::HashMap;

use super::NetworkSim;
use crate::stats::flow_key;
use crate::time::SimTime;
use crate::traffic::NO_FLOW;

/// Breaches of the model's invariants, counted as they happen (all zero in a correct
/// run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Audit {
    /// A buffer (switch input or output, interface injection or reception) held more
    /// than its size, counted from what was actually sent and freed, independently of
    /// the credit counters.
    pub buffer_overflows: u64,
    /// A scheduler chose a class whose head did not fit its credits.
    pub credit_violations: u64,
    /// A link stayed idle while a class could send.
    pub idle_with_active_class: u64,
    /// A packet arrived before an earlier packet of its class, source and destination.
    pub fifo_violations: u64,
    /// A packet was delivered twice.
    pub duplicates: u64,
    /// A packet reached an end point other than its destination.
    pub misdelivered: u64,
}

/// Last delivered packet id per (source, destination, class), for the FIFO audit: a
/// flat table when small, a map otherwise.
pub(super) enum LastDelivered {
    Table(Vec<u64>),
    Map(HashMap<u64, u64>),
}

/// Largest flat FIFO-audit table (entries).
const MAX_FIFO_TABLE: usize = 1 << 20;
/// No packet delivered yet on a (source, destination, class).
const NONE_DELIVERED: u64 = u64::MAX;

impl LastDelivered {
    /// Room for `pairs` (source, destination, class) triples.
    pub(super) fn new(pairs: usize) -> LastDelivered {
        if pairs <= MAX_FIFO_TABLE {
            LastDelivered::Table(vec![NONE_DELIVERED; pairs])
        } else {
            LastDelivered::Map(HashMap::new())
        }
    }
}

/// Counts a buffer fill above `capacity` and keeps the highest fill ratio.
pub(super) fn check_fill(audit: &mut Audit, peak: &mut f64, fill: u32, capacity: u32) {
    if fill > capacity {
        audit.buffer_overflows += 1;
    }
    let ratio = f64::from(fill) / f64::from(capacity.max(1));
    if ratio > *peak {
        *peak = ratio;
    }
}

impl NetworkSim {
    /// Packet `h`'s tail has reached end point `host`: check, count, consume.
    pub(super) fn deliver(&mut self, now: SimTime, host: u32, h: u32) {
        let packet = *self.pool.get(h);
        self.pool.remove(h);
        if packet.destination != host {
            self.audit.misdelivered += 1;
        }
        let n = self.topology.end_points() as u64;
        let key = (u64::from(packet.source) * n + u64::from(packet.destination))
            * self.classes as u64
            + u64::from(packet.class);
        let last = match &mut self.last_delivered {
            LastDelivered::Table(t) => t.get_mut(key as usize),
            LastDelivered::Map(m) => Some(m.entry(key).or_insert(NONE_DELIVERED)),
        };
        if let Some(last) = last {
            if *last != NONE_DELIVERED && *last == packet.id {
                self.audit.duplicates += 1;
            } else if *last != NONE_DELIVERED && *last > packet.id {
                self.audit.fifo_violations += 1;
            }
            *last = packet.id;
        }
        let c = usize::from(packet.class);
        self.counters[c].on_delivered(packet.created, now, packet.bytes, &self.window);
        if packet.flow != NO_FLOW {
            if let Some(Some(j)) = self.jitter.get_mut(c) {
                let measure = self.window.contains(packet.created);
                j.on_delivered(
                    flow_key(packet.source, packet.flow),
                    packet.created,
                    now,
                    measure,
                );
            }
        }
        // The interface consumes the packet at once: its reception credits go back.
        self.input_left(now, host, packet.class, packet.credits as u16);
    }
}
