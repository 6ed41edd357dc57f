//! DRR's skip of empty rounds (`skip_empty_rounds`) with quanta smaller than the packets:
//! deficits, send order and the classes examined after a skip, worked by hand and checked
//! exactly (issue 16: the skip and the cost counter were only checked by upper bounds).

use super::*;
use crate::schedulers::testing::MockPort;

/// Quanta 64 B and 192 B, one 1024-byte packet (16 credits) in each class.
///
/// Step 1. Visits: class 0 (DC0 = 64), class 1 (DC1 = 192), class 0 (DC0 = 128): three
/// failed visits = n + 1, so the skip runs. Rounds still needed: class 0
/// ceil((1024 - 128) / 64) = 14, class 1 ceil((1024 - 192) / 192) = 5; the minimum is 5,
/// so 4 rounds are skipped: DC0 = 128 + 4 x 64 = 384, DC1 = 192 + 4 x 192 = 960. The next
/// visit is class 1: DC1 = 1152, it sends 1024 (DC1 = 128) and, its queue now empty,
/// forfeits the rest (DC1 = 0). Classes examined: 3 visits + 2 (the skip) + 1 visit = 6.
///
/// Step 2. Visits: class 0 (DC0 = 448); class 1 is empty, class 0 (DC0 = 512); class 1,
/// class 0 (DC0 = 576): three failed visits, skip: class 0 needs ceil(448 / 64) = 7
/// rounds, 6 skipped: DC0 = 576 + 384 = 960. Visit class 1 (empty), class 0: DC0 = 1024,
/// it sends 1024 (DC0 = 0). Examined: 1 + 2 + 2 + 2 (skip) + 2 = 9 more, 15 in all.
#[test]
fn skipped_rounds_add_the_exact_quanta_and_keep_the_order() {
    let mut d = Drr::new(&[64, 192]);
    let mut port = MockPort::new(2, 1000);
    port.push(0, 16, 1);
    port.push(1, 16, 1);

    assert_eq!(port.step(&mut d), Some(1));
    assert_eq!((d.deficit(0), d.deficit(1)), (384, 0));
    assert_eq!(d.cost().classes_examined, 6);
    assert_eq!(d.cost().decisions, 1);

    assert_eq!(port.step(&mut d), Some(0));
    assert_eq!((d.deficit(0), d.deficit(1)), (0, 0));
    assert_eq!(d.cost().classes_examined, 15);
    assert_eq!(d.cost().decisions, 2);
    assert_eq!(port.step(&mut d), None);
}

/// A skip leaves the deficit one round short: the class that needs the fewest rounds
/// sends in the round after the skip, and a class that needs more keeps its partial
/// deficit for later (no skipped round is lost or doubled).
///
/// Quanta 100 B and 100 B; class 0 holds 640-byte packets (10 credits), class 1 a
/// 1280-byte packet (20 credits). Visits 0 (100), 1 (100), 0 (200): skip; needed rounds
/// ceil(440 / 100) = 5 and ceil(1180 / 100) = 12: 4 skipped, DC0 = 600, DC1 = 500. Visit
/// 1: DC1 = 600 < 1280, turn ends; visit 0: DC0 = 700, sends 640 (DC0 = 60).
#[test]
fn after_a_skip_the_class_needing_fewest_rounds_sends_first() {
    let mut d = Drr::new(&[100, 100]);
    let mut port = MockPort::new(2, 1000);
    port.push(0, 10, 2);
    port.push(1, 20, 1);
    assert_eq!(port.step(&mut d), Some(0));
    assert_eq!((d.deficit(0), d.deficit(1)), (60, 600));
    // Visits 0, 1, 0 (3 examined), the skip (2), visits 1 and 0 (2).
    assert_eq!(d.cost().classes_examined, 3 + 2 + 2);
}

/// A skip where the class needing the fewest rounds needs an exact number of quanta: the
/// skip gives it exactly that many (one round fewer, the round after the skip gives the
/// last), and the class keeps its queue, so the deficit it is left with shows any round
/// too many.
///
/// Quanta 64 B and 64 B; class 0 holds two 512-byte packets (8 credits), class 1 one
/// 1024-byte packet (16 credits). Visits 0 (DC0 = 64), 1 (DC1 = 64), 0 (DC0 = 128): skip;
/// needed rounds (512 - 128) / 64 = 6 exactly and (1024 - 64) / 64 = 15: 5 skipped,
/// DC0 = 448, DC1 = 384. Visit 1: DC1 = 448 < 1024, the turn ends; visit 0: DC0 = 512,
/// it sends 512 (DC0 = 0) and keeps its second packet. Visiting one class at a time
/// without the skip gives the same: class 0 reaches 512 on its 8th visit, class 1 has had
/// 7 visits (448).
#[test]
fn a_skip_to_an_exact_multiple_of_the_quantum_adds_no_extra_round() {
    let mut d = Drr::new(&[64, 64]);
    let mut port = MockPort::new(2, 1000);
    port.push(0, 8, 2);
    port.push(1, 16, 1);
    assert_eq!(port.step(&mut d), Some(0));
    assert_eq!((d.deficit(0), d.deficit(1)), (0, 448));
    // Visits 0, 1, 0 (3), the skip (2), visits 1 and 0 (2).
    assert_eq!(d.cost().classes_examined, 3 + 2 + 2);
}

/// The classes examined, counted exactly while a class's turn goes on: each decision
/// examines the class in its turn once, then every class it visits.
///
/// Quanta 256 B and 128 B, class 0 holds three 128-byte packets. Decision 1 visits class
/// 0 (1 examined): DC0 = 256, it sends. Decision 2: class 0 is in its turn (1): sends.
/// Decision 3: class 0 in its turn (1) has DC0 = 0 < 128, the turn ends; visits class 1
/// (empty, 1) and class 0 (1): DC0 = 256, it sends.
#[test]
fn classes_examined_count_the_class_in_its_turn() {
    let mut d = Drr::new(&[256, 128]);
    let mut port = MockPort::new(2, 1000);
    port.push(0, 2, 3);
    let mut examined = Vec::new();
    for _ in 0..3 {
        assert_eq!(port.step(&mut d), Some(0));
        examined.push(d.cost().classes_examined);
    }
    assert_eq!(examined, vec![1, 2, 5]);
}

/// With many classes a decision can take two full rounds of visits: the round that ends
/// in the skip and the round after it, where the class that needs the fewest rounds may
/// be the last one visited. The decision still sends.
///
/// Quanta 64 B for 10 classes; classes 0-8 hold a 1024-byte packet, class 9 a 512-byte
/// one. Visits 0-9 and 0 again (11 failed visits, DC0 = 128, the others 64): skip; class
/// 9 needs (512 - 64) / 64 = 7 rounds, the fewest: 6 skipped (DC9 = 448, DC0 = 512, the
/// others 448). Visits 1-8 fail (512 < 1024), visit 9: DC9 = 512, it sends. 20 visits,
/// 30 classes examined (20 visits and 10 in the skip).
#[test]
fn a_decision_after_a_skip_may_need_a_second_full_round() {
    let mut d = Drr::new(&[64; 10]);
    let mut port = MockPort::new(10, 1000);
    for c in 0..9 {
        port.push(c, 16, 1);
    }
    port.push(9, 8, 1);
    assert_eq!(port.step(&mut d), Some(9));
    assert_eq!(d.cost().classes_examined, 30);
    assert_eq!(d.deficit(0), 512);
    assert_eq!(d.deficit(1), 512);
    assert_eq!(d.deficit(9), 0);
}

/// The DRR of the spec without the skip: one visit at a time, each adding one quantum
/// (all classes always have credits here).
struct PlainDrr {
    quantum: Vec<i64>,
    deficit: Vec<i64>,
    current: Option<usize>,
    pointer: usize,
}

impl PlainDrr {
    fn select(&mut self, queues: &[std::collections::VecDeque<u32>]) -> Option<usize> {
        let n = self.quantum.len();
        let head = |c: usize| queues[c].front().map(|&credits| i64::from(credits) * 64);
        if let Some(c) = self.current
            && head(c).is_some_and(|b| b <= self.deficit[c])
        {
            return Some(c);
        }
        self.current = None;
        if queues.iter().all(|q| q.is_empty()) {
            return None;
        }
        loop {
            self.pointer = (self.pointer + 1) % n;
            let c = self.pointer;
            if let Some(bytes) = head(c) {
                self.deficit[c] += self.quantum[c];
                if bytes <= self.deficit[c] {
                    self.current = Some(c);
                    return Some(c);
                }
            }
        }
    }
}

proptest::proptest! {
    /// Skipping empty rounds changes nothing but the work: the send order and every
    /// deficit equal those of the plain one-visit-at-a-time DRR, whatever the quanta and
    /// packet sizes.
    #[test]
    fn skipping_rounds_matches_plain_drr(
        quanta in proptest::collection::vec(1u32..300, 1..5),
        packets in proptest::collection::vec((0usize..4, 1u32..40), 1..40),
    ) {
        let n = quanta.len();
        let mut d = Drr::new(&quanta);
        let mut plain = PlainDrr {
            quantum: quanta.iter().map(|&q| i64::from(q)).collect(),
            deficit: vec![0; n],
            current: None,
            pointer: n - 1,
        };
        let mut port = MockPort::new(n, u32::MAX);
        for &(class, credits) in &packets {
            port.push(class % n, credits, 1);
        }
        loop {
            let expected = plain.select(&port.queues);
            let bytes = expected.and_then(|c| port.queues[c].front().map(|&cr| i64::from(cr) * 64));
            let sent = port.step(&mut d);
            proptest::prop_assert_eq!(sent, expected);
            let (Some(c), Some(bytes)) = (sent, bytes) else { break };
            plain.deficit[c] -= bytes;
            if port.queues[c].is_empty() {
                plain.deficit[c] = 0;
                plain.current = None;
            }
            let deficits: Vec<i64> = (0..n).map(|c| d.deficit(c)).collect();
            proptest::prop_assert_eq!(&deficits, &plain.deficit);
        }
    }
}
