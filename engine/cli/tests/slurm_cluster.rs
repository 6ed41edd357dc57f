//! `qoslab sweep --slurm` on a real single-node Slurm cluster (`scripts/slurm-local.sh`:
//! munged, slurmctld and slurmd from Debian's `slurm-wlm` and `munge`, all files in a
//! temporary folder, stopped by their pid files when the test ends, passed or not).
//!
//! - An R2 sweep of 2 loads x 2 seeds (1 ms simulated) submitted with `sbatch --wait` and
//!   merged is byte-identical to the local `qoslab sweep` with the same arguments.
//! - A task whose scenario file the test corrupted is named by `qoslab merge`.
//! - A link-lab sweep submitted by `qoslab sweep --submit` merges to the local sweep too.
//!
//! Skip or fail: without root or without the packages the test prints `SKIP` and passes,
//! unless `QOSLAB_REQUIRE_SLURM` is set (`npm test` sets it after `scripts/setup.mjs --test`
//! installed the packages), then it fails. Every wait has a deadline (cluster start 60 s,
//! each job array 120 s).

#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::qoslab;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn preset(name: &str) -> String {
    repo()
        .join(format!("public/presets/{name}.json"))
        .to_str()
        .unwrap()
        .to_string()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Why this machine cannot run the cluster, if it cannot.
fn missing_requirement() -> Option<String> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| text(&o.stdout).trim() == "0");
    if !root.unwrap_or(false) {
        return Some("not root (slurmd must run as root)".to_string());
    }
    [
        "/usr/sbin/slurmctld",
        "/usr/sbin/slurmd",
        "/usr/bin/sbatch",
        "/usr/sbin/munged",
        "/usr/sbin/mungekey",
    ]
    .iter()
    .find(|p| !Path::new(p).is_file())
    .map(|p| format!("{p} not installed (apt-get install slurm-wlm munge)"))
}

/// Runs `cmd`, killing it after `limit`; its output.
fn run_with_deadline(cmd: &mut Command, limit: Duration, what: &str) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{what}: no answer within {limit:?}; stderr: {}",
                text(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// The running cluster; dropping it stops the daemons (also when the test panics).
struct Cluster {
    dir: PathBuf,
}

impl Cluster {
    fn start() -> Cluster {
        let dir = std::env::temp_dir().join(format!("qoslab-slurm-cluster-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cluster = Cluster { dir };
        let out = run_with_deadline(
            Command::new("bash")
                .arg(repo().join("scripts/slurm-local.sh"))
                .arg("start")
                .arg(&cluster.dir),
            Duration::from_secs(90),
            "scripts/slurm-local.sh start",
        );
        assert!(
            out.status.success(),
            "the cluster did not start:\n{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        cluster
    }

    fn conf(&self) -> PathBuf {
        self.dir.join("slurm.conf")
    }

    /// A Slurm client command talking to this cluster.
    fn client(&self, tool: &str) -> Command {
        let mut cmd = Command::new(tool);
        cmd.env("SLURM_CONF", self.conf());
        cmd
    }

    /// Waits until job `id` has left the queue.
    fn wait_for(&self, id: &str) {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let out = run_with_deadline(
                self.client("squeue").args(["-h", "-j", id, "-o", "%i %T"]),
                Duration::from_secs(30),
                "squeue",
            );
            if out.status.success() && text(&out.stdout).trim().is_empty() {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "job {id} still queued after 120 s: {}",
                text(&out.stdout)
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new("scancel")
            .env("SLURM_CONF", self.conf())
            .arg("--full")
            .arg("--user=root")
            .status();
        let _ = Command::new("bash")
            .arg(repo().join("scripts/slurm-local.sh"))
            .arg("stop")
            .arg(&self.dir)
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn sweep_args<'a>(scenario: &'a str, loads: &'a str) -> Vec<&'a str> {
    vec![
        "sweep",
        scenario,
        "--loads",
        loads,
        "--seeds",
        "2",
        "--duration-ms",
        "1",
    ]
}

/// Writes the job array; returns the sbatch command `qoslab` printed, as words.
fn write_array(scenario: &str, loads: &str, array: &Path) -> Vec<String> {
    let mut args = sweep_args(scenario, loads);
    args.extend_from_slice(&["--slurm", array.to_str().unwrap()]);
    let out = qoslab(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let command: Vec<String> = text(&out.stdout)
        .split_whitespace()
        .map(String::from)
        .collect();
    assert_eq!(
        command,
        [
            "sbatch".to_string(),
            array.join("job.sh").display().to_string()
        ]
    );
    command
}

/// Runs the printed sbatch command with `--wait` (returns when every task ended).
fn submit_and_wait(cluster: &Cluster, command: &[String]) -> Output {
    run_with_deadline(
        cluster
            .client(&command[0])
            .arg("--wait")
            .args(&command[1..]),
        Duration::from_secs(120),
        "sbatch --wait",
    )
}

fn local_sweep(scenario: &str, loads: &str) -> String {
    let mut args = sweep_args(scenario, loads);
    args.push("--quiet");
    let out = qoslab(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn job_arrays_on_a_single_node_slurm_cluster_merge_to_the_local_sweep() {
    if let Some(why) = missing_requirement() {
        assert!(
            std::env::var_os("QOSLAB_REQUIRE_SLURM").is_none(),
            "QOSLAB_REQUIRE_SLURM is set but the Slurm cluster test cannot run: {why}"
        );
        println!("SKIP: {why}; the single-node Slurm cluster test is skipped");
        return;
    }
    let started = Instant::now();
    let cluster = Cluster::start();
    let work = cluster.dir.join("sweeps");
    let r2 = preset("r2-multimedia-dtable");

    // R2, 2 loads x 2 seeds: merged == local, byte for byte.
    let array = work.join("r2");
    let command = write_array(&r2, "0.8,1.0", &array);
    let out = submit_and_wait(&cluster, &command);
    assert!(
        out.status.success(),
        "sbatch --wait: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let merged = qoslab(["merge", array.to_str().unwrap()]);
    assert!(merged.status.success(), "merge: {}", text(&merged.stderr));
    let local = local_sweep(&r2, "0.8,1.0");
    assert!(
        text(&merged.stdout) == local,
        "the merged R2 sweep differs from the local sweep"
    );
    let json: serde_json::Value = serde_json::from_str(&local).unwrap();
    assert_eq!(json["points"].as_array().unwrap().len(), 2);
    assert!(
        json["points"][1]["classes"][0]["throughput_ci90"].is_number(),
        "confidence intervals missing"
    );

    // A corrupted scenario: the task fails under Slurm and merge names it.
    let array = work.join("r2-broken");
    let command = write_array(&r2, "0.8,1.0", &array);
    std::fs::write(array.join("tasks/0001.json"), "{ \"version\": 1,").unwrap();
    let out = submit_and_wait(&cluster, &command);
    assert!(
        !out.status.success(),
        "sbatch --wait succeeded with a corrupted task"
    );
    let merged = qoslab(["merge", array.to_str().unwrap()]);
    assert_eq!(merged.status.code(), Some(2));
    let err = text(&merged.stderr);
    assert!(
        err.contains("task 1 (load 0.8, seed 2) failed: results/0001.failed: qoslab run exited with status 2:")
            && err.contains("tasks/0001.json: not valid JSON")
            && err.contains("1 of 4 tasks cannot be merged (1 failed)"),
        "merge did not name the failed task:\n{err}"
    );
    let partial = qoslab(["merge", array.to_str().unwrap(), "--partial"]);
    assert!(partial.status.success(), "{}", text(&partial.stderr));
    let json: serde_json::Value = serde_json::from_slice(&partial.stdout).unwrap();
    assert_eq!(json["points"][0]["runs"].as_u64(), Some(1));
    assert_eq!(json["points"][1]["runs"].as_u64(), Some(2));

    // A link lab submitted by qoslab itself (--submit).
    let lab = preset("r1-dtable");
    let array = work.join("r1");
    let mut args = sweep_args(&lab, "0.5,0.9");
    args.extend_from_slice(&["--slurm", array.to_str().unwrap(), "--submit"]);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_qoslab"));
    cmd.args(&args).env("SLURM_CONF", cluster.conf());
    let out = run_with_deadline(&mut cmd, Duration::from_secs(60), "qoslab sweep --submit");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    let id = said
        .trim()
        .strip_prefix("Submitted batch job ")
        .unwrap_or_else(|| panic!("sbatch said {said:?}"));
    cluster.wait_for(id);
    let merged = qoslab(["merge", array.to_str().unwrap()]);
    assert!(merged.status.success(), "merge: {}", text(&merged.stderr));
    assert!(
        text(&merged.stdout) == local_sweep(&lab, "0.5,0.9"),
        "the merged R1 sweep differs from the local sweep"
    );
    println!(
        "single-node Slurm cluster test: {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
