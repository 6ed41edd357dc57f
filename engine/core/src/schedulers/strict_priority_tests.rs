//! The rules of a strict-priority configuration, each named by its field path: one
//! priority per class, each between 0 and [`MAX_PRIORITY`].

use super::*;

fn paths(priorities: Vec<u32>) -> Vec<String> {
    let class = |name| ClassRef {
        name,
        load: 0.5,
        max_bytes: 64,
    };
    let mut p = Problems::default();
    let config = PriorityConfig {
        priorities,
        ties: None,
    };
    StrictPriority::validate(
        &config,
        &[class("a"), class("b")],
        "model.scheduler",
        &mut p,
    );
    p.0.into_iter().map(|e| e.path).collect()
}

#[test]
fn priorities_within_the_limits_are_valid() {
    assert_eq!(paths(vec![0, MAX_PRIORITY]), Vec::<String>::new());
}

#[test]
fn priorities_over_the_limit_or_of_the_wrong_count_are_refused() {
    assert_eq!(
        paths(vec![MAX_PRIORITY + 1, 3]),
        vec!["model.scheduler.priorities[0]"]
    );
    assert_eq!(paths(vec![1, 2, 3]), vec!["model.scheduler.priorities"]);
}

/// Ties are broken among *active* classes only: round robin passes over an empty class
/// of the same priority, the oldest head of a class blocked by flow control does not go.
/// Every decision examines the classes in priority order up to the first active one, then
/// the tied active ones; a decision that finds nothing active counts nothing.
#[test]
fn ties_are_broken_among_active_classes_only() {
    use crate::schedulers::testing::MockPort;
    let mut s = StrictPriority::with_ties(&[1, 1], PriorityTies::RoundRobin);
    let mut port = MockPort::new(2, 100);
    port.push(0, 1, 2);
    let order: Vec<usize> = std::iter::from_fn(|| port.step(&mut s)).collect();
    assert_eq!(order, vec![0, 0]);
    // Per decision: class 0 found first (1), tied active classes: class 0 alone (1).
    assert_eq!(s.cost().classes_examined, 2 + 2);

    let mut s = StrictPriority::with_ties(&[1, 1], PriorityTies::Oldest);
    let mut port = MockPort::new(2, 100);
    port.push(1, 2, 1); // the oldest head, but blocked
    port.free[1] = 1;
    port.push(0, 1, 1);
    assert_eq!(port.step(&mut s), Some(0));
    assert_eq!(port.step(&mut s), None);
}
