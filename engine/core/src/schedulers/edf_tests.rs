//! The rules of an EDF configuration, each named by its field path: one relative deadline
//! per class, each between 1 ns and [`MAX_DEADLINE_NS`].

use super::*;

fn paths(deadlines_ns: Vec<u64>) -> Vec<String> {
    let class = |name| ClassRef {
        name,
        load: 0.5,
        max_bytes: 64,
    };
    let mut p = Problems::default();
    Edf::validate(
        &EdfConfig { deadlines_ns },
        &[class("a"), class("b")],
        "model.scheduler",
        &mut p,
    );
    p.0.into_iter().map(|e| e.path).collect()
}

#[test]
fn deadlines_within_the_limits_are_valid() {
    assert_eq!(paths(vec![1, MAX_DEADLINE_NS]), Vec::<String>::new());
}

#[test]
fn deadlines_outside_the_limits_or_of_the_wrong_count_are_refused() {
    assert_eq!(
        paths(vec![0, MAX_DEADLINE_NS + 1]),
        vec![
            "model.scheduler.deadlines_ns[0]",
            "model.scheduler.deadlines_ns[1]"
        ]
    );
    assert_eq!(paths(vec![1000]), vec!["model.scheduler.deadlines_ns"]);
}

/// The cost counter shown to users, exactly: every decision examines the head of each of
/// the port's classes, including one that finds nothing to send.
#[test]
fn every_decision_examines_every_class() {
    use crate::schedulers::testing::MockPort;
    let mut s = Edf::new(&[1000, 5000, 20000]);
    let mut port = MockPort::new(3, 1000);
    for c in 0..3 {
        port.push(c, 1, 1);
    }
    for _ in 0..3 {
        assert!(port.step(&mut s).is_some());
    }
    assert_eq!(port.step(&mut s), None);
    let c = s.cost();
    assert_eq!(c.decisions, 3);
    assert_eq!(c.classes_examined, 4 * 3);
}
