//! `qoslab`: the native command-line front end of the qoslab engine.
//!
//! Exit codes: 0 success, 1 I/O or internal failure, 2 invalid input, 3 a run stopped by
//! its run-time budget (see docs/robustness.md), 4 `run --audit` found an invariant broken.

mod bench;
mod compare;
mod design;
mod merge;
mod run;
mod slurm;
mod sweep;
mod typegen;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use qoslab_core::trace::MAX_TRACE_DECISIONS;
use qoslab_core::{EngineError, scenario};

/// The `--axis` of `qoslab sweep`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum AxisArg {
    /// Total offered load (network processor: utilisation U).
    Load,
    /// Streams of a network processor.
    Streams,
    /// Packet size of a network processor, in bytes.
    PacketBytes,
}

impl From<AxisArg> for qoslab_core::sweep::Axis {
    fn from(a: AxisArg) -> Self {
        match a {
            AxisArg::Load => qoslab_core::sweep::Axis::Load,
            AxisArg::Streams => qoslab_core::sweep::Axis::Streams,
            AxisArg::PacketBytes => qoslab_core::sweep::Axis::PacketBytes,
        }
    }
}

/// qoslab: simulate and design Quality-of-Service scheduling in interconnects.
#[derive(Parser, Debug)]
#[command(name = "qoslab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a scenario and print its results as JSON on stdout.
    Run {
        /// Scenario file (JSON).
        scenario: PathBuf,
        /// Override the scenario's seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Override the total offered load (link lab: all class loads scaled in proportion;
        /// network: best-effort classes scaled, QoS classes fixed).
        #[arg(long)]
        load: Option<f64>,
        /// Override the simulated duration, in milliseconds.
        #[arg(long)]
        duration_ms: Option<f64>,
        /// Write the results to this file instead of stdout.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Never show the progress line on stderr.
        #[arg(long)]
        quiet: bool,
        /// Check the model's invariants while it runs (buffer fills against their sizes,
        /// delivery order, duplicates, misdelivery, credits, work conservation) and say on
        /// stderr whether they held; exit with status 4 if any broke. Slower for
        /// networks; the results are the same.
        #[arg(long)]
        audit: bool,
    },
    /// Run a scenario at several total offered loads (and seeds) on all cores; print the
    /// sweep as JSON on stdout. `QOSLAB_THREADS` limits the worker threads.
    Sweep {
        /// Scenario file (JSON).
        scenario: PathBuf,
        /// Total offered loads, comma separated (fractions of the link, e.g. 0.2,0.4,0.6;
        /// for a network processor the utilisation U), or the values of `--axis`.
        #[arg(long, visible_alias = "values", value_delimiter = ',', required = true, num_args = 1..)]
        loads: Vec<f64>,
        /// What the values vary: `load` (default), or for a network-processor scenario
        /// `streams` (streams shared among the groups, same U) or `packet_bytes` (every
        /// packet that size, same U).
        #[arg(long, value_enum, default_value = "load", conflicts_with = "slurm")]
        axis: AxisArg,
        /// Runs per load, with seeds seed, seed + 1, ... (90% confidence intervals need 2+).
        #[arg(long, default_value_t = 1)]
        seeds: u32,
        /// Override the simulated duration, in milliseconds.
        #[arg(long)]
        duration_ms: Option<f64>,
        /// Write the sweep to this file instead of stdout.
        #[arg(long, short, conflicts_with = "slurm")]
        output: Option<PathBuf>,
        /// Never show the progress line on stderr.
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        slurm: slurm::SlurmArgs,
    },
    /// Gather a sweep run as a Slurm job array (`qoslab sweep --slurm DIR`): check that
    /// every task left its result and print the same JSON as the local sweep.
    Merge {
        /// The folder written by `qoslab sweep --slurm`.
        dir: PathBuf,
        /// Merge the results that are there, with a warning naming the missing or failed
        /// tasks, instead of refusing.
        #[arg(long)]
        partial: bool,
        /// Write the sweep to this file instead of stdout.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Run two or more scenarios with the same classes and print each class's delay
    /// (mean, maximum, standard deviation) side by side, e.g. R6: PCFQ against separate
    /// WFQ per category.
    Compare {
        /// Scenario files (JSON), two or more.
        #[arg(required = true, num_args = 2..)]
        scenarios: Vec<PathBuf>,
        /// Override the scenarios' seed.
        #[arg(long)]
        seed: Option<u64>,
        /// Override the simulated duration, in milliseconds.
        #[arg(long)]
        duration_ms: Option<f64>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Trace the scheduler's first decisions and print them as JSON (a network processor:
    /// its dispatches, explained in words).
    Trace {
        /// Scenario file (JSON).
        scenario: PathBuf,
        /// Number of decisions to record (1 to 10000).
        #[arg(long, default_value_t = 50)]
        decisions: u32,
        /// Start with the first decision at or after this time, in microseconds.
        #[arg(long, default_value_t = 0)]
        from_us: u64,
    },
    /// Check a scenario; print every problem and exit with status 2 if there is any.
    Validate {
        /// Scenario file (JSON).
        scenario: PathBuf,
    },
    /// Design an arbitration table from requirements (JSON) and print it; exit with
    /// status 2 naming every problem if the requirements are invalid or cannot be met.
    Design {
        /// Requirements file (JSON).
        requirements: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = design::DesignFormat::Json)]
        format: design::DesignFormat,
    },
    /// Print the JSON Schema of the scenario format.
    Schema,
    /// Run the standard benchmark set (link lab, R2 at 10 ms and at 100 ms, the
    /// 64-end-point uniform scenarios shared with BookSim2, MINs of 1 024 and 4 096 end
    /// points, R3's 8x8x8 torus of 2 048 end points) and print events/s, packet-hops/s,
    /// ns per event and peak memory per scenario.
    Bench {
        /// Only the scenarios whose name contains one of these (e.g. `--only min64`).
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// A tenth of each run (a smoke test, not a measurement).
        #[arg(long)]
        quick: bool,
        /// Run the chosen scenarios this many times, round after round, and report each
        /// one's median run with its fastest and slowest (progress on standard error).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=100))]
        repeat: u16,
        /// `A/B`: also report scenario A's ns per event over scenario B's, the median of
        /// the rounds' ratios with its range (both must be chosen, e.g. `--only
        /// min64-0.5,min1024 --ratio min1024/min64-0.5`).
        #[arg(long, value_name = "A/B")]
        ratio: Option<String>,
    },
    /// (Developers) Regenerate the TypeScript types and JSON Schema from the Rust types.
    #[command(hide = true)]
    GenTypes {
        /// Directory for the TypeScript files.
        #[arg(long)]
        ts_dir: PathBuf,
        /// Path of the JSON Schema file.
        #[arg(long)]
        schema: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run {
            scenario,
            seed,
            load,
            duration_ms,
            output,
            quiet,
            audit,
        } => {
            let overrides = Overrides {
                seed,
                load,
                duration_ms,
            };
            run::run(&scenario, &overrides, output.as_deref(), quiet, audit)
        }
        Command::Sweep {
            scenario,
            loads,
            seeds,
            duration_ms,
            output,
            quiet,
            slurm,
            axis,
        } => {
            let overrides = Overrides {
                seed: None,
                load: None,
                duration_ms,
            };
            let parsed = parse_scenario(&scenario, &overrides).and_then(|s| {
                sweep::Plan::new(&scenario, &s, &loads, seeds, axis.into()).map(|plan| (s, plan))
            });
            match (parsed, &slurm.slurm) {
                (Err(code), _) => code,
                (Ok((s, plan)), None) => sweep::sweep(&s, &plan, &loads, output.as_deref(), quiet),
                (Ok((s, plan)), Some(dir)) => {
                    let sweep = slurm::Sweep {
                        source: &scenario,
                        scenario: &s,
                        plan: &plan,
                        loads: &loads,
                        seeds,
                        duration_ms,
                    };
                    slurm::write(dir, &sweep, &slurm)
                }
            }
        }
        Command::Merge {
            dir,
            partial,
            output,
        } => merge::merge(&dir, partial, output.as_deref()),
        Command::Compare {
            scenarios,
            seed,
            duration_ms,
            json,
        } => compare::compare(&scenarios, seed, duration_ms, json),
        Command::Trace {
            scenario,
            decisions,
            from_us,
        } => trace(&scenario, decisions, from_us),
        Command::Validate { scenario } => validate(&scenario),
        Command::Design {
            requirements,
            format,
        } => design::run(&requirements, format),
        Command::Bench {
            only,
            json,
            quick,
            repeat,
            ratio,
        } => bench::bench(&bench::BenchOptions {
            only,
            json,
            quick,
            repeat: usize::from(repeat),
            ratio,
        }),
        Command::Schema => {
            println!("{:#}", qoslab_core::Scenario::json_schema());
            ExitCode::SUCCESS
        }
        Command::GenTypes { ts_dir, schema } => match typegen::write(&ts_dir, &schema) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(1, &format!("cannot write generated types: {e}")),
        },
    }
}

/// Changes to a scenario asked for on the command line.
#[derive(Debug, Default)]
struct Overrides {
    seed: Option<u64>,
    load: Option<f64>,
    duration_ms: Option<f64>,
}

pub(crate) fn fail(code: u8, message: &str) -> ExitCode {
    eprintln!("qoslab: {}", printable(message));
    ExitCode::from(code)
}

/// `text` safe to print on a terminal: control characters (escape sequences) and the
/// invisible bidirectional controls are shown escaped (`\u{1b}`), never sent as they are.
pub(crate) fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            let bidi = matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
            if (c.is_control() && c != '\n') || bidi {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Reads a text file: an I/O failure exits with 1, text that is not UTF-8 with 2 and the
/// position of the first bad byte.
fn read(path: &Path) -> Result<String, ExitCode> {
    let bytes = std::fs::read(path)
        .map_err(|e| fail(1, &format!("cannot read {}: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
        fail(
            2,
            &format!(
                "{}: not UTF-8 text (line {line}, column {column}, byte {at}): save the file as UTF-8",
                path.display()
            ),
        )
    })
}

/// Writes `text` (plus a newline) to `output`, or stdout.
fn emit(output: Option<&Path>, text: &str) -> ExitCode {
    match output {
        Some(file) => match write_atomically(file, &format!("{text}\n")) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(1, &format!("cannot write {}: {e}", file.display())),
        },
        None => {
            let mut out = std::io::stdout().lock();
            match writeln!(out, "{text}") {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(1, &format!("cannot write results: {e}")),
            }
        }
    }
}

/// Writes `file` so that a reader sees either its old content or all of `text`, never part
/// of it: the text goes to a temporary file in the same folder, which is then renamed
/// (a Slurm task that is killed mid-write leaves no truncated result). A path that exists
/// and is not a regular file (`/dev/null`, a FIFO, a symbolic link) is written in place:
/// renaming over it would replace the device, pipe or link with a file.
pub(crate) fn write_atomically(file: &Path, text: &str) -> std::io::Result<()> {
    if writes_in_place(file) {
        return std::fs::write(file, text);
    }
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = file.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let written = std::fs::write(&temp, text).and_then(|()| std::fs::rename(&temp, file));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// Whether `file` exists and is something other than a regular file.
fn writes_in_place(file: &Path) -> bool {
    std::fs::symlink_metadata(file).is_ok_and(|m| !m.file_type().is_file())
}

fn report_invalid(path: &Path, e: &EngineError) -> ExitCode {
    match e {
        EngineError::Invalid { errors } => {
            for err in errors {
                eprintln!("{}: {}", path.display(), printable(&err.to_string()));
            }
        }
        other => eprintln!("{}: {}", path.display(), printable(&other.to_string())),
    }
    ExitCode::from(2)
}

/// Makes `s` simulate `us` µs (at least 1), the warm-up keeping its share of the run.
pub(crate) fn set_duration_us(s: &mut qoslab_core::Scenario, us: u64) {
    let share = s.warmup_us as f64 / s.duration_us.max(1) as f64;
    s.warmup_us = ((us as f64 * share).floor() as u64).min(us.saturating_sub(1));
    s.duration_us = us;
}

fn parse_scenario(path: &Path, overrides: &Overrides) -> Result<qoslab_core::Scenario, ExitCode> {
    let text = read(path)?;
    let mut s = scenario::parse_unvalidated(&text).map_err(|e| report_invalid(path, &e))?;
    if let Some(seed) = overrides.seed {
        s.seed = seed;
    }
    if let Some(ms) = overrides.duration_ms {
        let us = ms * 1000.0;
        let max_ms = scenario::MAX_DURATION_US / 1000;
        if !(us.is_finite() && us >= 1.0 && us <= scenario::MAX_DURATION_US as f64) {
            return Err(fail(
                2,
                &format!("--duration-ms must be between 0.001 and {max_ms} ms (got {ms})"),
            ));
        }
        set_duration_us(&mut s, us.round() as u64);
    }
    scenario::validate(&s).map_err(|e| report_invalid(path, &e))?;
    if let Some(load) = overrides.load {
        s = qoslab_core::sweep::at_load(&s, load).map_err(|e| report_invalid(path, &e))?;
    }
    Ok(s)
}

fn trace(path: &Path, decisions: u32, from_us: u64) -> ExitCode {
    if !(1..=MAX_TRACE_DECISIONS).contains(&decisions) {
        return fail(
            2,
            &format!("--decisions must be between 1 and {MAX_TRACE_DECISIONS} (got {decisions})"),
        );
    }
    let scenario = match parse_scenario(path, &Overrides::default()) {
        Ok(s) => s,
        Err(code) => return code,
    };
    if matches!(scenario.model, scenario::Model::NetworkProcessor(_)) {
        return match qoslab_core::np::trace::trace(scenario, decisions, from_us) {
            Ok(t) => emit(None, &t.to_json_pretty()),
            Err(e) => report_invalid(path, &e),
        };
    }
    match qoslab_core::trace::trace(scenario, decisions, from_us) {
        Ok(t) => emit(None, &t.to_json_pretty()),
        Err(e) => report_invalid(path, &e),
    }
}

fn validate(path: &Path) -> ExitCode {
    match parse_scenario(path, &Overrides::default()) {
        Ok(s) => {
            println!("{}: valid ({})", path.display(), printable(&s.name));
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}
