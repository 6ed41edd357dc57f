//! OpenSM QoS options (`shared/spec/20-table-design.md`, section 4): a typed model of the
//! `qos_*` lines of an OpenSM options file, export to and import from that syntax, lints for
//! OpenSM's silent traps, and conversions to and from [`IbaConfig`]. See `docs/opensm.md`.
//!
//! One [`OpenSmQos`] holds the options of one target prefix (`qos_`, `qos_ca_`, `qos_rtr_`,
//! `qos_sw0_`, `qos_swe_`); an unset option is `None` (OpenSM then falls back to the plain
//! `qos_` value or its built-in default).

mod convert;
mod design_io;
mod lint;
mod parse;

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use convert::{from_iba, to_iba};
pub use design_io::{export_file, from_design, import_design};
pub use lint::{lint, lint_with_mtu};
pub use parse::{parse, parse_with_mtu};

/// Entries OpenSM keeps per VL arbitration table (two blocks of 32); the rest are dropped.
pub const MAX_VLARB_ENTRIES: usize = 64;

/// Bytes per VL arbitration weight unit.
pub const WEIGHT_UNIT_BYTES: u32 = 64;

/// Longest options text imported, in bytes (1 MiB; OpenSM's own files are a few kB).
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// Most errors one import reports; it stops reading after them.
pub const MAX_ERRORS: usize = 100;

/// The values `max_vls` may take (1, 2, 4, 8 or 15 operational VLs).
pub const MAX_VLS_VALUES: [u8; 5] = [1, 2, 4, 8, 15];

/// The target type an option applies to (the prefix of its name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
pub enum Prefix {
    /// `qos_`: defaults for every target type.
    #[serde(rename = "qos_")]
    Plain,
    /// `qos_ca_`: channel adapters.
    #[serde(rename = "qos_ca_")]
    Ca,
    /// `qos_rtr_`: routers.
    #[serde(rename = "qos_rtr_")]
    Rtr,
    /// `qos_sw0_`: switch port 0.
    #[serde(rename = "qos_sw0_")]
    Sw0,
    /// `qos_swe_`: switch external ports.
    #[serde(rename = "qos_swe_")]
    Swe,
}

impl Prefix {
    /// Every prefix, in the order OpenSM documents them.
    pub const ALL: [Prefix; 5] = [
        Prefix::Plain,
        Prefix::Ca,
        Prefix::Rtr,
        Prefix::Sw0,
        Prefix::Swe,
    ];

    /// The prefix as written in option names (`qos_swe_`).
    pub fn as_str(self) -> &'static str {
        match self {
            Prefix::Plain => "qos_",
            Prefix::Ca => "qos_ca_",
            Prefix::Rtr => "qos_rtr_",
            Prefix::Sw0 => "qos_sw0_",
            Prefix::Swe => "qos_swe_",
        }
    }
}

/// One `VL:weight` entry of a VL arbitration list.
pub type VlWeight = (u8, u8);

/// The QoS options of one target prefix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct OpenSmQos {
    /// Which target type.
    pub prefix: Prefix,
    /// `max_vls`: operational VLs (1, 2, 4, 8 or 15).
    pub max_vls: Option<u8>,
    /// `high_limit`: 0 to 255, in 4 KiB units; 255 = unbounded.
    pub high_limit: Option<u8>,
    /// `vlarb_high`: `(VL, weight)` entries of the high-priority table.
    pub vlarb_high: Option<Vec<VlWeight>>,
    /// `vlarb_low`: `(VL, weight)` entries of the low-priority table.
    pub vlarb_low: Option<Vec<VlWeight>>,
    /// `sl2vl`: the VL of each SL 0 to 15 (VL 15 = drop the SL).
    #[ts(type = "number[] | null")]
    pub sl2vl: Option<[u8; 16]>,
}

impl OpenSmQos {
    /// A prefix with no option set.
    pub fn empty(prefix: Prefix) -> OpenSmQos {
        OpenSmQos {
            prefix,
            max_vls: None,
            high_limit: None,
            vlarb_high: None,
            vlarb_low: None,
            sl2vl: None,
        }
    }
}

/// The five options of a prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opt {
    MaxVls,
    HighLimit,
    VlarbHigh,
    VlarbLow,
    Sl2vl,
}

impl Opt {
    const ALL: [Opt; 5] = [
        Opt::MaxVls,
        Opt::HighLimit,
        Opt::VlarbHigh,
        Opt::VlarbLow,
        Opt::Sl2vl,
    ];

    fn suffix(self) -> &'static str {
        match self {
            Opt::MaxVls => "max_vls",
            Opt::HighLimit => "high_limit",
            Opt::VlarbHigh => "vlarb_high",
            Opt::VlarbLow => "vlarb_low",
            Opt::Sl2vl => "sl2vl",
        }
    }

    fn index(self) -> usize {
        match self {
            Opt::MaxVls => 0,
            Opt::HighLimit => 1,
            Opt::VlarbHigh => 2,
            Opt::VlarbLow => 3,
            Opt::Sl2vl => 4,
        }
    }
}

/// Which silent trap a [`Lint`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
pub enum LintKind {
    /// VL 15 in a vlarb list: OpenSM takes the VL modulo 15, so the entry serves VL 0.
    Vl15InVlarb,
    /// More than 64 entries in a vlarb list: OpenSM drops the extra.
    TooManyEntries,
    /// A non-zero weight below one MTU: every turn still sends a whole packet.
    WeightBelowMtu,
    /// `high_limit 255` with a low table: the low table can starve.
    HighLimitStarvation,
    /// A VL at or above `max_vls` in a vlarb list or in `sl2vl`.
    VlAboveMaxVls,
}

/// A warning: the options are valid, but OpenSM will not do what they seem to say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct Lint {
    /// Which trap.
    pub kind: LintKind,
    /// Where: `line 3 (qos_swe_vlarb_low), entry 5` (without `line N` when linting a model).
    pub path: String,
    /// What OpenSM will do, in words.
    pub message: String,
}

/// What reading OpenSM lines gives (the wasm `opensm_parse`): the options of each prefix
/// that sets any, and the silent traps found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
pub struct OpenSmParsed {
    /// The options per prefix, in the order of [`parse`].
    pub prefixes: Vec<OpenSmQos>,
    /// The warnings.
    pub lints: Vec<Lint>,
}

/// The option lines of `qos`, one per set option, in the order `max_vls`, `high_limit`,
/// `vlarb_high`, `vlarb_low`, `sl2vl`, each ending in a newline.
pub fn to_lines(qos: &OpenSmQos) -> String {
    let p = qos.prefix.as_str();
    let mut out = String::new();
    // An empty table is written as one entry of weight 0 (skipped by the arbiter): OpenSM
    // and this importer read an empty value as a missing one.
    let vlarb = |list: &[VlWeight]| {
        if list.is_empty() {
            return "0:0".to_string();
        }
        list.iter()
            .map(|(vl, w)| format!("{vl}:{w}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    if let Some(v) = qos.max_vls {
        let _ = writeln!(out, "{p}max_vls {v}");
    }
    if let Some(v) = qos.high_limit {
        let _ = writeln!(out, "{p}high_limit {v}");
    }
    if let Some(list) = &qos.vlarb_high {
        let _ = writeln!(out, "{p}vlarb_high {}", vlarb(list));
    }
    if let Some(list) = &qos.vlarb_low {
        let _ = writeln!(out, "{p}vlarb_low {}", vlarb(list));
    }
    if let Some(map) = &qos.sl2vl {
        let values: Vec<String> = map.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "{p}sl2vl {}", values.join(","));
    }
    out
}

/// The lines of several prefixes, in order.
pub fn to_file(qos: &[OpenSmQos]) -> String {
    qos.iter().map(to_lines).collect()
}
