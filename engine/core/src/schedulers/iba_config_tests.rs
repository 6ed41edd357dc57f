//! What an InfiniBand VLArb arbiter shows and refuses before it schedules anything: the
//! two tables listed in decision traces (high first, then low, each entry with its
//! position, VL and weight) and the configuration rules of the spec, at their limits
//! (64 entries per table, data VLs 0 to 14, weights 0 to 255, high limit 0 to 255), each
//! named by its field path.

use super::*;

fn entries(e: &[(u32, u32)]) -> Vec<TableEntry> {
    e.iter()
        .map(|&(class, weight)| TableEntry { class, weight })
        .collect()
}

fn config(high: &[(u32, u32)], low: &[(u32, u32)], high_limit: u32) -> IbaConfig {
    IbaConfig {
        high: entries(high),
        low: entries(low),
        high_limit,
    }
}

/// 16 classes (VLs 0 to 15), the first three with load, the others idle.
fn classes() -> Vec<ClassRef<'static>> {
    (0..16)
        .map(|i| ClassRef {
            name: "vl",
            load: if i < 3 { 0.2 } else { 0.0 },
            max_bytes: 2048,
        })
        .collect()
}

/// The field paths of the problems found, in order.
fn paths(c: &IbaConfig) -> Vec<String> {
    let mut p = Problems::default();
    Iba::validate(c, &classes(), "model.scheduler", &mut p);
    p.0.into_iter().map(|e| e.path).collect()
}

/// The trace lists the high table, then the low table, each entry as configured.
#[test]
fn the_trace_lists_high_then_low_entries_as_configured() {
    let c = config(&[(2, 7)], &[(0, 0), (1, 255), (2, 3)], 4);
    let entry = |table: TableSide, index: u32, class: u32, weight: u32| TraceTableEntry {
        table,
        index,
        class,
        weight: Some(weight),
    };
    assert_eq!(
        Iba::table_layout(&c),
        vec![
            entry(TableSide::High, 0, 2, 7),
            entry(TableSide::Low, 0, 0, 0),
            entry(TableSide::Low, 1, 1, 255),
            entry(TableSide::Low, 2, 2, 3),
        ]
    );
}

/// Every limit itself is allowed: 64 entries per table, VL 14, weight 255, high limit 255;
/// either table may be empty while the other serves every loaded class.
#[test]
fn limits_themselves_are_valid() {
    let full: Vec<(u32, u32)> = (0..64).map(|i| (i % 3, 255)).collect();
    assert_eq!(paths(&config(&full, &full, 255)), Vec::<String>::new());
    assert_eq!(
        paths(&config(&[], &[(0, 1), (1, 1), (2, 1), (14, 0)], 0)),
        Vec::<String>::new()
    );
    assert_eq!(
        paths(&config(&[(0, 1), (1, 1), (2, 1), (14, 9)], &[], 0)),
        Vec::<String>::new()
    );
}

/// One past each limit is refused at the field that breaks it.
#[test]
fn one_past_each_limit_is_refused_with_its_path() {
    let serve = [(0, 1), (1, 1), (2, 1)];
    let too_long: Vec<(u32, u32)> = (0..65).map(|i| (i % 3, 1)).collect();
    assert_eq!(
        paths(&config(&too_long, &serve, 0)),
        vec!["model.scheduler.high"]
    );
    assert_eq!(
        paths(&config(&serve, &too_long, 0)),
        vec!["model.scheduler.low"]
    );
    assert_eq!(
        paths(&config(&serve, &[(15, 1)], 0)),
        vec!["model.scheduler.low[0].class"]
    );
    assert_eq!(
        paths(&config(&[(0, 256)], &[(1, 1), (2, 1)], 0)),
        vec!["model.scheduler.high[0].weight"]
    );
    assert_eq!(
        paths(&config(&serve, &[], 256)),
        vec!["model.scheduler.high_limit"]
    );
}

/// Both tables empty; a VL the scenario does not have; a loaded class whose only entry has
/// weight 0 (it would never be served).
#[test]
fn empty_tables_unknown_classes_and_unserved_classes_are_refused() {
    let mut p = Problems::default();
    let three = &classes()[..3];
    Iba::validate(&config(&[], &[], 0), three, "model.scheduler", &mut p);
    let found: Vec<String> = p.0.into_iter().map(|e| e.path).collect();
    assert_eq!(
        found,
        vec![
            "model.scheduler",
            "model.classes[0]",
            "model.classes[1]",
            "model.classes[2]"
        ]
    );
    let mut p = Problems::default();
    Iba::validate(
        &config(&[(0, 1), (1, 1), (2, 1)], &[(3, 1)], 0),
        three,
        "model.scheduler",
        &mut p,
    );
    assert_eq!(p.0.len(), 1);
    assert_eq!(p.0[0].path, "model.scheduler.low[0].class");
    assert_eq!(
        paths(&config(&[(0, 1), (1, 1)], &[(2, 0)], 0)),
        vec!["model.classes[2]"]
    );
}
