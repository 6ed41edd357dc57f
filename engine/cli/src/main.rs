//! `qoslab`: the native command-line front end of the qoslab engine.
//!
//! Exit codes: 0 success, 1 I/O or internal failure, 2 invalid input.

mod typegen;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};
use qoslab_core::{EngineError, Run, scenario};

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
        /// Write the results to this file instead of stdout.
        #[arg(long, short)]
        output: Option<PathBuf>,
        /// Never show the progress line on stderr.
        #[arg(long)]
        quiet: bool,
    },
    /// Check a scenario; print every problem and exit with status 2 if there is any.
    Validate {
        /// Scenario file (JSON).
        scenario: PathBuf,
    },
    /// Print the JSON Schema of the scenario format.
    Schema,
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
            output,
            quiet,
        } => run(&scenario, seed, output.as_deref(), quiet),
        Command::Validate { scenario } => validate(&scenario),
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

fn fail(code: u8, message: &str) -> ExitCode {
    eprintln!("qoslab: {message}");
    ExitCode::from(code)
}

fn read(path: &Path) -> Result<String, ExitCode> {
    std::fs::read_to_string(path)
        .map_err(|e| fail(1, &format!("cannot read {}: {e}", path.display())))
}

fn report_invalid(path: &Path, e: &EngineError) -> ExitCode {
    match e {
        EngineError::Invalid { errors } => {
            for err in errors {
                eprintln!("{}: {err}", path.display());
            }
        }
        other => eprintln!("{}: {other}", path.display()),
    }
    ExitCode::from(2)
}

fn parse_scenario(path: &Path, seed: Option<u64>) -> Result<qoslab_core::Scenario, ExitCode> {
    let text = read(path)?;
    let mut s = scenario::parse_unvalidated(&text).map_err(|e| report_invalid(path, &e))?;
    if let Some(seed) = seed {
        s.seed = seed;
    }
    scenario::validate(&s).map_err(|e| report_invalid(path, &e))?;
    Ok(s)
}

fn run(path: &Path, seed: Option<u64>, output: Option<&Path>, quiet: bool) -> ExitCode {
    let scenario = match parse_scenario(path, seed) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut run = match Run::new(scenario) {
        Ok(r) => r,
        Err(e) => return report_invalid(path, &e),
    };
    let show_progress = !quiet && std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut last_shown = started;
    while !run.advance(1 << 16) {
        if show_progress && last_shown.elapsed().as_millis() >= 200 {
            last_shown = Instant::now();
            eprint!("\r{:5.1}% simulated", run.progress() * 100.0);
        }
    }
    if show_progress && started.elapsed().as_millis() >= 200 {
        eprintln!(
            "\r100.0% simulated in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    let json = run.results().to_json_pretty();
    match output {
        Some(file) => match std::fs::write(file, json + "\n") {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(1, &format!("cannot write {}: {e}", file.display())),
        },
        None => {
            let mut out = std::io::stdout().lock();
            match writeln!(out, "{json}") {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(1, &format!("cannot write results: {e}")),
            }
        }
    }
}

fn validate(path: &Path) -> ExitCode {
    match parse_scenario(path, None) {
        Ok(s) => {
            println!("{}: valid ({})", path.display(), s.name);
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}
