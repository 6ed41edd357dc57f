//! The ETS command at its edge: 16 classes fill the 16 bands and the 16 Linux priorities
//! (`docs/omnipath.md`, "Linux ETS"); the other cases are in `tests/opafm.rs`.

use super::*;
use crate::design::{design, parse_requirements};

#[test]
fn sixteen_classes_take_every_band_and_priority() {
    let classes: Vec<String> = (0..16)
        .map(|i| {
            format!(r#"{{"name": "C{i}", "distance": null, "mtu_bytes": 64, "share": 0.0625}}"#)
        })
        .collect();
    let r = parse_requirements(&format!(
        r#"{{"technology": "dtable", "entries": 64, "gmtu_bytes": 2048, "classes": [{}]}}"#,
        classes.join(",")
    ))
    .unwrap();
    let cmd = command(&design(&r).unwrap()).unwrap();
    // No priority is left over, so no line says where the others go.
    assert!(!cmd.contains("# priority p"), "{cmd}");
    assert!(cmd.contains("# band 15 = C15: DRR quantum "), "{cmd}");
    let priomap: Vec<String> = (0..16).map(|p| p.to_string()).collect();
    assert!(
        cmd.ends_with(&format!(" priomap {}\n", priomap.join(" "))),
        "{cmd}"
    );
    assert!(cmd.contains("ets bands 16 quanta "), "{cmd}");
}
