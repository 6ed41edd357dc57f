//! What an Advanced Switching basic table shows and refuses before it schedules anything:
//! the table listed in decision traces (one packet per entry, so no weight) and the
//! configuration rules of the spec (32, 64, ..., 1024 entries; VC ids of 5 bits, 0 to 31),
//! each named by its field path.

use super::*;

/// `n` classes (VCs 0 to n - 1), the first three with load, the others idle.
fn classes(n: usize) -> Vec<ClassRef<'static>> {
    (0..n)
        .map(|i| ClassRef {
            name: "vc",
            load: if i < 3 { 0.2 } else { 0.0 },
            max_bytes: 2048,
        })
        .collect()
}

/// The field paths of the problems found, in order.
fn paths(table: Vec<u32>, classes_n: usize) -> Vec<String> {
    let mut p = Problems::default();
    AsBasic::validate(
        &AsBasicConfig { table },
        &classes(classes_n),
        "model.scheduler",
        &mut p,
    );
    p.0.into_iter().map(|e| e.path).collect()
}

/// A table of `len` entries cycling classes 0, 1, 2.
fn cycling(len: u32) -> Vec<u32> {
    (0..len).map(|i| i % 3).collect()
}

/// The trace lists every entry in order with its class and no weight.
#[test]
fn the_trace_lists_the_configured_table_without_weights() {
    let mut table = cycling(32);
    table[5] = 7;
    let layout = AsBasic::table_layout(&AsBasicConfig {
        table: table.clone(),
    });
    assert_eq!(layout.len(), 32);
    for (i, e) in layout.iter().enumerate() {
        assert_eq!(
            e,
            &TraceTableEntry {
                table: TableSide::Main,
                index: i as u32,
                class: table[i],
                weight: None
            }
        );
    }
}

/// Every allowed size, and the highest VC id, are valid.
#[test]
fn every_allowed_size_and_the_highest_vc_are_valid() {
    for len in [32, 64, 128, 256, 512, 1024] {
        assert_eq!(
            paths(cycling(len), 3),
            Vec::<String>::new(),
            "{len} entries"
        );
    }
    let mut table = cycling(32);
    table[31] = 31;
    assert_eq!(paths(table, 32), Vec::<String>::new());
}

/// Other sizes, a VC id over 5 bits, a VC the scenario does not have and a loaded class
/// without an entry are refused at their paths.
#[test]
fn bad_tables_are_refused_with_their_paths() {
    for len in [0, 1, 31, 33, 48, 1023, 1025, 2048] {
        let got = paths(cycling(len), 3);
        let expected: &[&str] = match len {
            0 => &[
                "model.scheduler.table",
                "model.classes[0]",
                "model.classes[1]",
                "model.classes[2]",
            ],
            1 => &[
                "model.scheduler.table",
                "model.classes[1]",
                "model.classes[2]",
            ],
            _ => &["model.scheduler.table"],
        };
        assert_eq!(got, expected, "{len} entries");
    }
    let mut table = cycling(32);
    table[4] = 32;
    assert_eq!(paths(table, 33), vec!["model.scheduler.table[4]"]);
    let mut table = cycling(32);
    table[6] = 31;
    assert_eq!(paths(table, 31), vec!["model.scheduler.table[6]"]);
    assert_eq!(
        paths((0..32).map(|i| i % 2).collect(), 3),
        vec!["model.classes[2]"]
    );
}
