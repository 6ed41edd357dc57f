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
    /// A packet arrived before an earlier packet of its SL, source and destination (or
    /// of its connection, where connections of a pair take different routes).
    pub fifo_violations: u64,
    /// A packet was delivered twice.
    pub duplicates: u64,
    /// A packet reached an end point other than its destination, its destination
    /// would read another SL from it (the lane map's SC2SL), or it arrived with a
    /// priority level other than the one its interface gave its class.
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
    /// The FIFO and duplicate audit of a delivered packet, where the routing promises
    /// order: per (source, destination, SL) when all packets of a pair take one path;
    /// per connection when connections of a pair may take different routes (each keeps
    /// its own); not at all for datagrams a routing spreads over several paths.
    fn check_order(&mut self, packet: &crate::network::port::NetPacket) {
        let n = self.topology.end_points() as u64;
        let classes = self.classes as u64;
        let connection = packet.flow != NO_FLOW;
        let last = if connection && !self.routing.connections_share_path() {
            let key = (u64::from(packet.source) * classes + u64::from(packet.sl)) << 32
                | u64::from(packet.flow);
            self.last_per_connection
                .entry(key)
                .or_insert(NONE_DELIVERED)
        } else if connection || self.routing.datagrams_keep_one_path() {
            let key = (u64::from(packet.source) * n + u64::from(packet.destination)) * classes
                + u64::from(packet.sl);
            match &mut self.last_delivered {
                LastDelivered::Table(t) => match t.get_mut(key as usize) {
                    Some(last) => last,
                    None => return,
                },
                LastDelivered::Map(m) => m.entry(key).or_insert(NONE_DELIVERED),
            }
        } else {
            return;
        };
        if *last != NONE_DELIVERED && *last == packet.id {
            self.audit.duplicates += 1;
        } else if *last != NONE_DELIVERED && *last > packet.id {
            self.audit.fifo_violations += 1;
        }
        *last = packet.id;
    }

    /// Packet `h`'s tail has reached end point `host`: check, count, consume.
    pub(super) fn deliver(&mut self, now: SimTime, host: u32, h: u32) {
        let packet = *self.pool.get(h);
        self.pool.remove(h);
        if packet.destination != host
            || self.lanes.map().delivered_sl(packet.sl) != packet.sl
            || self.priorities.get(usize::from(packet.sl)) != Some(&packet.priority)
        {
            self.audit.misdelivered += 1;
        }
        self.check_order(&packet);
        let c = usize::from(packet.sl);
        self.counters[c].on_delivered(packet.created, now, packet.bytes, &self.window);
        self.messages
            .on_delivered(c, packet.id, packet.created, now, &self.window);
        if let Some(f) = self.flits.as_mut() {
            if self.window.contains(now) {
                f.delivered[c] += f.of(packet.bytes);
            }
        }
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
        self.input_left(now, host, packet.lane, packet.credits as u16);
    }
}
