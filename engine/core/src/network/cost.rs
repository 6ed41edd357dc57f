//! What a network costs in hardware (the R4 cost panel): switches, links, ports, VCs,
//! scheduler queues, buffer memory, and silicon area from the spec's table.
//!
//! The spec gives the area of two switches, in mm² at 0.18 µm / 0.13 µm:
//! - 16 ports, 2 VCs: buffers 64/32, crossbar and datapath 10/5, scheduler 5/3 (79/40);
//! - 8 ports, 8 VCs: buffers 64/32, crossbar and datapath 5/3, scheduler 10/5 (79/40).
//!
//! A switch with one of these shapes and the reference buffer memory (512 KiB: 32 KiB per
//! port and side for 8 ports, 16 KiB for 16) gets the table's row ([`AreaSource::Table`]).
//! Any other switch (the 8-port, 2-VC designs) gets an estimate from the same two rows
//! ([`AreaSource::Scaled`]): buffers in proportion to buffer memory, crossbar and
//! datapath linear in the ports, scheduler linear in its queues (ports x VCs), each line
//! through the table's two points at that technology.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::topology::Topology;

/// Buffer memory of the table's switches, in bytes (input and output sides).
pub const REFERENCE_BUFFER_BYTES: u64 = 512 * 1024;

/// One technology's area figures (mm²): the table's two switches.
struct Technology {
    micrometres: f64,
    buffers: f64,
    /// Crossbar and datapath at 8 and 16 ports.
    crossbar: (f64, f64),
    /// Scheduler at 32 and 64 queues (16 ports x 2 VCs, 8 ports x 8 VCs).
    scheduler: (f64, f64),
}

const TECHNOLOGIES: [Technology; 2] = [
    Technology {
        micrometres: 0.18,
        buffers: 64.0,
        crossbar: (5.0, 10.0),
        scheduler: (5.0, 10.0),
    },
    Technology {
        micrometres: 0.13,
        buffers: 32.0,
        crossbar: (3.0, 5.0),
        scheduler: (3.0, 5.0),
    },
];

/// The hardware of a network's switches and links.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct HardwareCost {
    /// Switches.
    pub switches: u32,
    /// Links (bidirectional), end-point links included.
    pub links: u32,
    /// Ports of the largest switch.
    pub ports_per_switch: u32,
    /// VCs (lanes) per switch port.
    pub vcs_per_port: u32,
    /// Queues the switch's arbiters choose among: ports x VCs.
    pub scheduler_queues: u32,
    /// Buffer memory of one switch (input and output buffers of every port and VC), bytes.
    #[ts(type = "number")]
    pub buffer_bytes_per_switch: u64,
    /// Buffer memory of all switches, bytes.
    #[ts(type = "number")]
    pub switch_buffer_bytes: u64,
    /// Silicon area at each technology of the table.
    pub area: Vec<SwitchArea>,
}

/// Where an area figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum AreaSource {
    /// The spec's table row for this switch.
    Table,
    /// Estimated from the table's two rows (see `docs/modelling.md`).
    Scaled,
}

/// The area of one switch and of all of them, at one technology, in mm².
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SwitchArea {
    /// Feature size in µm (0.18 or 0.13).
    pub technology_um: f64,
    /// Buffers of one switch.
    pub buffers_mm2: f64,
    /// Crossbar and datapath of one switch.
    pub crossbar_mm2: f64,
    /// Scheduler (arbiters) of one switch.
    pub scheduler_mm2: f64,
    /// One switch.
    pub switch_mm2: f64,
    /// All switches.
    pub total_mm2: f64,
    /// The table's row, or an estimate.
    pub source: AreaSource,
}

/// The value at `x` of the line through `(x0, y.0)` and `(x1, y.1)`.
fn line(x: f64, x0: f64, x1: f64, y: (f64, f64)) -> f64 {
    y.0 + (x - x0) * (y.1 - y.0) / (x1 - x0)
}

/// The hardware of `topology` whose switches have `vcs` lanes per port and buffers of
/// `input_bytes` and `output_bytes` per port and lane.
pub fn hardware_cost(
    topology: &Topology,
    vcs: u32,
    input_bytes: u32,
    output_bytes: u32,
) -> HardwareCost {
    let switches = topology.switches();
    let ports = (0..switches)
        .map(|s| topology.ports(topology.switch_node(s)))
        .max()
        .unwrap_or(0);
    let per_switch =
        u64::from(ports) * u64::from(vcs) * (u64::from(input_bytes) + u64::from(output_bytes));
    let total: u64 = (0..switches)
        .map(|s| {
            u64::from(topology.ports(topology.switch_node(s)))
                * u64::from(vcs)
                * (u64::from(input_bytes) + u64::from(output_bytes))
        })
        .sum();
    let queues = ports * vcs;
    let in_table = per_switch == REFERENCE_BUFFER_BYTES && matches!((ports, vcs), (16, 2) | (8, 8));
    let area = TECHNOLOGIES
        .iter()
        .map(|t| {
            let buffers = t.buffers * per_switch as f64 / REFERENCE_BUFFER_BYTES as f64;
            let crossbar = line(f64::from(ports), 8.0, 16.0, t.crossbar);
            let scheduler = line(f64::from(queues), 32.0, 64.0, t.scheduler).max(0.0);
            let one = buffers + crossbar + scheduler;
            SwitchArea {
                technology_um: t.micrometres,
                buffers_mm2: buffers,
                crossbar_mm2: crossbar,
                scheduler_mm2: scheduler,
                switch_mm2: one,
                total_mm2: one * f64::from(switches),
                source: if in_table {
                    AreaSource::Table
                } else {
                    AreaSource::Scaled
                },
            }
        })
        .collect();
    HardwareCost {
        switches,
        links: topology.links().len() as u32,
        ports_per_switch: ports,
        vcs_per_port: vcs,
        scheduler_queues: queues,
        buffer_bytes_per_switch: per_switch,
        switch_buffer_bytes: total,
        area,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four R4 designs on the 64-end-point MIN: switch and link counts, ports, and
    /// the spec's area table (79/40 mm² per switch for the two switches it lists).
    #[test]
    fn the_four_designs_cost_what_the_spec_says() {
        let min8 = Topology::folded_min(64, 8).unwrap();
        let min16 = Topology::folded_min(64, 16).unwrap();
        // Traditional 8 VCs: 4 KiB per VC in and out.
        let t8 = hardware_cost(&min8, 8, 4096, 4096);
        // Traditional 2 VCs and New 2 VCs-B: 16 KiB per VC.
        let t2 = hardware_cost(&min8, 2, 16384, 16384);
        // New 2 VCs-P: 16-port switches, 8 KiB per VC.
        let p = hardware_cost(&min16, 2, 8192, 8192);
        assert_eq!((t8.switches, t8.links, t8.ports_per_switch), (48, 192, 8));
        assert_eq!((p.switches, p.links, p.ports_per_switch), (16, 128, 16));
        assert_eq!((t2.switches, t2.links, t2.vcs_per_port), (48, 192, 2));
        assert_eq!(
            (t8.scheduler_queues, p.scheduler_queues, t2.scheduler_queues),
            (64, 32, 16)
        );
        for c in [&t8, &t2, &p] {
            assert_eq!(c.buffer_bytes_per_switch, REFERENCE_BUFFER_BYTES);
            assert_eq!(
                c.switch_buffer_bytes,
                REFERENCE_BUFFER_BYTES * u64::from(c.switches)
            );
        }
        let figures = |c: &HardwareCost, i: usize| {
            let a = &c.area[i];
            (
                a.buffers_mm2,
                a.crossbar_mm2,
                a.scheduler_mm2,
                a.switch_mm2,
                a.source,
            )
        };
        assert_eq!(figures(&p, 0), (64.0, 10.0, 5.0, 79.0, AreaSource::Table));
        assert_eq!(figures(&p, 1), (32.0, 5.0, 3.0, 40.0, AreaSource::Table));
        assert_eq!(figures(&t8, 0), (64.0, 5.0, 10.0, 79.0, AreaSource::Table));
        assert_eq!(figures(&t8, 1), (32.0, 3.0, 5.0, 40.0, AreaSource::Table));
        // All switches: 16 x 79 = 1264 against 48 x 79 = 3792 mm² at 0.18 µm.
        assert_eq!(p.area[0].total_mm2, 1264.0);
        assert_eq!(t8.area[0].total_mm2, 3792.0);
        assert_eq!(p.area[1].total_mm2, 640.0);
        assert_eq!(t8.area[1].total_mm2, 1920.0);
        // 8 ports and 2 VCs is not in the table: scaled (16 queues: 2.5 and 2 mm²).
        assert_eq!(figures(&t2, 0), (64.0, 5.0, 2.5, 71.5, AreaSource::Scaled));
        assert_eq!(figures(&t2, 1), (32.0, 3.0, 2.0, 37.0, AreaSource::Scaled));
    }
}
