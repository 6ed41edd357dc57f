//! Sweep scaling and summaries.

use super::*;
use crate::results::RunResults;

fn base() -> Scenario {
    scenario::parse(
        r#"{"version":1,"name":"s","seed":1,"duration_us":100,"warmup_us":10,
        "model":{"kind":"link_lab","link":{"rate_gbps":2.0},
          "downstream":{"buffer_bytes":4096,"drain_rate_gbps":2.0},
          "classes":[
            {"name":"A","traffic":{"load":0.1,"arrivals":{"kind":"poisson"},"size":{"kind":"fixed","bytes":64}}},
            {"name":"B","traffic":{"load":0.3,"arrivals":{"kind":"poisson"},"size":{"kind":"fixed","bytes":64}}},
            {"name":"C","traffic":{"load":0.0,"arrivals":{"kind":"poisson"},"size":{"kind":"fixed","bytes":64}}}],
          "scheduler":{"kind":"fifo"}}}"#,
    )
    .unwrap()
}

#[test]
fn scales_loads_in_proportion() {
    let s = at_load(&base(), 0.8).unwrap();
    let Model::LinkLab(lab) = &s.model else {
        panic!("link lab")
    };
    let loads: Vec<f64> = lab.classes.iter().map(|c| c.traffic.load).collect();
    assert!((loads[0] - 0.2).abs() < 1e-12 && (loads[1] - 0.6).abs() < 1e-12);
    assert_eq!(loads[2], 0.0);
    assert!((total_load(&s) - 0.8).abs() < 1e-12);
}

/// An R2-like network: QoS classes 0.717 in all stay fixed, the three best-effort
/// classes share the rest in their proportions (equal here).
fn network() -> Scenario {
    let text = include_str!("../../tests/data/network-r2.json");
    scenario::parse(text).unwrap()
}

fn network_loads(s: &Scenario) -> Vec<(bool, f64)> {
    let Model::Network(net) = &s.model else {
        panic!("network")
    };
    net.classes
        .iter()
        .map(|c| (c.best_effort, c.traffic.load))
        .collect()
}

#[test]
fn networks_scale_only_best_effort_classes() {
    let base = network_loads(&network());
    for total in [0.762, 0.88, 1.0, 1.3] {
        let s = at_load(&network(), total).unwrap();
        let loads = network_loads(&s);
        for (i, (&(be, load), &(_, was))) in loads.iter().zip(&base).enumerate() {
            if be {
                assert!(
                    (load - (total - 0.717) / 3.0).abs() < 1e-12,
                    "class {i}: {load}"
                );
            } else {
                assert_eq!(load, was, "QoS class {i} keeps its load");
            }
        }
        assert!((total_load(&s) - total).abs() < 1e-12);
    }
    // Exactly the fixed part: best effort silent.
    let s = at_load(&network(), 0.717).unwrap();
    assert!(network_loads(&s).iter().filter(|c| c.0).all(|c| c.1 == 0.0));
    // Unequal best-effort loads keep their proportions; all silent ones share equally.
    let mut doc = network();
    let Model::Network(net) = &mut doc.model else {
        panic!("network")
    };
    for (class, load) in net.classes[4..].iter_mut().zip([0.1, 0.2, 0.0]) {
        class.traffic.load = load;
    }
    let loads = network_loads(&at_load(&doc, 0.717 + 0.6).unwrap());
    assert!((loads[4].1 - 0.2).abs() < 1e-12 && (loads[5].1 - 0.4).abs() < 1e-12);
    assert_eq!(loads[6].1, 0.0);
    let silent = at_load(&doc, 0.717).unwrap();
    let loads = network_loads(&at_load(&silent, 0.717 + 0.3).unwrap());
    assert!(
        loads[4..].iter().all(|c| (c.1 - 0.1).abs() < 1e-12),
        "{loads:?}"
    );
}

#[test]
fn networks_need_room_and_a_best_effort_class() {
    let err = at_load(&network(), 0.7).unwrap_err();
    let EngineError::Invalid { errors } = err else {
        panic!("invalid")
    };
    assert_eq!(errors[0].path, "load");
    assert!(
        errors[0]
            .message
            .contains("fixed load of the QoS classes (0.717"),
        "{}",
        errors[0].message
    );
    let mut doc = network();
    let Model::Network(net) = &mut doc.model else {
        panic!("network")
    };
    for c in &mut net.classes {
        c.best_effort = false;
    }
    let EngineError::Invalid { errors } = at_load(&doc, 1.0).unwrap_err() else {
        panic!("invalid")
    };
    assert_eq!(errors[0].path, "model.classes");
    assert!(errors[0].message.contains("no class is best_effort"));
}

#[test]
fn rejects_bad_loads() {
    for bad in [0.0, -1.0, f64::NAN, 5.0] {
        assert!(at_load(&base(), bad).is_err(), "{bad}");
    }
}

#[test]
fn replications_use_consecutive_seeds() {
    let reps = replications(&base(), 0.5, 3).unwrap();
    let seeds: Vec<u64> = reps.iter().map(|s| s.seed).collect();
    assert_eq!(seeds, vec![1, 2, 3]);
    assert!((total_load(&reps[2]) - 0.5).abs() < 1e-12);
    assert!(replications(&base(), 0.5, 0).is_err());
    let mut high = base();
    high.seed = (1 << 53) - 2;
    assert!(replications(&high, 0.5, 2).is_ok());
    assert!(replications(&high, 0.5, 3).is_err(), "seed beyond 2^53 - 1");
}

/// Worked example: values 1, 2, 3 have mean 2, s = 1, so the half-width is
/// t(0.95, 2) / sqrt(3) = 2.920 / 1.732 = 1.6859.
#[test]
fn confidence_half_width() {
    let h = ci90_half_width(&[1.0, 2.0, 3.0]).unwrap();
    assert!((h - 2.920 / 3.0f64.sqrt()).abs() < 1e-12, "{h}");
    assert_eq!(ci90_half_width(&[5.0]), None);
    assert_eq!(ci90_half_width(&[4.0, 4.0]), Some(0.0));
    assert_eq!(student_t90(1), 6.314);
    assert_eq!(student_t90(30), 1.697);
    assert_eq!(student_t90(45), 1.684);
    assert_eq!(student_t90(10_000), 1.645);
    // The table decreases towards the normal quantile.
    for df in 1..200 {
        assert!(student_t90(df) >= student_t90(df + 1));
    }
}

#[test]
fn point_summarises_runs() {
    // DTable rather than the base's FIFO: this branch runs with the DTable scheduler.
    let mut s = base();
    let Model::LinkLab(lab) = &mut s.model else {
        panic!("link lab")
    };
    lab.scheduler = crate::scenario::SchedulerConfig::Dtable(crate::scenario::DTableConfig {
        table: vec![
            crate::scenario::TableEntry {
                class: 0,
                weight: 4,
            },
            crate::scenario::TableEntry {
                class: 1,
                weight: 4,
            },
        ],
    });
    let runs: Vec<RunResults> = replications(&s, 0.4, 4)
        .unwrap()
        .into_iter()
        .map(|s| {
            let mut r = crate::Run::new(s).unwrap();
            r.run_to_end();
            r.results()
        })
        .collect();
    let p = SweepPoint::from_runs(0.4, runs.clone());
    assert_eq!(p.runs, 4);
    assert_eq!(p.classes.len(), 3);
    let tp: Vec<f64> = runs.iter().map(|r| r.classes[1].throughput).collect();
    assert!((p.classes[1].throughput - tp.iter().sum::<f64>() / 4.0).abs() < 1e-12);
    assert_eq!(p.classes[1].throughput_ci90, ci90_half_width(&tp));
    assert!(p.classes[1].throughput_ci90.unwrap() > 0.0);
    let max = runs
        .iter()
        .map(|r| r.classes[0].latency_ns.max.unwrap())
        .fold(0.0, f64::max);
    assert_eq!(p.classes[0].max_ns, Some(max));
    // The silent class has no latency at all.
    assert_eq!(p.classes[2].mean_ns, None);
    assert_eq!(p.classes[2].mean_ns_ci90, None);
    let one = SweepPoint::from_runs(0.4, runs[..1].to_vec());
    assert_eq!(one.classes[0].throughput_ci90, None);
}
