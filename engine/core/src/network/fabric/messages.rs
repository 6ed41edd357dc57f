//! Messages, per-SL MTUs and flits (`docs/modelling.md`, "Messages, MTUs and flits").
//!
//! A generator yields *messages* (a Bursts4 burst is four 1024 B messages). A class with an
//! MTU (`model.classes[i].mtu_bytes`, its entry of the per-SL MTU table) splits each message
//! into `ceil(size / MTU)` packets, all but the last of the MTU's size, generated at the
//! same instant, in order, with consecutive packet ids. A message is delivered when its
//! last packet arrives (packets of one message may take different routes and arrive in any
//! order); its latency runs from generation to that arrival.
//!
//! Only messages of more than one packet are tracked (by their first packet id, in a map
//! ordered by id: a packet belongs to the pending message with the largest first id not
//! above its own, if its id lies inside that message), so a class whose messages fit its
//! MTU costs one lookup in an empty map per delivery.
//!
//! With a flit size (`model.flit_bytes`) the fabric also counts flits: a packet of `b`
//! bytes is `ceil(b / flit)` flits (a packet occupies whole flits).

use std::collections::BTreeMap;

use crate::stats::{LatencyRecorder, Window};
use crate::time::SimTime;

/// One class's messages.
#[derive(Clone, Debug, Default)]
pub struct MessageCounters {
    /// Messages generated over the whole run.
    pub generated: u64,
    /// Messages whose last packet arrived, over the whole run.
    pub delivered: u64,
    /// Latency to the last packet of messages generated in the window and delivered by
    /// the end.
    pub latency: LatencyRecorder,
}

/// A message of several packets still on its way.
#[derive(Clone, Copy, Debug)]
struct Pending {
    /// The message's class.
    class: usize,
    /// Packets in the message.
    packets: u32,
    /// Packets not yet delivered.
    left: u32,
}

/// The messages of a network.
#[derive(Clone, Debug, Default)]
pub struct Messages {
    /// Per class, its MTU (None: messages are not split and not counted).
    mtu: Vec<Option<u32>>,
    /// Per class, its counters.
    counters: Vec<MessageCounters>,
    /// Per class, the packets that belong to pending messages of several packets.
    split_in_flight: Vec<u64>,
    /// Pending messages of several packets, by first packet id.
    pending: BTreeMap<u64, Pending>,
}

/// The sizes of the packets a message of `bytes` is split into with an MTU of `mtu`:
/// `ceil(bytes / mtu)` packets, all of `mtu` bytes but the last (at least 1 packet).
pub fn split(bytes: u32, mtu: Option<u32>) -> impl Iterator<Item = u32> {
    let mtu = mtu.filter(|&m| m > 0).unwrap_or(u32::MAX).min(bytes.max(1));
    let packets = bytes.div_ceil(mtu).max(1);
    (0..packets).map(move |i| {
        if i + 1 < packets {
            mtu
        } else {
            bytes - mtu * (packets - 1)
        }
    })
}

impl Messages {
    /// Messages of classes with the given MTUs (one per class).
    pub fn new(mtu: Vec<Option<u32>>) -> Messages {
        let classes = mtu.len();
        Messages {
            mtu,
            counters: vec![MessageCounters::default(); classes],
            split_in_flight: vec![0; classes],
            pending: BTreeMap::new(),
        }
    }

    /// The MTU of `class`.
    pub fn mtu(&self, class: usize) -> Option<u32> {
        self.mtu.get(class).copied().flatten()
    }

    /// A message of `class` was generated as `packets` packets with ids
    /// `first .. first + packets`.
    pub fn on_generated(&mut self, class: usize, first: u64, packets: u32) {
        if self.mtu(class).is_none() {
            return;
        }
        self.counters[class].generated += 1;
        if packets > 1 {
            self.split_in_flight[class] += u64::from(packets);
            self.pending.insert(
                first,
                Pending {
                    class,
                    packets,
                    left: packets,
                },
            );
        }
    }

    /// Packet `id` of `class`, generated at `created`, arrived at `now`: when it is its
    /// message's last packet, the message is delivered.
    pub fn on_delivered(
        &mut self,
        class: usize,
        id: u64,
        created: SimTime,
        now: SimTime,
        window: &Window,
    ) {
        if self.mtu(class).is_none() {
            return;
        }
        let pending = self
            .pending
            .range_mut(..=id)
            .next_back()
            .filter(|(first, p)| id < **first + u64::from(p.packets));
        let last = match pending {
            None => true,
            Some((&first, p)) => {
                p.left = p.left.saturating_sub(1);
                self.split_in_flight[class] = self.split_in_flight[class].saturating_sub(1);
                let done = p.left == 0;
                if done {
                    self.pending.remove(&first);
                }
                done
            }
        };
        if last {
            let c = &mut self.counters[class];
            c.delivered += 1;
            if window.contains(created) {
                c.latency.record(now - created);
            }
        }
    }

    /// The counters of `class`, if it has an MTU.
    pub fn counters(&self, class: usize) -> Option<&MessageCounters> {
        self.mtu(class).map(|_| &self.counters[class])
    }

    /// Messages of `class` on their way, counted from the pending messages and the
    /// packets in flight (`packets_in_flight`, the class's packets generated and not
    /// delivered), independently of the message counters: every pending message of
    /// several packets, plus one per packet in flight that is a message of its own.
    pub fn in_flight(&self, class: usize, packets_in_flight: u64) -> u64 {
        let several = self
            .pending
            .iter()
            .filter(|(_, p)| p.class == class)
            .count() as u64;
        several + packets_in_flight.saturating_sub(self.split_in_flight[class])
    }
}

/// Flits generated and delivered in the measurement window, per class.
#[derive(Clone, Debug)]
pub struct Flits {
    /// Bytes per flit.
    pub flit_bytes: u32,
    /// Per class, flits of the packets generated in the window.
    pub generated: Vec<u64>,
    /// Per class, flits of the packets delivered in the window.
    pub delivered: Vec<u64>,
}

impl Flits {
    /// Counters of `classes` classes with flits of `flit_bytes`.
    pub fn new(flit_bytes: u32, classes: usize) -> Flits {
        Flits {
            flit_bytes,
            generated: vec![0; classes],
            delivered: vec![0; classes],
        }
    }

    /// Flits of a packet of `bytes` (whole flits).
    pub fn of(&self, bytes: u32) -> u64 {
        u64::from(bytes.div_ceil(self.flit_bytes.max(1)))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_bursts4_message_of_1024_bytes_with_a_256_byte_mtu_is_four_packets() {
        assert_eq!(split(1024, Some(256)).collect::<Vec<_>>(), [256; 4]);
        assert_eq!(
            split(1000, Some(256)).collect::<Vec<_>>(),
            [256, 256, 256, 232]
        );
        assert_eq!(split(1024, Some(1024)).collect::<Vec<_>>(), [1024]);
        assert_eq!(split(192, Some(2048)).collect::<Vec<_>>(), [192]);
        assert_eq!(split(2048, None).collect::<Vec<_>>(), [2048]);
        assert_eq!(split(2049, Some(2048)).collect::<Vec<_>>(), [2048, 1]);
    }

    #[test]
    fn a_message_is_delivered_with_its_last_packet_in_any_order() {
        let window = Window {
            start: SimTime::ZERO,
            end: SimTime::from_us(1),
        };
        let mut m = Messages::new(vec![Some(256), None]);
        // Message of packets 10..14 and a one-packet message 14, class 0.
        m.on_generated(0, 10, 4);
        m.on_generated(0, 14, 1);
        m.on_generated(1, 15, 1); // class without an MTU: not counted
        assert_eq!(m.in_flight(0, 5), 2);
        let t = |ns: u64| SimTime(ns * 1000);
        for (id, at) in [(12, 100), (14, 150), (10, 200), (13, 300)] {
            m.on_delivered(0, id, SimTime::ZERO, t(at), &window);
        }
        let c = m.counters(0).unwrap();
        assert_eq!((c.generated, c.delivered), (2, 1), "packet 11 is missing");
        assert_eq!(m.in_flight(0, 1), 1);
        m.on_delivered(0, 11, SimTime::ZERO, t(400), &window);
        let c = m.counters(0).unwrap();
        assert_eq!((c.generated, c.delivered), (2, 2));
        let l = c.latency.summary();
        assert_eq!((l.min, l.max, l.samples), (Some(150.0), Some(400.0), 2));
        assert_eq!(m.in_flight(0, 0), 0);
        assert!(m.counters(1).is_none());
    }

    proptest! {
        /// Any MTU and message size: `ceil(size / MTU)` packets, none above the MTU,
        /// all but the last exactly the MTU, adding up to the message.
        #[test]
        fn split_sizes_add_up(bytes in 1u32..=65_536, mtu in 64u32..=65_536) {
            let sizes: Vec<u32> = split(bytes, Some(mtu)).collect();
            prop_assert_eq!(sizes.len() as u32, bytes.div_ceil(mtu));
            prop_assert_eq!(sizes.iter().map(|&s| u64::from(s)).sum::<u64>(), u64::from(bytes));
            prop_assert!(sizes.iter().all(|&s| s >= 1 && s <= mtu));
            prop_assert!(sizes[..sizes.len() - 1].iter().all(|&s| s == mtu));
        }
    }
}
