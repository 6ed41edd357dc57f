//! What a DTable shows and refuses before it schedules anything: the table listed in
//! decision traces (the animation draws it entry by entry, with each entry's class and
//! weight) and the rules a DTable configuration must follow, with their field paths.

use super::*;

fn config(entries: &[(u32, u32)]) -> DTableConfig {
    DTableConfig {
        table: entries
            .iter()
            .map(|&(class, weight)| TableEntry { class, weight })
            .collect(),
    }
}

/// Class 0 sends packets of up to 2 KiB (32 credits), class 1 of 64 B, class 2 has no load.
fn classes() -> Vec<ClassRef<'static>> {
    vec![
        ClassRef {
            name: "bulk",
            load: 0.5,
            max_bytes: 2048,
        },
        ClassRef {
            name: "small",
            load: 0.3,
            max_bytes: 64,
        },
        ClassRef {
            name: "idle",
            load: 0.0,
            max_bytes: 64,
        },
    ]
}

fn problems(c: &DTableConfig) -> Vec<(String, String)> {
    let mut p = Problems::default();
    DTable::validate(c, &classes(), "model.scheduler", &mut p);
    p.0.into_iter().map(|e| (e.path, e.message)).collect()
}

/// The trace lists every entry of the table, in order, as configured: the one table of a
/// DTable (`main`), its position, class and weight in credits.
#[test]
fn the_trace_lists_the_configured_table_in_order() {
    let c = config(&[(0, 40), (2, 17), (1, 33), (0, 5)]);
    let entry = |index: u32, class: u32, weight: u32| TraceTableEntry {
        table: TableSide::Main,
        index,
        class,
        weight: Some(weight),
    };
    assert_eq!(
        DTable::table_layout(&c),
        vec![
            entry(0, 0, 40),
            entry(1, 2, 17),
            entry(2, 1, 33),
            entry(3, 0, 5)
        ]
    );
}

/// A table that serves every loaded class with weights of at least one packet is valid; a
/// class without load needs no entry.
#[test]
fn a_table_serving_every_loaded_class_is_valid() {
    assert_eq!(problems(&config(&[(0, 32), (1, 1)])), vec![]);
}

/// The rules, each named by its field path: an empty table, a loaded class without an
/// entry, a weight below the class's MTU, an unknown class.
#[test]
fn bad_tables_are_refused_with_their_paths() {
    let paths = |c: &DTableConfig| problems(c).into_iter().map(|(p, _)| p).collect::<Vec<_>>();
    assert_eq!(
        paths(&config(&[])),
        vec![
            "model.scheduler.table",
            "model.classes[0]",
            "model.classes[1]"
        ]
    );
    assert_eq!(paths(&config(&[(0, 32)])), vec!["model.classes[1]"]);
    let below_mtu = problems(&config(&[(0, 31), (1, 1)]));
    assert_eq!(below_mtu.len(), 1);
    assert_eq!(below_mtu[0].0, "model.scheduler.table[0].weight");
    assert!(
        below_mtu[0].1.contains("below the MTU"),
        "{}",
        below_mtu[0].1
    );
    assert_eq!(
        paths(&config(&[(0, 32), (1, 1), (3, 1)])),
        vec!["model.scheduler.table[2].class"]
    );
}

/// The limits of the shared table rules: at most 4096 entries, weights 1 to 65 535 credits
/// (the limit itself valid, one past it refused; weight 0 refused by the range rule).
#[test]
fn table_size_and_weight_limits() {
    let cycle = |len: usize| {
        let entries: Vec<(u32, u32)> = (0..len)
            .map(|i| if i % 2 == 0 { (0, 32) } else { (1, 1) })
            .collect();
        config(&entries)
    };
    assert_eq!(problems(&cycle(4096)), vec![]);
    let too_long = problems(&cycle(4097));
    assert_eq!(too_long.len(), 1);
    assert_eq!(too_long[0].0, "model.scheduler.table");
    assert_eq!(problems(&config(&[(0, 65_535), (1, 1)])), vec![]);
    let over = problems(&config(&[(0, 65_536), (1, 1)]));
    assert_eq!(over.len(), 1);
    assert_eq!(over[0].0, "model.scheduler.table[0].weight");
    let zero = problems(&config(&[(0, 32), (1, 0)]));
    assert_eq!(zero.len(), 1);
    assert_eq!(zero[0].0, "model.scheduler.table[1].weight");
    assert!(zero[0].1.contains("between 1 and 65535"), "{}", zero[0].1);
}
