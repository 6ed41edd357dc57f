//! Checks qoslab's OpenSM export, import and lints against the real `opensm` binary, when
//! it is installed (Debian package `opensm`); otherwise each test prints a skip line and
//! passes. `opensm -F <file> -c <out>` reads the options file, checks the QoS options (only
//! with `qos TRUE`), prints what it loads and any warning, dumps its configuration to `<out>`
//! and exits without touching hardware. See `docs/opensm.md`.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use qoslab_core::design::opensm::{
    LintKind, OpenSmQos, Prefix, from_iba, parse, parse_with_mtu, to_file,
};
use qoslab_core::scenario::{IbaConfig, TableEntry};

fn opensm_path() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/sbin/opensm");
    if fixed.is_file() {
        return Some(fixed);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("opensm"))
        .find(|p| p.is_file())
}

/// What `opensm` printed for an options file, and the configuration it dumped.
struct Outcome {
    /// Lines reporting a problem: `Warning:`, `Invalid Cached Option`, `-E-`,
    /// `Unrecognized token`.
    problems: Vec<String>,
    /// The dumped configuration (`-c`).
    dump: String,
}

/// Runs `opensm -F <file> -c <out>` on `body`, with a `qos TRUE` line put first unless
/// `body` has one; `None` when opensm is absent.
fn run_opensm(name: &str, body: &str) -> Option<Outcome> {
    let Some(bin) = opensm_path() else {
        // `npm test` installs opensm and sets this, so the check can never be skipped there.
        assert!(
            std::env::var_os("QOSLAB_REQUIRE_OPENSM").is_none(),
            "QOSLAB_REQUIRE_OPENSM is set but opensm is not installed (apt-get install opensm)"
        );
        println!(
            "SKIP: opensm not installed (apt-get install opensm); real-OpenSM check of {name} skipped"
        );
        return None;
    };
    let dir = std::env::temp_dir().join(format!("qoslab-opensm-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let conf = dir.join("in.conf");
    let out = dir.join("out.conf");
    let qos_true = if body.lines().any(|l| l.trim() == "qos TRUE") {
        ""
    } else {
        "qos TRUE\n"
    };
    std::fs::write(&conf, format!("{qos_true}{body}")).unwrap();
    let mut child = Command::new(bin)
        .arg("-F")
        .arg(&conf)
        .arg("-c")
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("opensm did not exit within 20 s on {name}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut text = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let problems = text
        .lines()
        .filter(|l| {
            l.contains("Warning:")
                || l.contains("Invalid Cached Option")
                || l.contains("-E-")
                || l.contains("Unrecognized token")
        })
        .map(|l| l.trim().to_string())
        .collect();
    let dump = std::fs::read_to_string(&out).unwrap_or_default();
    std::fs::remove_dir_all(&dir).unwrap();
    Some(Outcome { problems, dump })
}

fn entry(class: u32, weight: u32) -> TableEntry {
    TableEntry { class, weight }
}

/// Exported files OpenSM must load without a single warning.
fn exported_files() -> Vec<(&'static str, Vec<OpenSmQos>)> {
    let iba = IbaConfig {
        high: vec![entry(0, 4), entry(3, 255)],
        low: (0..64).map(|i| entry(i % 15, 64 + i)).collect(),
        high_limit: 6,
    };
    let all: Vec<OpenSmQos> = Prefix::ALL
        .iter()
        .zip([1u8, 2, 4, 8, 15])
        .map(|(&p, max)| {
            let small = IbaConfig {
                high: vec![entry(0, 1)],
                low: vec![entry(0, 32)],
                high_limit: 0,
            };
            from_iba(&small, p, max).unwrap()
        })
        .collect();
    let (sample, _) = parse(
        "qos_swe_max_vls 15\nqos_swe_high_limit 6\nqos_swe_vlarb_high 0:4\n\
         qos_swe_vlarb_low 0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64\n\
         qos_swe_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7\n",
    )
    .unwrap();
    // A designed table (the spec's multimedia vector, InfiniBand technology).
    let requirements = qoslab_core::design::parse_requirements(
        &qoslab_core::design::MULTIMEDIA_VECTOR
            .replace(r#""dtable""#, r#""infiniband""#)
            .replace(r#""w": 2, "k": 0.5"#, r#""w": null, "k": null"#),
    )
    .unwrap();
    assert_eq!(
        requirements.technology,
        qoslab_core::design::Technology::Infiniband
    );
    assert_eq!((requirements.w, requirements.k), (None, None));
    let designed = qoslab_core::design::design(&requirements).unwrap();
    let mut designed = designed;
    designed.fabric.as_mut().unwrap().prefix = Some(Prefix::Swe);
    let multimedia = qoslab_core::design::opensm::from_design(&designed).unwrap();
    vec![
        ("designed-multimedia", vec![multimedia]),
        ("sample", sample),
        ("full64", vec![from_iba(&iba, Prefix::Swe, 15).unwrap()]),
        ("allprefixes", all),
    ]
}

#[test]
fn exported_files_load_cleanly_and_the_dump_reads_back() {
    for (name, qos) in exported_files() {
        let Some(outcome) = run_opensm(name, &to_file(&qos)) else {
            return;
        };
        assert!(
            outcome.problems.is_empty(),
            "{name}: {:?}",
            outcome.problems
        );
        // OpenSM's dump holds every prefix (unset ones as `0`, `-1`, `(null)`); qoslab reads
        // it back to the same models.
        let (back, _) = parse(&outcome.dump).unwrap();
        for q in &qos {
            let found = back.iter().find(|b| b.prefix == q.prefix).unwrap();
            assert_eq!(found, q, "{name}");
        }
    }
}

/// For each trap: the file, the lint qoslab reports, and what OpenSM prints (`None` = it
/// accepts the file silently).
#[test]
fn lints_agree_with_opensm() {
    let many: Vec<String> = (0..70).map(|i| format!("{}:1", i % 8)).collect();
    let cases: Vec<(&str, String, LintKind, Option<&str>)> = vec![
        (
            "vl15",
            "qos_swe_vlarb_low 0:4,15:8\n".to_string(),
            LintKind::Vl15InVlarb,
            Some("Warning: Cached Option qos_swe_vlarb_low:vl=15 out of range"),
        ),
        (
            "over64",
            format!("qos_ca_vlarb_low {}\n", many.join(",")),
            LintKind::TooManyEntries,
            Some(
                "Warning: Cached Option qos_ca_vlarb_low: > 64 listed: excess vl:weight pairs will be dropped",
            ),
        ),
        (
            "belowmtu",
            "qos_vlarb_low 0:8,1:64\n".to_string(),
            LintKind::WeightBelowMtu,
            None,
        ),
        (
            "starve",
            "qos_swe_high_limit 255\nqos_swe_vlarb_high 0:4\nqos_swe_vlarb_low 1:8\n".to_string(),
            LintKind::HighLimitStarvation,
            None,
        ),
        (
            "maxvls",
            "qos_rtr_max_vls 4\nqos_rtr_vlarb_high 5:1\nqos_rtr_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,0,1,2,3\n"
                .to_string(),
            LintKind::VlAboveMaxVls,
            None,
        ),
    ];
    for (name, body, kind, opensm_says) in cases {
        let mtu = (kind == LintKind::WeightBelowMtu).then_some(2048);
        let (_, lints) = parse_with_mtu(&body, mtu).unwrap();
        assert!(!lints.is_empty(), "{name}");
        assert!(lints.iter().all(|l| l.kind == kind), "{name}: {lints:?}");
        let Some(outcome) = run_opensm(name, &body) else {
            return;
        };
        match opensm_says {
            Some(line) => assert_eq!(outcome.problems, vec![line.to_string()], "{name}"),
            None => assert!(
                outcome.problems.is_empty(),
                "{name}: {:?}",
                outcome.problems
            ),
        }
    }
}

/// Values qoslab rejects: OpenSM warns about most, and silently accepts the rest.
#[test]
fn rejections_compared_with_opensm() {
    let cases: Vec<(&str, &str, Option<&str>)> = vec![
        (
            "vl16",
            "qos_swe_vlarb_low 16:1\n",
            Some("Warning: Cached Option qos_swe_vlarb_low:vl=16 out of range"),
        ),
        (
            "weight256",
            "qos_swe_vlarb_high 0:256\n",
            Some("Warning: Cached Option qos_swe_vlarb_high:weight=256 out of range"),
        ),
        (
            "malformed",
            "qos_swe_vlarb_high 5\n",
            Some("Warning: Cached Option qos_swe_vlarb_high:vl:weight=5 improperly formatted"),
        ),
        (
            "highlimit300",
            "qos_swe_high_limit 300\n",
            Some("Invalid Cached Option: qos_swe_high_limit=300: Using Default: 0"),
        ),
        (
            "sl2vlshort",
            "qos_swe_sl2vl 0,1\n",
            Some("Warning: Cached Option qos_swe_sl2vl: < 16 VLs listed"),
        ),
        // OpenSM accepts these without a word; qoslab is stricter.
        ("maxvls3", "qos_max_vls 3\n", None),
        ("octal", "qos_swe_vlarb_low 0:064\n", None),
    ];
    for (name, body, opensm_says) in cases {
        assert!(parse(body).is_err(), "{name}: qoslab must reject");
        let Some(outcome) = run_opensm(name, body) else {
            return;
        };
        match opensm_says {
            Some(line) => assert_eq!(outcome.problems, vec![line.to_string()], "{name}"),
            None => assert!(
                outcome.problems.is_empty(),
                "{name}: {:?}",
                outcome.problems
            ),
        }
    }
}

/// The complete export of designs (comment header, `qos TRUE`, prefix, high and low tables,
/// high limit, SL2VL): OpenSM loads it without a warning, echoes every value, and the dump
/// imports back to the same table and settings.
#[test]
fn complete_design_exports_load_cleanly_and_import_back() {
    use qoslab_core::design::opensm::{export_file, import_design};
    let fabrics = [
        None,
        Some(
            r#"{"prefix": "qos_swe_", "high": [{"class": "NC", "weight": 4}, {"class": "VO", "weight": 2}],
                "high_limit": 6, "sl2vl": [0,1,2,3,4,5,6,6,6,6,6,6,6,6,6,15]}"#,
        ),
        Some(
            r#"{"prefix": "qos_ca_", "high": [{"class": "NC", "weight": 255}], "high_limit": 255}"#,
        ),
        Some(
            r#"{"prefix": "qos_rtr_", "high_limit": 0, "sl2vl": [0,1,2,3,4,5,6,0,0,0,0,0,0,0,0,0]}"#,
        ),
        Some(r#"{"prefix": "qos_sw0_", "high": [{"class": "BK", "weight": 1}], "high_limit": 1}"#),
    ];
    for (i, fabric) in fabrics.iter().enumerate() {
        let mut text = qoslab_core::design::MULTIMEDIA_VECTOR
            .replace(r#""dtable""#, r#""infiniband""#)
            .replace(r#""w": 2, "k": 0.5"#, r#""w": null, "k": null"#);
        if let Some(f) = fabric {
            text = text.replacen('{', &format!("{{\"fabric\": {f},"), 1);
        }
        let d =
            qoslab_core::design::design(&qoslab_core::design::parse_requirements(&text).unwrap())
                .unwrap();
        let file = export_file(&d).unwrap();
        assert!(file.contains("\nqos TRUE\n"), "{file}");
        let name = format!("complete{i}");
        let Some(outcome) = run_opensm(&name, &file) else {
            return;
        };
        assert!(
            outcome.problems.is_empty(),
            "{name}: {:?}",
            outcome.problems
        );
        let names: Vec<String> = d.classes.iter().map(|c| c.name.clone()).collect();
        let (table, back) = import_design(&outcome.dump, &names).unwrap();
        assert_eq!(table, d.table, "{name}");
        assert_eq!(Some(back), d.fabric, "{name}");
    }
}
