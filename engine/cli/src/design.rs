//! `qoslab design`: requirements (JSON) to an arbitration-table design
//! (`docs/table-design.md`).

use std::path::Path;
use std::process::ExitCode;

use qoslab_core::design::{self, opensm};

/// Output formats of `qoslab design`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DesignFormat {
    /// The design as pretty JSON.
    Json,
    /// OpenSM `qos_*` option lines (InfiniBand designs only).
    Opensm,
}

/// Reads, validates and designs; prints the design on stdout.
pub fn run(path: &Path, format: DesignFormat) -> ExitCode {
    let text = match super::read(path) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let designed = design::parse_requirements(&text).and_then(|r| design::design(&r));
    match (designed, format) {
        (Ok(d), DesignFormat::Json) => super::emit(None, &d.to_json_pretty()),
        (Ok(d), DesignFormat::Opensm) => match opensm::export_file(&d) {
            Ok(text) => super::emit(None, text.trim_end()),
            Err(e) => super::report_invalid(path, &e),
        },
        (Err(e), _) => super::report_invalid(path, &e),
    }
}
