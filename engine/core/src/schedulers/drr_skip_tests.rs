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
