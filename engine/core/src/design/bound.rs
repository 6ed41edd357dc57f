//! The analytic worst-case head-of-line wait of each class at one output port whose
//! arbiter cycles a table (`shared/spec/20-table-design.md` §3). The derivation, the
//! definition of the wait and the assumptions are in `docs/table-design.md`
//! ("Worst-case wait bound"); in short:
//!
//! - **Wait** of a packet `p` of class `i`: from the moment `p` is at the head of its queue
//!   (the later of its arrival and the start of transmission of the previous packet of its
//!   class; the link lab dequeues a packet when it starts on the link) to the start of its
//!   own transmission. Assumption: class `i` always has the downstream credits for its head
//!   (other classes may be blocked or not: a blocked class is skipped, or forfeits its
//!   deficit, which only removes service ahead of `i`).
//! - Class `i` stays active from then on, so the table pointer, which only moves forward,
//!   reaches the next entry of `i` after at most one visit of every entry in between; that
//!   entry sends `p` first. The worst case over where the pointer is: `p` became head when
//!   the previous packet of `i` (at most `MTU_i`) started, and every entry up to the next
//!   entry of `i` is served as much as it can be.
//! - What one *gap* (the entries strictly between two consecutive serving entries of `i`,
//!   cyclic) can send, in credits:
//!   - **DTable** ([`Arbiter::DTable`]): a visit of an entry of class `j` sends at most its
//!     deficit plus its weight, and a deficit is always below the head packet that did not
//!     fit, so at most `MTU_j - 1`. If every entry of `j` weighs at least `MTU_j` the
//!     accumulated register never goes negative and the deficit carries over, so all of
//!     `j`'s visits in one gap send at most `MTU_j - 1 + sum of their weights`; otherwise
//!     (a table that breaks the weight rule) each visit is counted alone as
//!     `max(MTU_j, weight + MTU_j - 1)` (the first packet of a visit is sent whatever the
//!     weight).
//!   - **InfiniBand / Omni-Path low table** ([`Arbiter::Iba`], empty high table): no
//!     carry-over; a visit sends while weight remains, the last packet starting with at
//!     least one credit left, so at most `weight + MTU_j - 1`. Weight-0 entries are skipped
//!     (they send nothing, and do not serve class `i` either).
//!   - **AS basic** ([`Arbiter::AsBasic`]): one packet per entry, at most `MTU_j`.
//! - Bound of class `i` = `MTU_i` + the largest gap, in credits; as time, the transmission
//!   time of that many 64-byte credits at the link rate plus 1 ps per packet (the simulator
//!   rounds each packet's time up to a whole picosecond, and a packet is at least one
//!   credit).

use super::requirements::{CREDIT_BYTES, Technology};
use crate::time::BitRate;

/// The arbiter whose wait is bounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arbiter {
    /// DTable: deficit carried between entries of a class, forfeited when the class empties
    /// or is blocked (`schedulers/dtable.rs`).
    DTable,
    /// InfiniBand VLArb with the table as its low table and an empty high table
    /// (`schedulers/iba.rs`): no carry-over, weight-0 entries skipped.
    Iba,
    /// Advanced Switching basic table: one packet per entry (`schedulers/as_basic.rs`).
    AsBasic,
}

impl Arbiter {
    /// The arbiter a technology's table runs on (Omni-Path is treated like InfiniBand).
    pub fn of(technology: Technology) -> Arbiter {
        match technology {
            Technology::Dtable => Arbiter::DTable,
            Technology::Infiniband | Technology::Omnipath => Arbiter::Iba,
            Technology::As => Arbiter::AsBasic,
        }
    }

    /// Whether an entry of `weight` is ever selected by this arbiter.
    pub fn serves(self, weight: Option<u64>) -> bool {
        match self {
            Arbiter::Iba => weight.unwrap_or(0) > 0,
            Arbiter::DTable | Arbiter::AsBasic => true,
        }
    }
}

/// One table entry as the bound sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundEntry {
    /// Index of the entry's class, `None` for a class outside the requirements (counted
    /// as a class with packets of `other_mtu`, to stay on the safe side).
    pub class: Option<usize>,
    /// Weight in credits (`None`: no weight, as in the AS basic table; counted as 0 by the
    /// weighted arbiters).
    pub weight: Option<u64>,
}

/// Per class (index order of `mtus`, class MTUs in credits), the worst-case head-of-line
/// wait in credits of link time: `MTU_i` plus the most the entries between two
/// consecutive serving entries of the class can send. `None` for a class the arbiter never
/// serves (no entry, or for InfiniBand only weight-0 entries). `other_mtu` (credits) is
/// the packet bound of entries whose class is `None`.
pub fn wait_credits(
    arbiter: Arbiter,
    table: &[BoundEntry],
    mtus: &[u64],
    other_mtu: u64,
) -> Vec<Option<u64>> {
    let classes = mtus.len();
    let mtu_of = |c: Option<usize>| c.and_then(|c| mtus.get(c).copied()).unwrap_or(other_mtu);
    // DTable: classes whose every entry weighs at least their MTU carry their deficit.
    let carries: Vec<bool> = (0..classes)
        .map(|c| {
            table
                .iter()
                .filter(|e| e.class == Some(c))
                .all(|e| e.weight.unwrap_or(0) >= mtus[c])
        })
        .collect();
    let visit = |e: &BoundEntry| -> u64 {
        let mtu = mtu_of(e.class);
        let w = e.weight.unwrap_or(0);
        match arbiter {
            Arbiter::DTable => mtu.max(w + mtu.saturating_sub(1)),
            Arbiter::Iba if w == 0 => 0,
            Arbiter::Iba => w + mtu - 1,
            Arbiter::AsBasic => mtu,
        }
    };
    let n = table.len();
    let mut seen = vec![false; classes];
    let mut touched: Vec<usize> = Vec::with_capacity(classes);
    (0..classes)
        .map(|i| {
            let serving: Vec<usize> = (0..n)
                .filter(|&p| table[p].class == Some(i) && arbiter.serves(table[p].weight))
                .collect();
            let &first = serving.first()?;
            let mut worst = 0u64;
            for (k, &a) in serving.iter().enumerate() {
                let b = serving.get(k + 1).copied().unwrap_or(first + n);
                let mut gap = 0u64;
                for p in (a + 1)..b {
                    let e = &table[p % n];
                    match (arbiter, e.class) {
                        (Arbiter::DTable, Some(j)) if j < classes && carries[j] => {
                            gap += e.weight.unwrap_or(0);
                            if !seen[j] {
                                seen[j] = true;
                                touched.push(j);
                                gap += mtus[j] - 1;
                            }
                        }
                        _ => gap += visit(e),
                    }
                }
                for j in touched.drain(..) {
                    seen[j] = false;
                }
                worst = worst.max(gap);
            }
            Some(mtus[i] + worst)
        })
        .collect()
}

/// `credits` of 64 bytes as link time in picoseconds at `rate`, plus 1 ps per possible
/// packet (each packet's transmission time is rounded up to a whole picosecond).
pub fn credits_to_ps(credits: u64, rate: BitRate) -> u64 {
    rate.transmission_time(credits * u64::from(CREDIT_BYTES))
        .as_ps()
        .saturating_add(credits)
}

/// [`credits_to_ps`] in nanoseconds.
pub fn credits_to_ns(credits: u64, rate: BitRate) -> f64 {
    credits_to_ps(credits, rate) as f64 / 1000.0
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    fn entries(e: &[(usize, u64)]) -> Vec<BoundEntry> {
        e.iter()
            .map(|&(c, w)| BoundEntry {
                class: Some(c),
                weight: Some(w),
            })
            .collect()
    }

    /// Hand-worked: table A4 B8 B8 A4 C2, MTUs A 2, B 4, C 1.
    /// DTable, A: gaps {B8, B8} = 16 + 3 and {C2} = 2 + 0 -> 2 + 19 = 21.
    /// B: gaps {A4} = 4 + 1 and {A4, C2, A4} = 8 + 1 + 2 + 0 = 11 -> 4 + 11 = 15.
    /// C: one gap of everything else: A 8 + 1, B 16 + 3 -> 1 + 28 = 29.
    #[test]
    fn dtable_hand_worked() {
        let t = entries(&[(0, 4), (1, 8), (1, 8), (0, 4), (2, 2)]);
        let b = wait_credits(Arbiter::DTable, &t, &[2, 4, 1], 32);
        assert_eq!(b, vec![Some(21), Some(15), Some(29)]);
    }

    /// The same table for the IBA low table: every visit alone, weight + MTU - 1.
    /// A: {B, B} = 11 + 11 -> 2 + 22 = 24. B: {A, C, A} = 5 + 2 + 5 -> 4 + 12 = 16.
    /// C: 5 + 11 + 11 + 5 -> 1 + 32 = 33. AS: A: 4 + 4 -> 2 + 8 = 10; B: 2 + 1 + 2 -> 9;
    /// C: 2 + 4 + 4 + 2 -> 13.
    #[test]
    fn iba_and_as_hand_worked() {
        let t = entries(&[(0, 4), (1, 8), (1, 8), (0, 4), (2, 2)]);
        let mtus = [2, 4, 1];
        assert_eq!(
            wait_credits(Arbiter::Iba, &t, &mtus, 32),
            vec![Some(24), Some(16), Some(33)]
        );
        assert_eq!(
            wait_credits(Arbiter::AsBasic, &t, &mtus, 32),
            vec![Some(10), Some(9), Some(13)]
        );
    }

    /// InfiniBand skips weight-0 entries: they neither serve their class nor delay others.
    #[test]
    fn iba_weight_zero_entries() {
        let t = entries(&[(0, 4), (1, 0), (0, 0), (1, 6)]);
        let b = wait_credits(Arbiter::Iba, &t, &[2, 3], 32);
        // A: only entry 0 serves; gap {B0 (skipped), A0 (skipped), B6} = 8 -> 2 + 8.
        // B: only entry 3 serves; gap {A4, B0, A0} = 5 -> 3 + 5.
        assert_eq!(b, vec![Some(10), Some(8)]);
        let none = wait_credits(Arbiter::Iba, &entries(&[(0, 4), (1, 0)]), &[2, 3], 32);
        assert_eq!(none, vec![Some(2), None]);
    }

    /// A DTable class with an entry below its MTU does not carry deficits safely: each of
    /// its visits is counted alone; unknown classes count with `other_mtu`.
    #[test]
    fn dtable_broken_weights_and_unknown_classes() {
        let mut t = entries(&[(0, 4), (1, 1), (1, 8)]);
        t.push(BoundEntry {
            class: None,
            weight: Some(5),
        });
        // B (MTU 4): visits max(4, 1 + 3) = 4 and 8 + 3 = 11; unknown: 5 + 9 = 14.
        let b = wait_credits(Arbiter::DTable, &t, &[2, 4], 10);
        assert_eq!(b[0], Some(2 + 4 + 11 + 14));
    }

    /// The bound is reached: class A (MTU 2) and B (MTU 3), packets scripted so that A's
    /// packet `p` becomes head as A's previous packet starts and B then sends all it can
    /// (DTable: its carried deficit 2 plus its weight 3). The wait is counted in credits
    /// sent from `p` becoming head to `p` starting.
    #[test]
    fn the_bound_is_reached() {
        use crate::scenario::{IbaConfig, TableEntry};
        use crate::schedulers::testing::MockPort;
        use crate::schedulers::{AsBasic, DTable, Iba, Scheduler};

        /// Steps until class A has sent two packets; the credits sent after A's first
        /// packet started (including it) and before A's second.
        fn wait(s: &mut dyn Scheduler, port: &mut MockPort) -> u64 {
            let mut a_sent = 0;
            let mut wait = 0;
            loop {
                let heads: Vec<u32> = port
                    .queues
                    .iter()
                    .map(|q| q.front().copied().unwrap_or(0))
                    .collect();
                let c = port.step(s).unwrap();
                if c == 0 {
                    a_sent += 1;
                    if a_sent == 2 {
                        return wait;
                    }
                }
                if a_sent >= 1 {
                    wait += u64::from(heads[c]);
                }
            }
        }
        let mtus = [2, 3];
        let entry = |class: u32, weight: u32| TableEntry { class, weight };

        // DTable [B 3, A 2]: B sends 1 (acc 2, its head of 3 waits: deficit 2), A sends 2
        // (p is head), B sends 3 + 2 = deficit + weight, then p.
        let table = [entry(1, 3), entry(0, 2)];
        let mut port = MockPort::new(2, 1000);
        for size in [1, 3, 2] {
            port.push(1, size, 1);
        }
        port.push(0, 2, 2);
        let b = wait_credits(Arbiter::DTable, &entries(&[(1, 3), (0, 2)]), &mtus, 32);
        assert_eq!(b[0], Some(7));
        assert_eq!(wait(&mut DTable::new(&table, 2), &mut port), 7);

        // IBA low table [A 2, B 3]: A sends 2 (p is head), B sends 2 then 3 (overshoot 2).
        let config = IbaConfig {
            high: Vec::new(),
            low: vec![entry(0, 2), entry(1, 3)],
            high_limit: 0,
        };
        let mut port = MockPort::new(2, 1000);
        port.push(0, 2, 2);
        port.push(1, 2, 1);
        port.push(1, 3, 1);
        let b = wait_credits(Arbiter::Iba, &entries(&[(0, 2), (1, 3)]), &mtus, 32);
        assert_eq!(b[0], Some(7));
        assert_eq!(wait(&mut Iba::new(&config, 2), &mut port), 7);

        // AS [A, B]: A sends 2 (p is head), B one packet of 3.
        let mut port = MockPort::new(2, 1000);
        port.push(0, 2, 2);
        port.push(1, 3, 1);
        let b = wait_credits(Arbiter::AsBasic, &entries(&[(0, 0), (1, 0)]), &mtus, 32);
        assert_eq!(b[0], Some(5));
        assert_eq!(wait(&mut AsBasic::new(&[0, 1], 2), &mut port), 5);
    }

    #[test]
    fn time_at_two_gbps() {
        let r = BitRate::from_gbps(2.0).unwrap();
        // 64 bytes at 2 Gb/s = 256 ns, plus 1 ps.
        assert_eq!(credits_to_ps(1, r), 256_001);
        assert_eq!(credits_to_ns(10, r), 2560.01);
    }
}
