//! Sweep points along the network processor's axes (`sweep::at_point`, the engine function
//! behind `qoslab sweep --axis` and the web's `scenario_at_point`): the value is applied
//! exactly, the utilisation U is kept, and an axis that does not apply, or a value it
//! cannot take, is refused with the field path and the rule.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use qoslab_core::error::EngineError;
use qoslab_core::scenario::{self, Model, NetworkProcessorConfig, Scenario, SizeConfig};
use qoslab_core::sweep::{Axis, at_load, at_point};

fn preset(name: &str) -> Scenario {
    let path = format!(
        "{}/../../public/presets/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    scenario::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn np(s: &Scenario) -> &NetworkProcessorConfig {
    match &s.model {
        Model::NetworkProcessor(np) => np,
        _ => panic!("a network processor"),
    }
}

/// The R5 accesses preset with its one group split into groups of 600, 300 and 100 streams.
fn three_groups() -> Scenario {
    let mut s = preset("r5-accesses-heap");
    let Model::NetworkProcessor(np) = &mut s.model else {
        panic!("a network processor")
    };
    let mut groups = Vec::new();
    for (i, count) in [600u32, 300, 100].into_iter().enumerate() {
        let mut g = np.streams[0].clone();
        g.name = format!("g{i}");
        g.count = count;
        groups.push(g);
    }
    np.streams = groups;
    scenario::validate(&s).unwrap();
    s
}

fn invalid(r: Result<Scenario, EngineError>) -> (String, String) {
    match r {
        Err(EngineError::Invalid { errors }) => (errors[0].path.clone(), errors[0].message.clone()),
        Err(other) => panic!("expected invalid, got {other:?}"),
        Ok(_) => panic!("expected invalid, got a scenario"),
    }
}

#[test]
fn streams_are_set_exactly_at_the_same_utilisation() {
    let base = preset("r5-accesses-hilq");
    let u = np(&base).utilisation();
    for n in [10u32, 30, 100, 300, 1000, 3000, 10_000] {
        let s = at_point(&base, Axis::Streams, f64::from(n)).unwrap();
        assert_eq!(np(&s).stream_count(), u64::from(n));
        assert!((np(&s).utilisation() - u).abs() < 1e-9 * u, "U kept at {n}");
        // Only the streams change: packet size and link as before.
        assert_eq!(np(&s).streams[0].size, np(&base).streams[0].size);
        assert_eq!(np(&s).link.rate_gbps, np(&base).link.rate_gbps);
    }
}

#[test]
fn streams_are_shared_among_groups_in_proportion() {
    let base = three_groups();
    let counts = |s: &Scenario| np(s).streams.iter().map(|g| g.count).collect::<Vec<_>>();
    // 60% / 30% / 10% of 20: exact shares.
    assert_eq!(
        counts(&at_point(&base, Axis::Streams, 20.0).unwrap()),
        [12, 6, 2]
    );
    // 60% / 30% / 10% of 15 = 9, 4.5, 1.5: the largest remainder (the first) gets the
    // stream left over; the total is exact.
    let s = at_point(&base, Axis::Streams, 15.0).unwrap();
    assert_eq!(counts(&s), [9, 5, 1]);
    assert_eq!(np(&s).stream_count(), 15);
    // Each group keeps at least one stream: 3 groups need at least 3.
    assert_eq!(
        counts(&at_point(&base, Axis::Streams, 3.0).unwrap()),
        [1, 1, 1]
    );
    let (path, message) = invalid(at_point(&base, Axis::Streams, 2.0));
    assert_eq!(path, "streams");
    assert!(
        message.contains("at least one per stream group"),
        "{message}"
    );
}

#[test]
fn packet_bytes_are_set_exactly_at_the_same_utilisation() {
    let base = preset("r5-budget-heap");
    let u = np(&base).utilisation();
    for bytes in [128u32, 256, 512, 768, 1024] {
        let s = at_point(&base, Axis::PacketBytes, f64::from(bytes)).unwrap();
        for g in &np(&s).streams {
            assert_eq!(g.size, SizeConfig::Fixed(scenario::FixedSize { bytes }));
        }
        assert_eq!(np(&s).stream_count(), np(&base).stream_count());
        assert!(
            (np(&s).utilisation() - u).abs() < 1e-9 * u,
            "U kept at {bytes} B"
        );
    }
}

#[test]
fn the_load_axis_is_at_load() {
    let base = preset("r5-violations-heap");
    let a = at_point(&base, Axis::Load, 1.2).unwrap();
    assert_eq!(a, at_load(&base, 1.2).unwrap());
    assert!((np(&a).utilisation() - 1.2).abs() < 1e-9);
}

#[test]
fn bad_points_are_refused_with_the_field_and_the_rule() {
    let base = preset("r5-accesses-heap");
    for bad in [0.0, -5.0, 10.5, f64::NAN, f64::INFINITY, 2.0e6] {
        let (path, message) = invalid(at_point(&base, Axis::Streams, bad));
        assert_eq!(path, "streams", "{bad}");
        assert!(message.contains("whole number"), "{message}");
        let (path, _) = invalid(at_point(&base, Axis::PacketBytes, bad));
        assert_eq!(path, "packet_bytes", "{bad}");
    }
    // Within the axis's own rule but beyond what a scenario may hold: the scenario's own
    // field is named (validation of the result).
    let (path, _) = invalid(at_point(&base, Axis::PacketBytes, 100_000.0));
    assert!(path.starts_with("model.streams[0]"), "{path}");
    // The network processor's axes do not apply to a link lab (nor a network).
    let lab = preset("default");
    for axis in [Axis::Streams, Axis::PacketBytes] {
        let (path, message) = invalid(at_point(&lab, axis, 100.0));
        assert_eq!(path, "axis");
        assert!(
            message.contains(&format!(
                "\"{}\" sweeps only network-processor",
                axis.name()
            )),
            "{message}"
        );
    }
}

#[test]
fn axes_are_named() {
    for axis in Axis::ALL {
        assert_eq!(Axis::from_name(axis.name()).unwrap(), axis);
    }
    let Err(EngineError::Invalid { errors }) = Axis::from_name("packet-bytes") else {
        panic!("refused")
    };
    assert_eq!(errors[0].path, "axis");
    assert!(
        errors[0]
            .message
            .contains("one of load, streams, packet_bytes (got \"packet-bytes\")")
    );
}
