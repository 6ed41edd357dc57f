//! `qoslab merge DIR`: the sweep of a job array written by `qoslab sweep --slurm DIR`.
//!
//! Reads `manifest.json`, then each task's `results/NNNN.json` (or `results/NNNN.failed`),
//! names every task that is missing, failed, holds the wrong run or duplicates another
//! task's result, and prints the sweep through the same code as a local sweep
//! ([`crate::sweep::emit_sweep`]): the results read back are exactly the runs' results
//! (see `RunResults::from_json`), so the JSON is byte for byte the local sweep's.

use std::collections::HashMap;
use std::path::Path;
use std::process::ExitCode;

use qoslab_core::RunResults;

use crate::slurm::{FORMAT, Manifest, Task, stem};
use crate::{fail, printable};

/// Longest failure message quoted from a `.failed` record.
const MAX_MESSAGE_CHARS: usize = 400;

/// Why a task cannot be merged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Missing,
    Failed,
    Duplicate,
    Wrong,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Missing => "missing",
            Kind::Failed => "failed",
            Kind::Duplicate => "duplicate",
            Kind::Wrong => "wrong result",
        }
    }
}

struct Problem {
    task: usize,
    kind: Kind,
    detail: String,
}

/// Merges `dir`; with `partial`, what is there (with warnings) instead of refusing.
pub fn merge(dir: &Path, partial: bool, output: Option<&Path>) -> ExitCode {
    let manifest = match read_manifest(dir) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let (mut problems, tasks) = index_tasks(&manifest);
    let mut results: Vec<Option<RunResults>> = Vec::with_capacity(tasks.len());
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (i, task) in tasks.iter().enumerate() {
        let Some(task) = task else {
            results.push(None);
            continue;
        };
        match read_result(dir, &manifest, task, &mut seen) {
            Ok(r) => results.push(Some(r)),
            Err((kind, detail)) => {
                problems.push(Problem {
                    task: i,
                    kind,
                    detail,
                });
                results.push(None);
            }
        }
    }
    problems.sort_by_key(|p| p.task);
    let describe = |p: &Problem| match tasks.get(p.task).and_then(|t| t.as_ref()) {
        Some(t) => format!(
            "task {} (load {}, seed {}) {}: {}",
            p.task,
            t.load,
            t.seed,
            p.kind.word(),
            p.detail
        ),
        None => format!("task {} {}: {}", p.task, p.kind.word(), p.detail),
    };
    if !problems.is_empty() && !partial {
        for p in &problems {
            eprintln!("qoslab: {}", printable(&describe(p)));
        }
        let mut rerun: Vec<usize> = problems.iter().map(|p| p.task).collect();
        rerun.dedup();
        return fail(
            2,
            &format!(
                "{}: {} of {} tasks cannot be merged ({}); rerun them with `sbatch --array={} {}`, or merge the others with --partial",
                dir.display(),
                rerun.len(),
                tasks.len(),
                counts(&problems),
                ranges(&rerun),
                dir.join("job.sh").display()
            ),
        );
    }
    for p in &problems {
        eprintln!("qoslab: warning: {}", printable(&describe(p)));
    }
    let seeds = manifest.seeds as usize;
    let mut points = Vec::new();
    for (l, &load) in manifest.loads.iter().enumerate() {
        let runs: Vec<RunResults> = results[l * seeds..(l + 1) * seeds]
            .iter()
            .flatten()
            .cloned()
            .collect();
        if runs.is_empty() {
            eprintln!("qoslab: warning: load {load} has no result and is left out");
        } else {
            points.push((load, runs));
        }
    }
    if points.is_empty() {
        return fail(
            2,
            &format!(
                "{}: no task has a result yet: nothing to merge",
                dir.display()
            ),
        );
    }
    if !problems.is_empty() {
        let merged: usize = points.iter().map(|(_, r)| r.len()).sum();
        eprintln!(
            "qoslab: warning: --partial: merged {merged} of {} runs; the points with fewer runs are not those of the full sweep",
            tasks.len()
        );
    }
    crate::sweep::emit_sweep(
        &manifest.scenario,
        points,
        output,
        qoslab_core::sweep::Axis::Load,
    )
}

/// Reads and checks `dir/manifest.json`.
fn read_manifest(dir: &Path) -> Result<Manifest, ExitCode> {
    let path = dir.join("manifest.json");
    if !path.is_file() {
        return Err(fail(
            2,
            &format!(
                "{}: no such file: {} is not a folder written by `qoslab sweep --slurm`",
                path.display(),
                dir.display()
            ),
        ));
    }
    let text = crate::read(&path)?;
    let de = &mut serde_json::Deserializer::from_str(qoslab_core::text::strip_bom(&text));
    let m: Manifest = serde_path_to_error::deserialize(de).map_err(|e| {
        let at = e.path().to_string();
        let at = if at == "." {
            String::new()
        } else {
            format!("{at}: ")
        };
        fail(2, &format!("{}: {at}{}", path.display(), e.inner()))
    })?;
    let bad = |field: &str, rule: String| fail(2, &format!("{}: {field}: {rule}", path.display()));
    if m.format != FORMAT {
        return Err(bad(
            "format",
            format!(
                "must be {FORMAT:?} (got {:?}): written by another qoslab version",
                m.format
            ),
        ));
    }
    if m.loads.is_empty() {
        return Err(bad("loads", "must list at least one load".to_string()));
    }
    if m.seeds == 0 {
        return Err(bad("seeds", "must be at least 1".to_string()));
    }
    let want = m.loads.len() * m.seeds as usize;
    if m.tasks.len() != want {
        return Err(bad(
            "tasks",
            format!(
                "must list loads x seeds = {} x {} = {want} tasks (lists {})",
                m.loads.len(),
                m.seeds,
                m.tasks.len()
            ),
        ));
    }
    for (p, t) in m.tasks.iter().enumerate() {
        if t.task >= want {
            return Err(bad(
                &format!("tasks[{p}].task"),
                format!("must be below the number of tasks, {want} (got {})", t.task),
            ));
        }
        let load = m.loads[t.task / m.seeds as usize];
        if t.load.to_bits() != load.to_bits() {
            return Err(bad(
                &format!("tasks[{p}].load"),
                format!(
                    "task {} belongs to load {load} (loads[{}]), not {}",
                    t.task,
                    t.task / m.seeds as usize,
                    t.load
                ),
            ));
        }
    }
    Ok(m)
}

/// The manifest's task of each index (`None` when it is not listed), and the tasks that
/// are listed twice or repeat another task's load and seed.
fn index_tasks(m: &Manifest) -> (Vec<Problem>, Vec<Option<&Task>>) {
    let mut problems = Vec::new();
    let mut by_index: Vec<Option<&Task>> = vec![None; m.tasks.len()];
    let mut runs: HashMap<(u64, u64), usize> = HashMap::new();
    for t in &m.tasks {
        if by_index[t.task].is_some() {
            problems.push(Problem {
                task: t.task,
                kind: Kind::Duplicate,
                detail: "listed twice in manifest.json".to_string(),
            });
            continue;
        }
        if let Some(&other) = runs.get(&(t.load.to_bits(), t.seed)) {
            problems.push(Problem {
                task: t.task,
                kind: Kind::Duplicate,
                detail: format!("the same run as task {other} in manifest.json"),
            });
            continue;
        }
        runs.insert((t.load.to_bits(), t.seed), t.task);
        by_index[t.task] = Some(t);
    }
    for (i, t) in by_index.iter().enumerate() {
        if t.is_none() && !problems.iter().any(|p| p.task == i) {
            problems.push(Problem {
                task: i,
                kind: Kind::Missing,
                detail: "not listed in manifest.json".to_string(),
            });
        }
    }
    (problems, by_index)
}

/// The results of `task`, checked: its own run (scenario, seed, engine) and not a copy of
/// another task's file (`seen`: result text to task).
fn read_result(
    dir: &Path,
    m: &Manifest,
    task: &Task,
    seen: &mut HashMap<String, usize>,
) -> Result<RunResults, (Kind, String)> {
    let name = stem(task.task);
    let result = dir.join("results").join(format!("{name}.json"));
    let failed = dir.join("results").join(format!("{name}.failed"));
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    // A rerun replaces the other file; with both (e.g. copied back by a stage-out), the newer counts.
    if let Some(failed_at) = modified(&failed) {
        if modified(&result).is_none_or(|result_at| result_at <= failed_at) {
            let record = std::fs::read(&failed).unwrap_or_default();
            let text = String::from_utf8_lossy(&record);
            let text = text.trim();
            let short: String = text.chars().take(MAX_MESSAGE_CHARS).collect();
            let more = if short.len() < text.len() { " ..." } else { "" };
            return Err((
                Kind::Failed,
                format!("results/{name}.failed: {short}{more}"),
            ));
        }
    }
    let text = match std::fs::read(&result) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| {
            (
                Kind::Wrong,
                format!("results/{name}.json is not UTF-8 text"),
            )
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err((
                Kind::Missing,
                format!(
                    "no results/{name}.json yet (queued, running, or stopped by Slurm: see logs/*_{}.out)",
                    task.task
                ),
            ));
        }
        Err(e) => {
            return Err((
                Kind::Missing,
                format!("cannot read results/{name}.json: {e}"),
            ));
        }
    };
    let r = RunResults::from_json(&text).map_err(|e| {
        (
            Kind::Wrong,
            format!("results/{name}.json is not the result of a qoslab run: {e}"),
        )
    })?;
    if r.engine != m.engine || r.scenario != m.scenario || r.seed != task.seed {
        return Err((
            Kind::Wrong,
            format!(
                "results/{name}.json holds {:?} seed {} by {}, but the task is {:?} seed {} by {}",
                r.scenario, r.seed, r.engine, m.scenario, task.seed, m.engine
            ),
        ));
    }
    if let Some(&other) = seen.get(&text) {
        return Err((
            Kind::Duplicate,
            format!(
                "results/{name}.json is a copy of results/{}.json (task {other}): the same run stored twice",
                stem(other)
            ),
        ));
    }
    seen.insert(text, task.task);
    Ok(r)
}

/// "1 failed, 2 missing" for the problems' kinds.
fn counts(problems: &[Problem]) -> String {
    [Kind::Failed, Kind::Missing, Kind::Duplicate, Kind::Wrong]
        .iter()
        .filter_map(|&k| {
            let n = problems.iter().filter(|p| p.kind == k).count();
            (n > 0).then(|| format!("{n} {}", k.word()))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Sorted task indices as an sbatch --array list: `1,3-5`.
fn ranges(tasks: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tasks.len() {
        let mut j = i;
        while j + 1 < tasks.len() && tasks[j + 1] == tasks[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            tasks[i].to_string()
        } else {
            format!("{}-{}", tasks[i], tasks[j])
        });
        i = j + 1;
    }
    out.join(",")
}
