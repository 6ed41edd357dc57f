//! How a design maps (or does not) onto each technology's arbiter
//! (`shared/spec/20-table-design.md` §4, last paragraph; `docs/table-design.md`, "Mapping a
//! DTable design onto each technology"): whether it fits, how, and what is lost, as data.
//!
//! - **DTable**: as designed (entries, weights, a deficit counter per class, the
//!   accumulated-weight register).
//! - **InfiniBand**: the design as the VLArb low table with an empty high table (what
//!   `--format opensm` exports); standard VLArb has no deficit, so each visit may overshoot
//!   its weight by up to `MTU - 1` credits without being charged. The published mapping that
//!   keeps DTable semantics (entries in the 64 high-priority entries, 16 low-priority entries
//!   as deficit counters plus one as the accumulated-weight register, 47 unused) needs an
//!   arbiter that reads the tables that way; its limits are checked too.
//! - **Omni-Path** (`omnipath_mapping`): no Omni-Path hardware table holds a DTable and the
//!   InfiniBand layout above does not apply; the published adaptation adds a dedicated DTable
//!   next to each output's SL arbiter, with a deficit counter per SL and one
//!   accumulated-weight register per output, counted for the requirements' switch
//!   (`OmniPathDTableLayout`); classes are SLs mapped SL to SC to VL on the data lanes (lane
//!   15 is management; see [`super::omnipath`]).
//! - **AS basic**: no weights; each entry sends one packet, so only entry counts carry
//!   bandwidth: the shares it would give with packets of each class's MTU are reported.

use super::bound::Arbiter;
use super::designed::{Design, TechnologyMapping};
use super::mapping_context::{BYTE_FIELD, Context, IB_TABLE_ENTRIES, TableLimits, mapping};
use super::requirements::Technology;

/// Largest InfiniBand MTU in bytes.
const IB_MAX_MTU_BYTES: u64 = super::requirements::IB_MAX_MTU_BYTES as u64;
/// Low-table entries the published mapping uses as deficit counters.
const IB_DEFICIT_COUNTERS: usize = 16;
/// Tolerance of share comparisons.
const EPS: f64 = 1e-9;

/// The mapping of `d` onto DTable, InfiniBand, Omni-Path and the AS basic table, in that
/// order; the Omni-Path registers are counted for a switch of `switch_ports` ports.
pub fn mappings(d: &Design, switch_ports: u32) -> Vec<TechnologyMapping> {
    let ctx = Context::new(d);
    vec![
        dtable(&ctx),
        infiniband(&ctx),
        super::omnipath_mapping::omnipath(&ctx, switch_ports),
        advanced_switching(&ctx),
    ]
}

fn dtable(ctx: &Context) -> TechnologyMapping {
    let d = ctx.d;
    let tech = Technology::Dtable;
    let mut problems = Vec::new();
    if !ctx.weighted {
        problems.push(ctx.no_weights(tech));
    }
    let n = d.table.len();
    if n > 4096 {
        problems.push(format!("{n} entries: a DTable holds at most 4096."));
    }
    if d.classes.len() > tech.max_classes() {
        problems.push(format!(
            "{} classes: a DTable serves at most {}.",
            d.classes.len(),
            tech.max_classes()
        ));
    }
    let max_deficit = ctx.mtus.iter().copied().max().unwrap_or(1) - 1;
    let details = vec![
        format!(
            "The {n} entries (class, weight in 64-byte credits) load as they are; the arbiter keeps one deficit counter per class ({} counters, each at most its class MTU - 1: here at most {max_deficit} credits) and the accumulated-weight register (at most deficit + weight = {} credits).",
            d.classes.len(),
            ctx.max_accumulated()
        ),
        "Deficits carry over between the entries of a class, so the shares are the weight shares whatever the packet sizes.".to_string(),
        format!("Worst-case waits: {}.", ctx.waits(Arbiter::DTable)),
    ];
    mapping(
        tech,
        if problems.is_empty() {
            "Maps as designed: the DTable is the arbiter the method designs for.".to_string()
        } else {
            "Does not map as it stands.".to_string()
        },
        details,
        problems,
    )
}

/// InfiniBand VLArb (Omni-Path has its own mapping, `omnipath_mapping`).
fn infiniband(ctx: &Context) -> TechnologyMapping {
    let d = ctx.d;
    let tech = Technology::Infiniband;
    let n = d.table.len();
    let classes = d.classes.len();
    let problems = ctx.table_limit_problems(
        tech,
        &TableLimits {
            entries_rule: format!("a VLArb table holds at most {IB_TABLE_ENTRIES}"),
            classes_rule: format!(
                "{} has at most {} data VLs",
                tech.label(),
                tech.max_classes()
            ),
            weight_field: "the VLArb weight field",
            packets: tech.label(),
            max_mtu_bytes: IB_MAX_MTU_BYTES,
        },
    );
    let mut details = vec![
        format!(
            "As the VLArb low table: the {n} entries with their weights (64-byte units, the design's credits), class k is VL k, SL k maps to VL k (sl2vl), an empty high table (a single weight-0 entry) and high limit 0; `qoslab design --format opensm` writes it as OpenSM qos_* lines."
        ),
        "Lost: the deficit carry-over. A VLArb entry sends while weight remains and the excess of its last packet (up to MTU - 1 credits) is neither charged nor carried, so with variable packet sizes the shares drift from the weight shares (towards classes whose packets overshoot more) and the worst-case waits grow.".to_string(),
        format!(
            "Worst-case waits as a low table: {} (as a DTable: {}).",
            ctx.waits(Arbiter::Iba),
            ctx.waits(Arbiter::DTable)
        ),
    ];
    // The published layout that keeps DTable semantics on InfiniBand tables.
    let acc = ctx.max_accumulated();
    let max_deficit = ctx.mtus.iter().copied().max().unwrap_or(1) - 1;
    let mut layout = Vec::new();
    if n > IB_TABLE_ENTRIES {
        layout.push(format!(
            "{n} entries do not fit the {IB_TABLE_ENTRIES} high entries"
        ));
    }
    if classes > IB_DEFICIT_COUNTERS {
        layout.push(format!(
            "{classes} classes need more than {IB_DEFICIT_COUNTERS} deficit counters"
        ));
    }
    if acc > BYTE_FIELD {
        layout.push(format!(
            "the accumulated weight reaches {acc}, more than the {BYTE_FIELD} an entry's weight field holds"
        ));
    }
    let w = ctx.max_weight();
    if ctx.weighted && w > BYTE_FIELD {
        layout.push(format!("weights up to {w} do not fit 8 bits"));
    }
    details.push(format!(
        "The published DTable-on-InfiniBand layout keeps the DTable entries in the {IB_TABLE_ENTRIES} high-priority entries and uses {IB_DEFICIT_COUNTERS} low-priority entries as deficit counters plus one as the accumulated-weight register ({} left unused); it needs an arbiter that reads the tables that way, not standard VLArb. For this design it {}: {n} of {IB_TABLE_ENTRIES} high entries, {classes} of {IB_DEFICIT_COUNTERS} counters, deficits up to {max_deficit} and the register up to {acc} (8-bit fields).",
        IB_TABLE_ENTRIES - IB_DEFICIT_COUNTERS - 1,
        if layout.is_empty() {
            "fits".to_string()
        } else {
            format!("does not fit ({})", layout.join("; "))
        }
    ));
    mapping(
        tech,
        if problems.is_empty() {
            format!(
                "Fits as the {} VLArb low table, without DTable's deficit carry-over.",
                tech.label()
            )
        } else {
            format!("Does not fit a {} VLArb table as it stands.", tech.label())
        },
        details,
        problems,
    )
}

fn advanced_switching(ctx: &Context) -> TechnologyMapping {
    let d = ctx.d;
    let tech = Technology::As;
    let n = d.table.len();
    let mut problems = Vec::new();
    let (ok, rule) = tech.entries_rule(u32::try_from(n).unwrap_or(u32::MAX));
    if !ok {
        problems.push(format!(
            "{n} entries: an AS basic table holds {rule} entries."
        ));
    }
    if d.classes.len() > tech.max_classes() {
        problems.push(format!(
            "{} classes: an AS basic table names at most {} VCs.",
            d.classes.len(),
            tech.max_classes()
        ));
    }
    // One packet per entry: with packets of each class's MTU, bytes follow n_i * MTU_i.
    let volume: Vec<u64> = d
        .classes
        .iter()
        .map(|c| c.entries * c.mtu_credits)
        .collect();
    let total: u64 = volume.iter().sum();
    let mut shares = Vec::new();
    for (c, v) in d.classes.iter().zip(&volume) {
        let entry_share = c.entries as f64 / n.max(1) as f64;
        let mtu_share = *v as f64 / total.max(1) as f64;
        shares.push(format!(
            "{} {:.4} of the packets, {:.4} of the bytes with MTU packets (wanted {})",
            c.name, entry_share, mtu_share, c.wanted_share
        ));
        if mtu_share + EPS < c.wanted_share {
            problems.push(format!(
                "{} would get {:.4} of the link when every class sends packets of its MTU ({} of {n} entries x {} credits), below the wanted {}.",
                c.name, mtu_share, c.entries, c.mtu_credits, c.wanted_share
            ));
        }
    }
    let details = vec![
        format!(
            "Only the entry pattern carries over: the {n} entries keep their classes (VC k = class k) and the weights are dropped; each entry sends one packet whatever its size, so a class's bandwidth is its entries times its packet size."
        ),
        format!("Shares: {}.", shares.join("; ")),
        format!(
            "Worst-case waits (one packet per entry): {}.",
            ctx.waits(Arbiter::AsBasic)
        ),
    ];
    mapping(
        tech,
        if problems.is_empty() {
            "Fits as an AS basic table; bandwidth then follows entries and packet sizes, not the weights.".to_string()
        } else {
            "Does not keep the design on an AS basic table.".to_string()
        },
        details,
        problems,
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::design::{design, parse_requirements};

    const VECTOR: &str = crate::design::MULTIMEDIA_VECTOR;

    fn vector(tech: &str) -> Design {
        let text = VECTOR.replace("\"dtable\"", &format!("\"{tech}\""));
        let text = if tech == "as" {
            text.replace("\"w\": 2, \"k\": 0.5", "\"w\": null, \"k\": null")
        } else {
            text
        };
        design(&parse_requirements(&text).unwrap()).unwrap()
    }

    #[test]
    fn order_and_technologies() {
        let m = vector("dtable").mappings;
        let techs: Vec<Technology> = m.iter().map(|m| m.technology).collect();
        assert_eq!(
            techs,
            vec![
                Technology::Dtable,
                Technology::Infiniband,
                Technology::Omnipath,
                Technology::As
            ]
        );
        for t in &m {
            assert_eq!(t.fits, t.problems.is_empty());
        }
    }

    #[test]
    fn dtable_maps_as_designed() {
        let m = &vector("dtable").mappings[0];
        assert!(m.fits, "{m:?}");
        // Largest deficit: VI/CL MTU 32 - 1; register: 31 + VI's 64.
        assert!(
            m.details[0].contains("at most 31 credits"),
            "{}",
            m.details[0]
        );
        assert!(m.details[0].contains("= 95 credits"), "{}", m.details[0]);
        assert!(m.details[2].contains("BK 286.7 us"), "{}", m.details[2]);
        // An AS design has no weights for a DTable.
        let m = &vector("as").mappings[0];
        assert!(!m.fits);
        assert!(m.problems[0].contains("no weights"), "{:?}", m.problems);
    }

    #[test]
    fn infiniband_low_table_and_the_published_layout() {
        let m = &vector("infiniband").mappings[1];
        assert!(m.fits, "{m:?}");
        assert!(m.summary.contains("without DTable's deficit carry-over"));
        assert!(m.details[0].contains("SL k maps to VL k"));
        // IBA waits are longer than DTable's for the classes behind big entries: BK 393.5
        // vs 286.7 us, NC the same (its gaps hold one entry).
        assert!(
            m.details[2].contains("BK 393.5 us") && m.details[2].contains("BK 286.7 us"),
            "{}",
            m.details[2]
        );
        assert!(m.details[2].starts_with("Worst-case waits as a low table: NC 25.1 us"));
        assert!(m.details[3].contains("47 left unused"), "{}", m.details[3]);
        assert!(m.details[3].contains("it fits: 64 of 64 high entries, 7 of 16 counters"));

        // A DTable design with 16-bit weights or more than 64 entries does not fit.
        let big = VECTOR
            .replace("\"entries\": 64", "\"entries\": 128")
            .replace("\"w\": 2, \"k\": 0.5", "\"w\": 10, \"k\": 0.5");
        let d = design(&parse_requirements(&big).unwrap()).unwrap();
        let m = &d.mappings[1];
        assert!(!m.fits);
        assert!(
            m.problems.iter().any(|p| p.contains("128 entries")),
            "{:?}",
            m.problems
        );
        assert!(m.details[3].contains("does not fit"), "{}", m.details[3]);
    }

    /// The Omni-Path correction: the dedicated DTable per output with its registers, never
    /// the InfiniBand 64/16/1 layout.
    #[test]
    fn omnipath_is_the_dtable_adaptation_with_its_registers() {
        let d = vector("omnipath");
        let m = &d.mappings[2];
        assert!(m.fits, "{m:?}");
        assert!(
            m.summary
                .contains("dedicated table next to each output's SL arbiter")
                && m.summary
                    .contains("1536 deficit counters and 48 accumulators on a 48-port switch"),
            "{}",
            m.summary
        );
        let all = m.details.join(" ");
        assert!(!all.contains("47 left unused") && !all.contains("and so Omni-Path"));
        assert!(
            m.details[0].contains("does not apply to Omni-Path"),
            "{}",
            m.details[0]
        );
        assert!(
            m.details[0].contains("SL 0-6 -> SC 0-6 -> VL 0-6"),
            "{}",
            m.details[0]
        );
        assert!(
            m.details[1].contains("in all 48 tables, 1536 deficit counters and 48 accumulators"),
            "{}",
            m.details[1]
        );
        // DTable semantics: the DTable's waits, not VLArb's.
        assert!(m.details[2].contains("BK 286.7 us"), "{}", m.details[2]);
        let l = m.omnipath_layout.as_ref().unwrap();
        assert_eq!(
            (
                l.switch_ports,
                l.sls,
                l.deficit_counters,
                l.accumulators,
                l.tables
            ),
            (48, 32, 1536, 48, 48)
        );
        assert_eq!((l.entries_per_table, l.sls_used), (64, 7));
        assert_eq!((l.max_deficit_credits, l.max_accumulated_credits), (31, 95));
        // Only the Omni-Path mapping carries a layout; InfiniBand keeps its own.
        assert!(
            d.mappings
                .iter()
                .filter(|m| m.omnipath_layout.is_some())
                .count()
                == 1
        );
        assert!(d.mappings[1].details[3].contains("47 left unused"));

        // The registers follow the requirements' switch.
        let text = VECTOR.replace("\"dtable\"", "\"omnipath\", \"switch_ports\": 24");
        let d = design(&parse_requirements(&text).unwrap()).unwrap();
        let l = d.mappings[2].omnipath_layout.as_ref().unwrap();
        assert_eq!((l.deficit_counters, l.accumulators), (768, 24));

        // 20 classes fit Omni-Path's 31 data lanes but not InfiniBand's 15 data VLs.
        let many: Vec<String> = (0..20)
            .map(|i| {
                format!(r#"{{"name": "C{i}", "distance": null, "mtu_bytes": 64, "share": 0.05}}"#)
            })
            .collect();
        let text = format!(
            r#"{{"technology": "omnipath", "entries": 64, "gmtu_bytes": 2048, "classes": [{}]}}"#,
            many.join(",")
        );
        let d = design(&parse_requirements(&text).unwrap()).unwrap();
        assert!(d.mappings[2].fits, "{:?}", d.mappings[2]);
        assert!(d.mappings[2].details[0].contains("SL 15-19 -> SC 16-20 -> VL 16-20"));
        assert_eq!(d.mappings[2].omnipath_layout.as_ref().unwrap().sls_used, 20);
        let maps = d.omnipath.as_ref().unwrap();
        assert_eq!(maps.sl2sc[15], Some(16));
        assert_eq!(maps.sc2sl[16], Some(15));
        assert!(!d.mappings[1].fits);
        assert!(d.mappings[1].problems[0].contains("at most 15 data VLs"));
        // A bad switch size is named.
        let text = VECTOR.replace("\"dtable\"", "\"omnipath\", \"switch_ports\": 0");
        let e = design(&parse_requirements(&text).unwrap()).unwrap_err();
        assert!(format!("{e:?}").contains("switch_ports"), "{e:?}");
    }

    /// Every table-limit problem, worded for each target: too many entries, weights past
    /// the 8-bit field and an MTU past the largest packet.
    #[test]
    fn table_limit_problems_name_each_rule_for_each_target() {
        let big = VECTOR
            .replace("\"entries\": 64", "\"entries\": 128")
            .replace("\"w\": 2, \"k\": 0.5", "\"w\": 10, \"k\": 0.5")
            .replace("\"gmtu_bytes\": 2048", "\"gmtu_bytes\": 16384")
            .replace(
                r#"{"name": "VI", "distance": 8, "mtu_bytes": 2048"#,
                r#"{"name": "VI", "distance": 8, "mtu_bytes": 16384"#,
            );
        let d = design(&parse_requirements(&big).unwrap()).unwrap();
        let w = d.table.iter().filter_map(|e| e.weight).max().unwrap();
        assert!(w > 255, "{w}");
        assert_eq!(
            d.mappings[1].problems,
            vec![
                "128 entries: a VLArb table holds at most 64.".to_string(),
                format!("Entry weights up to {w}: the VLArb weight field holds at most 255."),
                "A class MTU of 16384 bytes: InfiniBand packets carry at most 4096 bytes."
                    .to_string(),
            ]
        );
        assert_eq!(
            d.mappings[2].problems,
            vec![
                "128 entries: the engine models the adaptation's tables with at most 64 entries, like the Omni-Path arbitration tables.".to_string(),
                format!(
                    "Entry weights up to {w}: the adaptation's weight field holds at most 255."
                ),
                "A class MTU of 16384 bytes: Omni-Path packets carry at most 10240 bytes."
                    .to_string(),
            ]
        );
    }

    #[test]
    fn advanced_switching_keeps_entries_only() {
        let m = &vector("dtable").mappings[3];
        // With MTU packets VI gets 8 * 32 / (32*3 + 16*3 + 8*32 + 4*32 + 2*16 + 16 + 16)
        // = 256 / 592 = 0.4324 < 0.5, and CL 128 / 592 = 0.2162 >= 0.203125.
        // EE 32 / 592 = 0.0541 < 0.09375 and BE 16 / 592 = 0.0270 < 0.046875 too.
        assert!(!m.fits);
        assert_eq!(m.problems.len(), 3, "{:?}", m.problems);
        assert!(
            m.problems[0].starts_with("VI would get 0.4324"),
            "{}",
            m.problems[0]
        );
        assert!(
            m.problems[1].starts_with("EE would get 0.0541"),
            "{}",
            m.problems[1]
        );
        assert!(
            m.problems[2].starts_with("BE would get 0.0270"),
            "{}",
            m.problems[2]
        );
        assert!(m.details[1].contains("NC 0.5000 of the packets, 0.1622 of the bytes"));
        assert!(m.details[2].contains("BK 151.6 us"), "{}", m.details[2]);
        // A DTable of 48 entries is no AS table size.
        let odd = r#"{"technology": "dtable", "entries": 48, "gmtu_bytes": 2048,
            "classes": [{"name": "A", "mtu_bytes": 2048, "share": 0.5},
                        {"name": "B", "mtu_bytes": 2048, "share": 0.5}]}"#;
        let d = design(&parse_requirements(odd).unwrap()).unwrap();
        assert!(d.mappings[3].problems[0].starts_with("48 entries"));
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
#[path = "mapping_limits_tests.rs"]
mod limits_tests;
