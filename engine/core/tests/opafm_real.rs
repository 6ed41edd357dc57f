//! Checks qoslab's Omni-Path export against the real fabric manager's configuration checker,
//! `/usr/lib/opa-fm/bin/config_check -s -c FILE` (Debian package `opa-fm`): it parses and
//! strictly validates an `opafm.xml` and exits non-zero on an error. Without it each test
//! prints a skip line and passes, except under `npm test` (`QOSLAB_REQUIRE_OPAFM`), which
//! installs it. See `docs/omnipath.md`.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod random_requirements;

use std::path::PathBuf;
use std::process::Command;

use proptest::prelude::*;
use qoslab_core::design::opafm::{export_complete, import};
use qoslab_core::design::{
    Design, FabricOptions, HighEntry, MULTIMEDIA_VECTOR, Technology, design, parse_requirements,
};

const CONFIG_CHECK: &str = "/usr/lib/opa-fm/bin/config_check";

/// `(exit code, output lines that report a problem)` of `config_check -s -c` on `xml`; `None`
/// when opa-fm is not installed.
fn config_check(name: &str, xml: &str) -> Option<(i32, Vec<String>)> {
    if !PathBuf::from(CONFIG_CHECK).is_file() {
        assert!(
            std::env::var_os("QOSLAB_REQUIRE_OPAFM").is_none(),
            "QOSLAB_REQUIRE_OPAFM is set but opa-fm is not installed (apt-get install opa-fm)"
        );
        println!(
            "SKIP: opa-fm not installed (apt-get install opa-fm); config_check of {name} skipped"
        );
        return None;
    }
    let dir = std::env::temp_dir().join(format!("qoslab-opafm-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("opafm.xml");
    std::fs::write(&file, xml).unwrap();
    let out = Command::new(CONFIG_CHECK)
        .arg("-s")
        .arg("-c")
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let problems = text
        .lines()
        .filter(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("error")
                || l.contains("warning")
                || l.contains("invalid")
                || l.contains("could not")
        })
        .map(str::to_string)
        .collect();
    Some((out.status.code().unwrap_or(-1), problems))
}

fn vector(technology: &str, fabric: Option<&str>) -> Design {
    let mut text = MULTIMEDIA_VECTOR.replace(r#""dtable""#, &format!("\"{technology}\""));
    if let Some(f) = fabric {
        text = text.replacen('{', &format!("{{\"fabric\": {f},"), 1);
    }
    design(&parse_requirements(&text).unwrap()).unwrap()
}

#[test]
fn the_public_vector_passes_config_check() {
    let cases = [
        ("vector-opa", vector("omnipath", None)),
        (
            "vector-opa-high",
            vector(
                "omnipath",
                Some(r#"{"high": [{"class": "NC", "weight": 4}]}"#),
            ),
        ),
        (
            "vector-ib",
            vector(
                "infiniband",
                Some(r#"{"high": [{"class": "VO", "weight": 4}], "high_limit": 6}"#),
            ),
        ),
        ("vector-dtable", vector("dtable", None)),
    ];
    for (name, d) in cases {
        let xml = export_complete(&d).unwrap();
        let Some((code, problems)) = config_check(name, &xml) else {
            return;
        };
        assert_eq!((code, problems), (0, Vec::<String>::new()), "{name}");
    }
}

#[test]
fn a_hand_edited_invalid_file_is_refused_by_both() {
    let good = export_complete(&vector("omnipath", None)).unwrap();
    for (name, from, to, element) in [
        (
            "bw120",
            "<Bandwidth>50%</Bandwidth>",
            "<Bandwidth>120%</Bandwidth>",
            "QOSGroup \"VI\" > Bandwidth",
        ),
        (
            "sl16",
            "<BaseSL>2</BaseSL>",
            "<BaseSL>16</BaseSL>",
            "QOSGroup \"VI\" > BaseSL",
        ),
        (
            "sl-twice",
            "<BaseSL>2</BaseSL>",
            "<BaseSL>1</BaseSL>",
            "QOSGroup \"VI\" > BaseSL",
        ),
        (
            "over100",
            "<Bandwidth>20%</Bandwidth>",
            "<Bandwidth>30%</Bandwidth>",
            "QOSGroups",
        ),
    ] {
        let bad = good.replacen(from, to, 1);
        assert_ne!(bad, good, "{name}");
        let ours = import(&bad).unwrap_err().to_string();
        assert!(ours.contains(element), "{name}: {ours}");
        let Some((code, problems)) = config_check(name, &bad) else {
            return;
        };
        assert_ne!(code, 0, "{name}: config_check accepted it");
        assert!(!problems.is_empty(), "{name}");
    }
}

fn random_design() -> impl Strategy<Value = Design> {
    (
        prop::collection::vec(
            (prop::option::of(1u32..=6), 64u32..=2048, 1u32..=30),
            1..=16,
        ),
        prop::collection::vec(any::<bool>(), 16),
        prop::sample::select(vec![
            Technology::Omnipath,
            Technology::Infiniband,
            Technology::Dtable,
        ]),
    )
        .prop_filter_map("feasible", |(raw, high, tech)| {
            let raw = if tech == Technology::Infiniband {
                raw.into_iter().take(15).collect()
            } else {
                raw
            };
            let mut r = random_requirements::requirements(tech, 6, &raw);
            if tech != Technology::Dtable {
                let high: Vec<HighEntry> = r
                    .classes
                    .iter()
                    .zip(&high)
                    .filter(|(_, h)| **h)
                    .map(|(c, _)| HighEntry {
                        class: c.name.clone(),
                        weight: 8,
                    })
                    .collect();
                r.fabric = Some(FabricOptions {
                    high,
                    ..FabricOptions::default()
                });
            }
            design(&r).ok()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Random valid designs (1-16 classes, random high-priority classes): config_check
    /// accepts every export, and it imports back to the same groups.
    #[test]
    fn random_designs_pass_config_check(d in random_design()) {
        let xml = export_complete(&d).unwrap();
        let groups = qoslab_core::design::opafm::groups(&d).unwrap();
        prop_assert_eq!(import(&xml).unwrap(), groups);
        if let Some((code, problems)) = config_check("random", &xml) {
            prop_assert_eq!((code, problems), (0, Vec::<String>::new()));
        }
    }
}
