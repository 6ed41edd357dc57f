//! `qoslab sweep --slurm DIR`: the sweep as a Slurm job array instead of local threads.
//!
//! DIR receives one fully resolved scenario per run (`tasks/NNNN.json`: the load applied,
//! the run's own seed, the duration), a job-array script (`job.sh`: task `i` of the array
//! runs `qoslab run tasks/NNNN.json` and writes `results/NNNN.json`) and a manifest
//! (`manifest.json`: loads, seeds and what each task is) that `qoslab merge` checks. The
//! runs are those of the local sweep ([`crate::sweep::Plan`]), so merging gives the same
//! JSON. See docs/cluster.md.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use qoslab_core::{Scenario, scenario};
use serde::{Deserialize, Serialize};

use crate::sweep::Plan;
use crate::{fail, write_atomically};

/// The `format` of a manifest this version writes and reads.
pub const FORMAT: &str = "qoslab-slurm-sweep/1";

/// Slurm's default `MaxArraySize` (array indices 0 to 1000).
const DEFAULT_MAX_ARRAY_SIZE: usize = 1001;

/// Most CPUs per task accepted by `--cpus`.
const MAX_CPUS: u32 = 1024;

/// The Slurm options of `qoslab sweep`.
#[derive(clap::Args, Debug)]
pub struct SlurmArgs {
    /// Do not run the sweep: write it into this new (or empty) folder as a Slurm job array
    /// (one scenario per task, job.sh, manifest.json) and print the sbatch command.
    #[arg(long, value_name = "DIR")]
    pub slurm: Option<PathBuf>,
    /// Slurm partition of the tasks (#SBATCH --partition).
    #[arg(long, requires = "slurm")]
    pub partition: Option<String>,
    /// Time limit of each task (#SBATCH --time: minutes, H:MM:SS, D-HH, ...).
    #[arg(long, requires = "slurm")]
    pub time: Option<String>,
    /// CPUs per task (#SBATCH --cpus-per-task; one run uses one, the default).
    #[arg(long, requires = "slurm")]
    pub cpus: Option<u32>,
    /// Submit the job array with sbatch instead of printing the command.
    #[arg(long, requires = "slurm")]
    pub submit: bool,
}

/// What `manifest.json` records: the sweep and each task of the array.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Always [`FORMAT`].
    pub format: String,
    /// The engine that wrote the tasks (`qoslab-core <version>`); results must match it.
    pub engine: String,
    /// The scenario's name (the `scenario` of the sweep JSON).
    pub scenario: String,
    /// The scenario file the sweep was made from (for the record).
    pub source: String,
    /// `--duration-ms`, if given (for the record).
    pub duration_ms: Option<f64>,
    /// `--loads`, in order.
    pub loads: Vec<f64>,
    /// `--seeds`: runs per load.
    pub seeds: u32,
    /// Task `i` is load `loads[i / seeds]` with the `i % seeds`-th seed.
    pub tasks: Vec<Task>,
}

/// One task of the job array.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Index in the array (`SLURM_ARRAY_TASK_ID`).
    pub task: usize,
    /// Total offered load of the run.
    pub load: f64,
    /// Seed of the run.
    pub seed: u64,
}

/// File name stem of task `i`: its index with at least four digits.
pub fn stem(i: usize) -> String {
    format!("{i:04}")
}

/// The sweep to write, as `qoslab sweep` read it.
pub struct Sweep<'a> {
    /// The scenario file named on the command line.
    pub source: &'a Path,
    /// The scenario (with `--duration-ms` applied).
    pub scenario: &'a Scenario,
    /// The checked runs.
    pub plan: &'a Plan,
    /// `--loads`.
    pub loads: &'a [f64],
    /// `--seeds`.
    pub seeds: u32,
    /// `--duration-ms`.
    pub duration_ms: Option<f64>,
}

/// Writes the job array into `dir` and prints the sbatch command (or submits it).
pub fn write(dir: &Path, sweep: &Sweep, args: &SlurmArgs) -> ExitCode {
    match write_dir(dir, sweep, args) {
        Ok(script) => {
            let runs = sweep.plan.runs();
            eprintln!(
                "qoslab: wrote a job array of {runs} tasks ({} loads x {} seeds) to {}; when it is done: qoslab merge {}",
                sweep.loads.len(),
                sweep.seeds,
                dir.display(),
                dir.display()
            );
            if runs > DEFAULT_MAX_ARRAY_SIZE {
                eprintln!(
                    "qoslab: warning: {runs} tasks is more than Slurm's default MaxArraySize of {DEFAULT_MAX_ARRAY_SIZE}; check `scontrol show config | grep MaxArraySize` on your cluster"
                );
            }
            if args.submit {
                submit(&script)
            } else {
                println!("sbatch {}", script.display());
                ExitCode::SUCCESS
            }
        }
        Err((code, message)) => fail(code, &message),
    }
}

/// Runs `sbatch script`, passing on its output and exit status.
fn submit(script: &Path) -> ExitCode {
    match std::process::Command::new("sbatch").arg(script).status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => fail(1, &format!("sbatch {} failed ({status})", script.display())),
        Err(e) => fail(
            1,
            &format!(
                "cannot run sbatch ({e}): is this a Slurm login node? Submit later with: sbatch {}",
                script.display()
            ),
        ),
    }
}

type Failure = (u8, String);

fn io(path: &Path) -> impl Fn(std::io::Error) -> Failure + '_ {
    move |e| (1, format!("cannot write {}: {e}", path.display()))
}

/// Writes tasks/, results/, logs/, manifest.json and job.sh; returns the script's path.
fn write_dir(dir: &Path, sweep: &Sweep, args: &SlurmArgs) -> Result<PathBuf, Failure> {
    check_options(args)?;
    let dir = absolute(dir)?;
    check_path_for_sbatch(&dir)?;
    if dir.exists() {
        let mut entries = std::fs::read_dir(&dir).map_err(|e| {
            (
                1,
                format!("--slurm {}: cannot read the folder: {e}", dir.display()),
            )
        })?;
        if entries.next().is_some() {
            return Err((
                2,
                format!(
                    "--slurm {}: the folder is not empty; give a new or empty folder (one sweep per folder)",
                    dir.display()
                ),
            ));
        }
    }
    for sub in ["tasks", "results", "logs"] {
        let path = dir.join(sub);
        std::fs::create_dir_all(&path).map_err(io(&path))?;
    }
    let mut tasks = Vec::with_capacity(sweep.plan.runs());
    for i in 0..sweep.plan.runs() {
        let run = sweep.plan.run(i);
        let text = run.to_json_pretty();
        // The task must run exactly the local sweep's run: check that it reads back as is.
        if scenario::parse(&text).ok().as_ref() != Some(&run) {
            return Err((
                1,
                format!("internal error: the scenario of task {i} does not read back unchanged"),
            ));
        }
        let path = dir.join("tasks").join(format!("{}.json", stem(i)));
        write_atomically(&path, &format!("{text}\n")).map_err(io(&path))?;
        tasks.push(Task {
            task: i,
            load: sweep.loads[i / sweep.seeds as usize],
            seed: run.seed,
        });
    }
    let manifest = Manifest {
        format: FORMAT.to_string(),
        engine: qoslab_core::ENGINE.to_string(),
        scenario: sweep.scenario.name.clone(),
        source: absolute(sweep.source)?.display().to_string(),
        duration_ms: sweep.duration_ms,
        loads: sweep.loads.to_vec(),
        seeds: sweep.seeds,
        tasks,
    };
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|e| (1, format!("cannot serialise the manifest: {e}")))?;
    let path = dir.join("manifest.json");
    write_atomically(&path, &format!("{text}\n")).map_err(io(&path))?;
    let qoslab = std::env::current_exe()
        .map_err(|e| (1, format!("cannot find the path of the qoslab binary: {e}")))?;
    let script = dir.join("job.sh");
    write_atomically(&script, &job_script(&dir, &qoslab, sweep, args)).map_err(io(&script))?;
    Ok(script)
}

fn absolute(path: &Path) -> Result<PathBuf, Failure> {
    std::path::absolute(path).map_err(|e| (1, format!("{}: {e}", path.display())))
}

/// `#SBATCH --output` cannot quote a path: refuse what it would split or expand.
fn check_path_for_sbatch(dir: &Path) -> Result<(), Failure> {
    let text = dir.to_str().ok_or_else(|| {
        (
            2,
            format!("--slurm {}: the path is not valid UTF-8", dir.display()),
        )
    })?;
    match text
        .chars()
        .find(|&c| c.is_whitespace() || c.is_control() || "%\"'\\$`".contains(c))
    {
        Some(c) => Err((
            2,
            format!(
                "--slurm {}: the path holds {c:?}, which an #SBATCH line cannot hold (no spaces, quotes, backslashes, $, ` or %); choose another folder",
                crate::printable(text)
            ),
        )),
        None => Ok(()),
    }
}

/// Checks `--partition`, `--time` and `--cpus` (they go into #SBATCH lines as they are).
fn check_options(args: &SlurmArgs) -> Result<(), Failure> {
    if let Some(p) = &args.partition {
        let name_ok = |n: &str| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
        };
        if !p.split(',').all(name_ok) {
            return Err((
                2,
                format!(
                    "--partition {}: a partition name is letters, digits, '_', '.' and '-' (several separated by commas)",
                    crate::printable(p)
                ),
            ));
        }
    }
    if let Some(t) = &args.time {
        if !slurm_time_ok(t) {
            return Err((
                2,
                format!(
                    "--time {}: not a Slurm time limit; use minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS (e.g. 30, 2:00:00, 1-0)",
                    crate::printable(t)
                ),
            ));
        }
    }
    if let Some(c) = args.cpus {
        if !(1..=MAX_CPUS).contains(&c) {
            return Err((
                2,
                format!("--cpus must be between 1 and {MAX_CPUS} (got {c})"),
            ));
        }
    }
    Ok(())
}

/// Slurm's time formats: `M`, `M:S`, `H:M:S`, `D-H`, `D-H:M`, `D-H:M:S` (and `UNLIMITED`),
/// with at least one non-zero part.
fn slurm_time_ok(text: &str) -> bool {
    if text == "UNLIMITED" || text == "INFINITE" {
        return true;
    }
    let number = |p: &str| !p.is_empty() && p.len() <= 6 && p.bytes().all(|b| b.is_ascii_digit());
    let (days, rest) = match text.split_once('-') {
        Some((d, rest)) => (Some(d), rest),
        None => (None, text),
    };
    let parts: Vec<&str> = rest.split(':').collect();
    let shape_ok = match days {
        Some(d) => number(d) && (1..=3).contains(&parts.len()),
        None => (1..=3).contains(&parts.len()),
    };
    shape_ok
        && parts.iter().all(|p| number(p))
        && days
            .into_iter()
            .chain(parts.iter().copied())
            .any(|p| p.bytes().any(|b| b != b'0'))
}

/// `text` as one single-quoted shell word.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The job-array script: standard #SBATCH options, task `SLURM_ARRAY_TASK_ID` runs its
/// scenario; see docs/cluster.md for the stage-in/out hooks.
fn job_script(dir: &Path, qoslab: &Path, sweep: &Sweep, args: &SlurmArgs) -> String {
    let runs = sweep.plan.runs();
    let dir_text = dir.display().to_string();
    let mut s = String::new();
    let _ = writeln!(s, "#!/bin/bash");
    let _ = writeln!(
        s,
        "# qoslab sweep of {} as a Slurm job array: {} loads x {} seeds = {runs} tasks.",
        crate::printable(&sweep.scenario.name).replace('\n', " "),
        sweep.loads.len(),
        sweep.seeds
    );
    s.push_str(HEADER);
    let _ = writeln!(s, "#SBATCH --job-name=qoslab-sweep");
    let _ = writeln!(s, "#SBATCH --array=0-{}", runs - 1);
    let _ = writeln!(s, "#SBATCH --ntasks=1");
    let _ = writeln!(s, "#SBATCH --cpus-per-task={}", args.cpus.unwrap_or(1));
    let _ = writeln!(s, "#SBATCH --output={dir_text}/logs/%A_%a.out");
    if let Some(p) = &args.partition {
        let _ = writeln!(s, "#SBATCH --partition={p}");
    }
    if let Some(t) = &args.time {
        let _ = writeln!(s, "#SBATCH --time={t}");
    }
    let _ = writeln!(s, "\nqoslab={}", shell_quote(&qoslab.display().to_string()));
    let _ = writeln!(s, "sweep_dir={}", shell_quote(&dir_text));
    s.push_str(BODY);
    s
}

const HEADER: &str = r#"# Written by `qoslab sweep --slurm` (docs/cluster.md). Submit with `sbatch job.sh`; gather
# with `qoslab merge <this folder>`. Task i runs `qoslab run tasks/NNNN.json` (NNNN = i with
# at least 4 digits) and writes results/NNNN.json atomically, or results/NNNN.failed with
# qoslab's message; rerunning a task (sbatch --array=i job.sh) replaces only its own files.
# Environment: QOSLAB (the qoslab binary) and QOSLAB_SWEEP_DIR (this folder) as seen from
# the compute nodes; QOSLAB_STAGE_IN and QOSLAB_STAGE_OUT, shell commands run before and
# after the task (clusters without a shared file system).
"#;

const BODY: &str = r#"if [ -n "${QOSLAB:-}" ]; then qoslab=$QOSLAB; fi
if [ -n "${QOSLAB_SWEEP_DIR:-}" ]; then sweep_dir=$QOSLAB_SWEEP_DIR; fi
task=${SLURM_ARRAY_TASK_ID:?not a Slurm array task: submit this script with sbatch}
id=$(printf '%04d' "$task")
export QOSLAB_TASK=$id QOSLAB_SWEEP_DIR=$sweep_dir
export QOSLAB_TASK_SCENARIO=$sweep_dir/tasks/$id.json
export QOSLAB_TASK_RESULT=$sweep_dir/results/$id.json
export QOSLAB_TASK_FAILED=$sweep_dir/results/$id.failed

# Records why the task failed (read by qoslab merge) and drops an older result.
record_failure() {
  mkdir -p "$sweep_dir/results" &&
    printf '%s\n' "$1" > "$QOSLAB_TASK_FAILED.tmp.$$" &&
    mv -f "$QOSLAB_TASK_FAILED.tmp.$$" "$QOSLAB_TASK_FAILED"
  rm -f "$QOSLAB_TASK_RESULT"
  printf 'qoslab task %s: %s\n' "$id" "$1" >&2
}

status=0
if [ -n "${QOSLAB_STAGE_IN:-}" ] && ! bash -c "$QOSLAB_STAGE_IN"; then
  status=1
  record_failure "the stage-in command (QOSLAB_STAGE_IN) failed"
else
  mkdir -p "$sweep_dir/results"
  message=$("$qoslab" run "$QOSLAB_TASK_SCENARIO" --quiet --output "$QOSLAB_TASK_RESULT" 2>&1 >/dev/null)
  status=$?
  if [ "$status" -eq 0 ]; then
    rm -f "$QOSLAB_TASK_FAILED"
  else
    record_failure "qoslab run exited with status $status: $message"
  fi
fi
if [ -n "${QOSLAB_STAGE_OUT:-}" ] && ! bash -c "$QOSLAB_STAGE_OUT"; then
  printf 'qoslab task %s: the stage-out command (QOSLAB_STAGE_OUT) failed\n' "$id" >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
"#;
