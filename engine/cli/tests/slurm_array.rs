//! `qoslab sweep --slurm` and `qoslab merge` without a cluster: the job script is run by
//! bash once per task with `SLURM_ARRAY_TASK_ID` set, as Slurm would run it. The merged
//! JSON must be byte-identical to the local sweep (both models); every missing, failed,
//! duplicate or wrong task and every bad option or manifest field is named. The real
//! single-node Slurm cluster is in `slurm_cluster.rs`.

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::qoslab;

fn preset(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../public/presets/{name}.json"));
    p.to_str().unwrap().to_string()
}

/// A fresh folder for one test (the array folder is `<it>/array`, not created).
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("qoslab-slurm-array-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "failed: {}", text(&out.stderr));
    text(&out.stdout)
}

/// Runs task `i` of the job script as Slurm would, with extra environment.
fn run_task(array: &Path, i: usize, env: &[(&str, &str)]) -> Output {
    Command::new("bash")
        .arg(array.join("job.sh"))
        .env("SLURM_ARRAY_TASK_ID", i.to_string())
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

fn write_array(scenario: &str, loads: &str, seeds: &str, array: &Path, extra: &[&str]) {
    let mut args = vec![
        "sweep",
        scenario,
        "--loads",
        loads,
        "--seeds",
        seeds,
        "--duration-ms",
        "1",
    ];
    args.extend_from_slice(&["--slurm", array.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let printed = ok(&qoslab(&args));
    assert_eq!(
        printed,
        format!("sbatch {}\n", array.join("job.sh").display())
    );
}

fn local_sweep(scenario: &str, loads: &str, seeds: &str) -> String {
    ok(&qoslab([
        "sweep",
        scenario,
        "--loads",
        loads,
        "--seeds",
        seeds,
        "--duration-ms",
        "1",
        "--quiet",
    ]))
}

#[test]
fn merged_job_array_is_the_local_sweep_for_both_models() {
    for (name, loads) in [("r1-dtable", "0.5,0.9"), ("r2-multimedia-drr", "0.8,1.0")] {
        let dir = scratch(name);
        let array = dir.join("array");
        write_array(
            &preset(name),
            loads,
            "2",
            &array,
            &["--partition", "debug", "--time", "0:10:00"],
        );
        let script = std::fs::read_to_string(array.join("job.sh")).unwrap();
        for line in [
            "#SBATCH --array=0-3",
            "#SBATCH --partition=debug",
            "#SBATCH --time=0:10:00",
            "#SBATCH --cpus-per-task=1",
        ] {
            assert!(
                script.contains(line),
                "{line} missing from job.sh:\n{script}"
            );
        }
        // Before any task ran: every task is missing.
        let out = qoslab(["merge", array.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("4 of 4 tasks cannot be merged (4 missing)"),
            "{}",
            text(&out.stderr)
        );
        for i in 0..4 {
            let out = run_task(&array, i, &[]);
            assert!(out.status.success(), "task {i}: {}", text(&out.stderr));
        }
        let merged = ok(&qoslab(["merge", array.to_str().unwrap()]));
        assert!(
            merged == local_sweep(&preset(name), loads, "2"),
            "{name}: merged JSON differs from the local sweep"
        );
        // A rerun of a task replaces its result: still the same sweep.
        assert!(run_task(&array, 2, &[]).status.success());
        let out_file = dir.join("merged.json");
        ok(&qoslab([
            "merge",
            array.to_str().unwrap(),
            "-o",
            out_file.to_str().unwrap(),
        ]));
        assert_eq!(std::fs::read_to_string(&out_file).unwrap(), merged);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn merge_names_failed_missing_duplicate_and_wrong_tasks() {
    let dir = scratch("problems");
    let array = dir.join("array");
    let scenario = preset("r1-as-basic");
    write_array(&scenario, "0.4,0.6,0.8", "2", &array, &[]);
    std::fs::write(array.join("tasks/0001.json"), "{\"version\": 1, \"name\": ").unwrap();
    for i in [0, 1, 2, 3, 4] {
        let out = run_task(&array, i, &[]);
        assert_eq!(
            out.status.success(),
            i != 1,
            "task {i}: {}",
            text(&out.stderr)
        );
    }
    // Task 4 (load 0.8, seed 1) gets a copy of task 2's result (load 0.6, seed 1): same seed.
    std::fs::copy(
        array.join("results/0002.json"),
        array.join("results/0004.json"),
    )
    .unwrap();
    // Task 3 (seed 2) gets task 0's result (seed 1).
    std::fs::copy(
        array.join("results/0000.json"),
        array.join("results/0003.json"),
    )
    .unwrap();
    let out = qoslab(["merge", array.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    for want in [
        "task 1 (load 0.4, seed 2) failed: results/0001.failed: qoslab run exited with status 2:",
        "tasks/0001.json: not valid JSON",
        "task 3 (load 0.6, seed 2) wrong result: results/0003.json holds \"R1: AS basic table\" seed 1 by qoslab-core",
        "task 4 (load 0.8, seed 1) duplicate: results/0004.json is a copy of results/0002.json (task 2)",
        "task 5 (load 0.8, seed 2) missing: no results/0005.json yet",
        "4 of 6 tasks cannot be merged (1 failed, 1 missing, 1 duplicate, 1 wrong result)",
        "sbatch --array=1,3-5 ",
    ] {
        assert!(err.contains(want), "{want:?} not in:\n{err}");
    }
    // --partial merges tasks 0 and 2: load 0.8 has none and is left out.
    let out = qoslab(["merge", array.to_str().unwrap(), "--partial"]);
    let json: serde_json::Value = serde_json::from_str(&ok(&out)).unwrap();
    let points = json["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    assert_eq!(
        (points[0]["load"].as_f64(), points[0]["runs"].as_u64()),
        (Some(0.4), Some(1))
    );
    assert_eq!(
        (points[1]["load"].as_f64(), points[1]["runs"].as_u64()),
        (Some(0.6), Some(1))
    );
    let err = text(&out.stderr);
    assert!(
        err.contains("warning: load 0.8 has no result and is left out"),
        "{err}"
    );
    assert!(err.contains("merged 2 of 6 runs"), "{err}");
    // Repaired and rerun, the failed tasks leave no .failed record.
    std::fs::remove_dir_all(&array).unwrap();
    write_array(&scenario, "0.4,0.6,0.8", "2", &array, &[]);
    for i in 0..6 {
        assert!(run_task(&array, i, &[]).status.success());
    }
    assert!(!array.join("results/0001.failed").exists());
    ok(&qoslab(["merge", array.to_str().unwrap()]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stage_in_and_out_hooks_run_a_task_away_from_the_sweep_folder() {
    let dir = scratch("stage");
    let array = dir.join("array");
    let scenario = preset("r1-iba-weighted");
    write_array(&scenario, "0.5", "2", &array, &[]);
    // The "node-local" folder starts empty: the hooks copy the scenario in and the result out.
    let node = dir.join("node");
    let stage_in = format!(
        "mkdir -p \"$QOSLAB_SWEEP_DIR/tasks\" && cp {}/tasks/$QOSLAB_TASK.json \"$QOSLAB_TASK_SCENARIO\"",
        array.display()
    );
    let stage_out = format!("cp \"$QOSLAB_TASK_RESULT\" {}/results/", array.display());
    for i in 0..2 {
        let out = run_task(
            &array,
            i,
            &[
                ("QOSLAB_SWEEP_DIR", node.to_str().unwrap()),
                ("QOSLAB_STAGE_IN", &stage_in),
                ("QOSLAB_STAGE_OUT", &stage_out),
            ],
        );
        assert!(out.status.success(), "task {i}: {}", text(&out.stderr));
        assert!(node.join(format!("results/000{i}.json")).is_file());
    }
    let merged = ok(&qoslab(["merge", array.to_str().unwrap()]));
    assert!(
        merged == local_sweep(&scenario, "0.5", "2"),
        "staged sweep differs from the local one"
    );
    // A failing stage-in is recorded as the task's failure.
    let out = run_task(&array, 1, &[("QOSLAB_STAGE_IN", "false")]);
    assert!(!out.status.success());
    let out = qoslab(["merge", array.to_str().unwrap()]);
    assert!(text(&out.stderr).contains("task 1 (load 0.5, seed 2) failed: results/0001.failed: the stage-in command (QOSLAB_STAGE_IN) failed"), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_and_folders_are_refused_by_name() {
    let dir = scratch("options");
    let scenario = preset("r1-dtable");
    let array = dir.join("array");
    let a = array.to_str().unwrap();
    let cases: [(&[&str], &str); 7] = [
        (
            &["--slurm", a, "--time", "1:2:3:4"],
            "--time 1:2:3:4: not a Slurm time limit",
        ),
        (
            &["--slurm", a, "--time", "0"],
            "--time 0: not a Slurm time limit",
        ),
        (
            &["--slurm", a, "--partition", "a b"],
            "--partition a b: a partition name is",
        ),
        (
            &["--slurm", a, "--cpus", "0"],
            "--cpus must be between 1 and 1024 (got 0)",
        ),
        (&["--partition", "debug"], "--slurm <DIR>"),
        (&["--slurm", a, "-o", "x.json"], "cannot be used with"),
        (
            &["--slurm", &format!("{a} x")],
            "which an #SBATCH line cannot hold",
        ),
    ];
    for (extra, want) in cases {
        let mut args = vec!["sweep", &scenario, "--loads", "0.5"];
        args.extend_from_slice(extra);
        let out = qoslab(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(
            text(&out.stderr).contains(want),
            "{extra:?}: {want:?} not in {}",
            text(&out.stderr)
        );
        assert!(!array.exists(), "{extra:?} wrote the folder");
    }
    for good in [
        "30",
        "1:30",
        "2:00:00",
        "1-0",
        "1-12:30",
        "1-0:0:1",
        "UNLIMITED",
    ] {
        let out = qoslab([
            "sweep", &scenario, "--loads", "0.5", "--slurm", a, "--time", good,
        ]);
        assert!(out.status.success(), "--time {good}: {}", text(&out.stderr));
        std::fs::remove_dir_all(&array).unwrap();
    }
    // A folder that is not empty is refused; so is an invalid load, before anything is written.
    std::fs::create_dir_all(&array).unwrap();
    std::fs::write(array.join("notes.txt"), "mine").unwrap();
    let out = qoslab(["sweep", &scenario, "--loads", "0.5", "--slurm", a]);
    assert!(
        text(&out.stderr).contains("the folder is not empty"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&array).unwrap();
    let out = qoslab(["sweep", &scenario, "--loads", "9", "--slurm", a]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!array.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_broken_manifest_is_named_field_by_field() {
    let dir = scratch("manifest");
    let array = dir.join("array");
    let a = array.to_str().unwrap();
    let out = qoslab(["merge", a]);
    assert!(
        text(&out.stderr).contains("manifest.json: no such file"),
        "{}",
        text(&out.stderr)
    );
    write_array(&preset("r1-dtable"), "0.5,0.7", "2", &array, &[]);
    let good = std::fs::read_to_string(array.join("manifest.json")).unwrap();
    let cases = [
        (
            good.replace("qoslab-slurm-sweep/1", "other/9"),
            "manifest.json: format: must be \"qoslab-slurm-sweep/1\"",
        ),
        (
            good.replace("\"seeds\": 2", "\"seeds\": 3"),
            "manifest.json: tasks: must list loads x seeds = 2 x 3 = 6 tasks (lists 4)",
        ),
        (
            good.replace("\"task\": 3", "\"task\": 9"),
            "manifest.json: tasks[3].task: must be below the number of tasks, 4 (got 9)",
        ),
        (
            good.replacen("\"load\": 0.7", "\"load\": 0.75", 1),
            "manifest.json: tasks[2].load: task 2 belongs to load 0.7 (loads[1]), not 0.75",
        ),
        (
            good.replace("\"seed\": 2", "\"seed\": \"two\""),
            "manifest.json: tasks[1].seed: invalid type",
        ),
        (
            good.replacen("\"task\": 1", "\"task\": 0", 1),
            "task 0 (load 0.5, seed 1) duplicate: listed twice in manifest.json",
        ),
    ];
    for (text_of_manifest, want) in cases {
        std::fs::write(array.join("manifest.json"), &text_of_manifest).unwrap();
        let out = qoslab(["merge", a]);
        assert_eq!(out.status.code(), Some(2), "{want}");
        assert!(
            text(&out.stderr).contains(want),
            "{want:?} not in {}",
            text(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
