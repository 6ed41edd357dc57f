//! The fabric's audit of its invariants ([`Auditor`], only in an audited run), and
//! delivery at the end points (where FIFO order, duplicates and misdelivery are checked).

use std::collections::HashMap;

use super::NetworkSim;
use super::buffer_fills::BufferFills;
use crate::network::port::NetPacket;
use crate::network::routing::Router;
use crate::network::send::SendAudit;
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

/// Last delivered packet id per (source, destination, class), for the FIFO audit.
///
/// Small fabrics keep a flat table over every triple. Large ones (over [`MAX_FIFO_TABLE`]
/// triples, e.g. 16.7 M at 4 096 end points) keep only the triples with packets in flight:
/// an entry is made when a packet is generated and dropped when the triple's last packet
/// in flight is delivered. Nothing is lost: with no packet of a triple in flight, every
/// later packet is newer than all delivered ones, so its check passes anyway. Memory then
/// follows the packets in flight, not the square of the end points.
enum LastDelivered {
    Table(Vec<u64>),
    InFlight(HashMap<u64, InFlight>),
}

/// A triple's last delivered packet id and its packets in flight.
struct InFlight {
    last: u64,
    packets: u32,
}

/// Largest flat FIFO-audit table (entries).
const MAX_FIFO_TABLE: usize = 1 << 20;
/// No packet delivered yet on a (source, destination, class).
const NONE_DELIVERED: u64 = u64::MAX;

impl LastDelivered {
    /// Room for `pairs` (source, destination, class) triples.
    fn new(pairs: usize) -> LastDelivered {
        if pairs <= MAX_FIFO_TABLE {
            LastDelivered::Table(vec![NONE_DELIVERED; pairs])
        } else {
            LastDelivered::InFlight(HashMap::new())
        }
    }

    /// A packet of triple `key` was generated (only the in-flight form keeps count).
    fn on_generated(&mut self, key: u64) {
        if let LastDelivered::InFlight(m) = self {
            m.entry(key)
                .or_insert(InFlight {
                    last: NONE_DELIVERED,
                    packets: 0,
                })
                .packets += 1;
        }
    }

    /// Starts fetching triple `key`'s entry of the flat table ([`crate::cache_hint`]):
    /// its packet is about to be delivered. Nothing for the in-flight form or a key
    /// outside the table.
    #[inline]
    fn prefetch(&self, key: u64) {
        if let LastDelivered::Table(t) = self {
            if let Some(entry) = t.get(key as usize) {
                crate::cache_hint::prefetch(entry);
            }
        }
    }

    /// Packet `id` of triple `key` was delivered: the id delivered before it on that
    /// triple ([`NONE_DELIVERED`] if none; `id` itself for a packet delivered twice), or
    /// `None` when the triple is outside the table.
    fn on_delivered(&mut self, key: u64, id: u64) -> Option<u64> {
        match self {
            LastDelivered::Table(t) => t
                .get_mut(key as usize)
                .map(|last| std::mem::replace(last, id)),
            LastDelivered::InFlight(m) => Some(match m.get_mut(&key) {
                Some(entry) => {
                    let before = std::mem::replace(&mut entry.last, id);
                    entry.packets = entry.packets.saturating_sub(1);
                    if entry.packets == 0 {
                        m.remove(&key);
                    }
                    before
                }
                // No packet of the triple in flight: this one was delivered already.
                None => id,
            }),
        }
    }
}

/// What an audited run keeps to check its invariants ([`crate::RunOptions::audit`]): the
/// buffer fills, and at delivery the order, duplicates and misdelivery. A run without the
/// audit has none of it.
pub(super) struct Auditor {
    pub(super) fills: BufferFills,
    /// Breaches found at delivery (the fills and the send protocol count their own).
    delivery: Audit,
    last_delivered: LastDelivered,
    /// Last delivered packet id per connection, where connections of one pair may take
    /// different routes.
    last_per_connection: HashMap<u64, u64>,
    end_points: u64,
    classes: u64,
    /// The routing's promises ([`Router::datagrams_keep_one_path`],
    /// [`Router::connections_share_path`]).
    datagrams_keep_one_path: bool,
    connections_share_path: bool,
}

impl Auditor {
    /// The audit of a fabric of `end_points` and `classes` with `routing`, whose buffers
    /// `fills` follows.
    pub(super) fn new(
        fills: BufferFills,
        end_points: u32,
        classes: usize,
        routing: &impl Router,
    ) -> Auditor {
        let n = end_points as usize;
        Auditor {
            fills,
            delivery: Audit::default(),
            last_delivered: LastDelivered::new(n * n * classes),
            last_per_connection: HashMap::new(),
            end_points: u64::from(end_points),
            classes: classes as u64,
            datagrams_keep_one_path: routing.datagrams_keep_one_path(),
            connections_share_path: routing.connections_share_path(),
        }
    }

    /// Every breach so far, with the send protocol's from `send`.
    pub(super) fn report(&self, send: &SendAudit) -> Audit {
        Audit {
            buffer_overflows: self.fills.overflows(),
            credit_violations: send.credit_violations,
            idle_with_active_class: send.idle_with_active_class,
            ..self.delivery
        }
    }

    /// The key of the (source, destination, SL) triple.
    fn triple(&self, source: u32, destination: u32, sl: u16) -> u64 {
        (u64::from(source) * self.end_points + u64::from(destination)) * self.classes
            + u64::from(sl)
    }

    /// Whether the FIFO audit of `packet` is per (source, destination, SL) triple, and
    /// that triple's key: where the routing promises one path per pair (or per connection
    /// when connections of a pair share their path).
    fn triple_key(&self, packet: &NetPacket) -> Option<u64> {
        let connection = packet.flow != NO_FLOW;
        if connection && !self.connections_share_path {
            return None;
        }
        (connection || self.datagrams_keep_one_path)
            .then(|| self.triple(packet.source, packet.destination, packet.sl))
    }

    /// Starts fetching the delivery-order entry of a packet about to be delivered.
    #[inline]
    pub(super) fn prefetch(&self, source: u32, destination: u32, sl: u16) {
        self.last_delivered
            .prefetch(self.triple(source, destination, sl));
    }

    /// A packet was generated: a large fabric's audit starts following its triple.
    /// (Out of line, like [`Auditor::on_delivered`]: only audited runs call them, and
    /// the event loop of the others stays as small as it was with no audit at all.)
    #[inline(never)]
    pub(super) fn on_generated(&mut self, packet: &NetPacket) {
        if matches!(self.last_delivered, LastDelivered::Table(_)) {
            return;
        }
        if let Some(key) = self.triple_key(packet) {
            self.last_delivered.on_generated(key);
        }
    }

    /// `packet` was delivered, where it was due if `where_due` (its destination, the SL
    /// and priority level it should arrive with).
    #[inline(never)]
    pub(super) fn on_delivered(&mut self, packet: &NetPacket, where_due: bool) {
        if !where_due {
            self.delivery.misdelivered += 1;
        }
        self.check_order(packet);
    }

    /// The FIFO and duplicate audit of a delivered packet, where the routing promises
    /// order: per (source, destination, SL) when all packets of a pair take one path;
    /// per connection when connections of a pair may take different routes (each keeps
    /// its own); not at all for datagrams a routing spreads over several paths.
    fn check_order(&mut self, packet: &NetPacket) {
        let connection = packet.flow != NO_FLOW;
        let previous = if connection && !self.connections_share_path {
            let key = (u64::from(packet.source) * self.classes + u64::from(packet.sl)) << 32
                | u64::from(packet.flow);
            let last = self
                .last_per_connection
                .entry(key)
                .or_insert(NONE_DELIVERED);
            std::mem::replace(last, packet.id)
        } else if let Some(key) = self.triple_key(packet) {
            match self.last_delivered.on_delivered(key, packet.id) {
                Some(previous) => previous,
                None => return,
            }
        } else {
            return;
        };
        if previous != NONE_DELIVERED && previous == packet.id {
            self.delivery.duplicates += 1;
        } else if previous != NONE_DELIVERED && previous > packet.id {
            self.delivery.fifo_violations += 1;
        }
    }
}

impl NetworkSim {
    /// Packet `h`'s tail has reached end point `host`: check, count, consume.
    pub(super) fn deliver(&mut self, now: SimTime, host: u32, h: u32) {
        let packet = *self.pool.get(h);
        self.pool.remove(h);
        if let Some(auditor) = self.auditor.as_mut() {
            let where_due = packet.destination == host
                && self.lanes.map().delivered_sl(packet.sl) == packet.sl
                && self.priorities.get(usize::from(packet.sl)) == Some(&packet.priority);
            auditor.on_delivered(&packet, where_due);
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The verdict of one delivery: 0 in order, 1 duplicate, 2 FIFO violation.
    fn verdict(previous: u64, id: u64) -> u8 {
        if previous != NONE_DELIVERED && previous == id {
            1
        } else if previous != NONE_DELIVERED && previous > id {
            2
        } else {
            0
        }
    }

    proptest! {
        /// The in-flight form gives the flat table's verdict for every delivery (in order or
        /// reordered), and holds only triples with packets in flight.
        #[test]
        fn in_flight_audit_agrees_with_the_table(
            ops in proptest::collection::vec((0u64..6, any::<bool>(), 0usize..4), 1..200)
        ) {
            let mut table = LastDelivered::Table(vec![NONE_DELIVERED; 6]);
            let mut small = LastDelivered::InFlight(HashMap::new());
            let mut in_flight: Vec<Vec<u64>> = vec![Vec::new(); 6];
            let mut next_id = 0u64;
            for (key, generate, pick) in ops {
                let k = key as usize;
                if generate || in_flight[k].is_empty() {
                    table.on_generated(key);
                    small.on_generated(key);
                    in_flight[k].push(next_id);
                    next_id += 1;
                    continue;
                }
                let at = pick % in_flight[k].len();
                let id = in_flight[k].remove(at);
                let a = table.on_delivered(key, id).map(|p| verdict(p, id));
                let b = small.on_delivered(key, id).map(|p| verdict(p, id));
                prop_assert_eq!(a, b);
                if let LastDelivered::InFlight(m) = &small {
                    let busy = in_flight.iter().filter(|q| !q.is_empty()).count();
                    prop_assert_eq!(m.len(), busy);
                }
            }
        }
    }

    #[test]
    fn in_flight_audit_flags_reordering_and_duplicates() {
        let mut a = LastDelivered::InFlight(HashMap::new());
        a.on_generated(7);
        a.on_generated(7);
        a.on_generated(7);
        // Ids 0, 1, 2 generated; 1 arrives first, then 0 (late), then 2.
        assert_eq!(a.on_delivered(7, 1).map(|p| verdict(p, 1)), Some(0));
        assert_eq!(a.on_delivered(7, 0).map(|p| verdict(p, 0)), Some(2));
        assert_eq!(a.on_delivered(7, 2).map(|p| verdict(p, 2)), Some(0));
        // All delivered: the triple is forgotten, and a packet delivered again is a duplicate.
        assert!(matches!(&a, LastDelivered::InFlight(m) if m.is_empty()));
        assert_eq!(a.on_delivered(7, 2).map(|p| verdict(p, 2)), Some(1));
    }
}
