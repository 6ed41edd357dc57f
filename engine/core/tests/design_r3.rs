//! The arbitration table of reference scenario R3 (`shared/spec/50-reference-scenarios.md`):
//! N = 64, GMTU = 32 credits, the study's distances, class MTUs and wanted shares, `w` and
//! `k` from the designer's search. The requirements are `public/designs/r3-table.json`
//! (what the R3 presets take their table from: `qoslab design public/designs/r3-table.json`);
//! this test designs from them and checks the table against the formulas of
//! `20-table-design.md`, computed here by hand rather than by the designer.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use qoslab_core::design::{Design, Requirements, design, max_cyclic_distance, parse_requirements};

fn requirements() -> Requirements {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/designs/r3-table.json");
    parse_requirements(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// (name, distance, MTU in credits, wanted share) of R3.
const CLASSES: [(&str, u32, u64, f64); 7] = [
    ("NC", 2, 3, 0.094),
    ("VO", 4, 2, 0.164),
    ("VI", 8, 32, 0.30),
    ("CL", 16, 32, 0.35),
    ("EE", 32, 16, 0.04),
    ("BE", 64, 16, 0.036),
    ("BK", 64, 16, 0.016),
];
const N: u64 = 64;
const GMTU: u64 = 32;

/// `min_phi_i = (n_i / N) (MTU_i / GMTU) / k` with `k` in tenths.
fn min_phi(n: u64, mtu: u64, k_tenths: u64) -> f64 {
    (n as f64 / N as f64) * (mtu as f64 / GMTU as f64) * 10.0 / k_tenths as f64
}

/// `max_phi_i = n_i M / pool` with `M = floor(GMTU w)` (whole credits) and
/// `pool = N GMTU k`, `w` and `k` in tenths.
fn max_phi(n: u64, w_tenths: u64, k_tenths: u64) -> f64 {
    let m = GMTU * w_tenths / 10;
    let pool = N * GMTU * k_tenths / 10;
    (n * m) as f64 / pool as f64
}

fn r3() -> Design {
    design(&requirements()).unwrap()
}

#[test]
fn the_requirements_file_is_the_study_table() {
    let r = requirements();
    assert_eq!((r.entries, r.gmtu_bytes, r.w, r.k), (64, 2048, None, None));
    for (c, want) in r.classes.iter().zip(CLASSES) {
        assert_eq!(
            (
                c.name.as_str(),
                c.distance,
                u64::from(c.mtu_bytes).div_ceil(64),
                c.share
            ),
            (want.0, Some(want.1), want.2, want.3)
        );
    }
}

#[test]
fn size_distances_and_entries() {
    let d = r3();
    assert_eq!(d.table.len(), 64);
    let slots: Vec<usize> = d
        .table
        .iter()
        .map(|e| CLASSES.iter().position(|c| c.0 == e.class).unwrap())
        .collect();
    for (i, (name, distance, _, _)) in CLASSES.iter().enumerate() {
        // Powers of two dividing N: n_i = N / d_i entries, and every window of d_i holds one.
        let n = slots.iter().filter(|&&s| s == i).count() as u64;
        assert_eq!(n, N / u64::from(*distance), "{name}");
        assert!(
            max_cyclic_distance(&slots, i).unwrap() <= *distance as usize,
            "{name}"
        );
        assert_eq!(d.classes[i].entries, n);
    }
    // The spec's placement: NC at the even entries, VO at 1, 5, 9, ..., VI at 3, 11, ...,
    // CL at 7, 23, 39, 55, EE at 15, 47, BE at 31, BK at 63.
    assert!(slots.iter().step_by(2).all(|&s| s == 0));
    assert_eq!(slots[1], 1);
    assert_eq!(slots[3], 2);
    assert_eq!((slots[7], slots[23], slots[39], slots[55]), (3, 3, 3, 3));
    assert_eq!((slots[15], slots[47], slots[31], slots[63]), (4, 4, 5, 6));
}

/// The w/k search of the spec, by hand: `k` is the smallest tenth with every
/// `min_phi <= wanted` (NC: 0.5 x 3/32 / k <= 0.094 needs k >= 0.4987, so 0.5); `w` the
/// smallest tenth from `k` up with every `max_phi >= wanted` (CL: 4 floor(32 w) / 1024 >=
/// 0.35 needs floor(32 w) >= 89.6, so w = 2.9, M = 92) and the weights fitting (CL:
/// ceil(0.35 x 1024 / 4) = 90 <= 92).
#[test]
fn w_and_k_are_the_searchs() {
    let d = r3();
    let entries: Vec<u64> = CLASSES.iter().map(|c| N / u64::from(c.1)).collect();
    let k_ok = |k: u64| {
        CLASSES
            .iter()
            .zip(&entries)
            .all(|(c, &n)| min_phi(n, c.2, k) <= c.3 + 1e-12)
    };
    let k = (1..).find(|&k| k_ok(k)).unwrap();
    assert_eq!(k, 5);
    let pool = N * GMTU * k / 10;
    let w_ok = |w: u64| {
        let m = GMTU * w / 10;
        CLASSES.iter().zip(&entries).all(|(c, &n)| {
            let total = libm_ceil(c.3 * pool as f64);
            max_phi(n, w, k) >= c.3 - 1e-12 && total.div_ceil(n) <= m
        })
    };
    let w = (k..).find(|&w| w_ok(w)).unwrap();
    assert_eq!(w, 29);
    assert_eq!((d.k, d.w), (Some(0.5), Some(2.9)));
    assert_eq!(d.pool, Some(pool));
    assert_eq!(d.pool, Some(1024));
    assert_eq!(d.max_entry_weight, Some(GMTU * w / 10));
    assert_eq!(d.max_entry_weight, Some(92));
    for (c, n) in d.classes.iter().zip(&entries) {
        let i = CLASSES.iter().position(|x| x.0 == c.name).unwrap();
        assert!(
            (c.min_share - min_phi(*n, CLASSES[i].2, k)).abs() < 1e-12,
            "{}",
            c.name
        );
        assert!(
            (c.max_share - max_phi(*n, w, k)).abs() < 1e-12,
            "{}",
            c.name
        );
    }
}

fn libm_ceil(x: f64) -> u64 {
    x.ceil() as u64
}

/// Weights follow the formulas: `T_i = phi_i x pool` spread over the class's entries
/// (entries of a class differ by at most 1), each within `[MTU_i, M]`, the totals adding
/// up to the pool exactly (this table follows the formulas; one source table's weights do
/// not add up to its own pool, see docs/table-design.md), each share within half an
/// entry's weight unit of the wanted one.
#[test]
fn weights_follow_the_formulas() {
    let d = r3();
    let pool = d.pool.unwrap();
    let m = d.max_entry_weight.unwrap();
    let mut sum = 0;
    for (c, want) in d.classes.iter().zip(CLASSES) {
        let weights = &c.entry_weights;
        let total: u64 = weights.iter().sum();
        assert_eq!(Some(total), c.total_weight, "{}", c.name);
        sum += total;
        let (lo, hi) = (weights.iter().min().unwrap(), weights.iter().max().unwrap());
        assert!(hi - lo <= 1, "{}: {weights:?}", c.name);
        assert!(*lo >= want.2 && *hi <= m, "{}: {weights:?}", c.name);
        // Rounding: the total is within one credit of wanted x pool (no leftover goes to
        // NC here: the wanted shares add up to 1).
        let exact = want.3 * pool as f64;
        assert!(
            (total as f64 - exact).abs() <= 1.0,
            "{}: {total} vs {exact}",
            c.name
        );
        assert!((c.share - total as f64 / pool as f64).abs() < 1e-12);
    }
    assert_eq!(sum, pool);
    // The table as the R3 presets use it: weights per class in entry order.
    let by_class: Vec<(String, Vec<u64>)> = d
        .classes
        .iter()
        .map(|c| (c.name.clone(), c.entry_weights.clone()))
        .collect();
    assert_eq!(by_class[0].1, vec![3; 32]);
    assert_eq!(by_class[3].1, vec![90, 90, 90, 89]);
    assert_eq!(by_class[6].1, vec![16]);
    // It fits InfiniBand's and Omni-Path's 8-bit weights and 64-entry tables.
    assert!(d.mappings[1].fits && d.mappings[2].fits, "{:?}", d.mappings);
}
