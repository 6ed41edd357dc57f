//! The head heap of the virtual-time schedulers: shares that are never zero (a zero share
//! would give infinite tags), keys that keep the order of the tags (a negative zero is
//! zero), and its heap operations counted exactly (the cost shown to users).

use super::*;
use crate::schedulers::testing::MockPort;

#[test]
fn a_share_too_small_for_a_float_is_the_smallest_positive_share() {
    // 5e-324 / 2 underflows to 0: that class still gets a positive share, so its tags
    // stay finite, and the other share is whole.
    let s = shares(&[5e-324, 2.0]);
    assert_eq!(s, vec![f64::MIN_POSITIVE, 1.0]);
    assert_eq!(shares(&[1.0, 3.0]), vec![0.25, 0.75]);
}

#[test]
fn keys_keep_the_order_of_the_tags_and_a_negative_zero_is_zero() {
    assert_eq!(key_of(-0.0), key_of(0.0));
    let tags = [
        -0.0,
        0.0,
        5e-324,
        1e-300,
        0.5,
        1.0,
        3.0,
        1e300,
        f64::INFINITY,
    ];
    for w in tags.windows(2) {
        assert!(key_of(w[0]) <= key_of(w[1]), "{} then {}", w[0], w[1]);
    }
    // A negative-zero tag is served before a positive one, as 0 is.
    let mut cost = SchedulerCost::default();
    let mut h = HeadHeap::new(2);
    h.push(1e-300, 0, &mut cost);
    h.push(-0.0, 1, &mut cost);
    assert_eq!(h.pop(&mut cost).map(|(_, c)| c), Some(1));
}

#[test]
fn heap_operations_are_counted_exactly() {
    let mut cost = SchedulerCost::default();
    let mut h = HeadHeap::new(3);
    h.push(2.0, 0, &mut cost);
    h.push(1.0, 1, &mut cost);
    h.push(3.0, 2, &mut cost);
    assert_eq!(cost.heap_operations, 3);
    assert_eq!(h.peek(), Some((1.0, 1)));
    assert_eq!(cost.heap_operations, 3, "a peek is no operation");
    // Class 1 is blocked (no credits): it is popped, set aside and pushed back, then
    // class 0 is popped: 3 pops + 1 push back, 2 classes examined.
    let mut port = MockPort::new(3, 1);
    port.push(0, 1, 1);
    port.push(1, 2, 1);
    port.push(2, 1, 1);
    assert_eq!(h.pop_active(&port, &mut cost), Some((2.0, 0)));
    assert_eq!((cost.heap_operations, cost.classes_examined), (6, 2));
    assert_eq!(h.pop(&mut cost), Some((1.0, 1)));
    assert_eq!(cost.heap_operations, 7);
    assert_eq!(h.pop(&mut cost), Some((3.0, 2)));
    assert_eq!(h.pop(&mut cost), None);
    assert_eq!(
        cost.heap_operations, 8,
        "popping an empty heap is no operation"
    );
    assert!(h.is_empty());
}
