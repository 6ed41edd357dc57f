//! `qoslab design`: requirements (JSON) to an arbitration-table design
//! (`docs/table-design.md`), printed as JSON or as a fabric manager's configuration
//! (`docs/opensm.md`, `docs/omnipath.md`).

use std::path::Path;
use std::process::ExitCode;

use qoslab_core::design::{self, Design, ets, opafm, opensm};
use qoslab_core::error::EngineError;

/// Output formats of `qoslab design`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DesignFormat {
    /// The design as pretty JSON.
    Json,
    /// A complete OpenSM QoS configuration (`qos TRUE` and the `qos_*` lines; InfiniBand
    /// designs only).
    Opensm,
    /// A complete Omni-Path fabric manager configuration (`opafm.xml`).
    Opafm,
    /// The QOSGroups and VirtualFabrics elements of an `opafm.xml`.
    OpafmFragment,
    /// A Linux `tc qdisc ... ets` command line (DRR quanta, strict bands, priomap).
    Ets,
}

/// The text of `design` in `format`.
pub fn export(design: &Design, format: DesignFormat) -> Result<String, EngineError> {
    match format {
        DesignFormat::Json => Ok(design.to_json_pretty()),
        DesignFormat::Opensm => opensm::export_file(design),
        DesignFormat::Opafm => opafm::export_complete(design),
        DesignFormat::OpafmFragment => opafm::export_fragment(design),
        DesignFormat::Ets => ets::command(design),
    }
}

/// Reads, validates and designs; prints the design on stdout.
pub fn run(path: &Path, format: DesignFormat) -> ExitCode {
    let text = match super::read(path) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let exported = design::parse_requirements(&text)
        .and_then(|r| design::design(&r))
        .and_then(|d| export(&d, format));
    match exported {
        Ok(text) => super::emit(None, text.trim_end()),
        Err(e) => super::report_invalid(path, &e),
    }
}
