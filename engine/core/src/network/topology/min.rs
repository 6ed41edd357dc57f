//! The folded (bidirectional) perfect-shuffle multistage interconnection network.

use super::{MAX_SWITCH_PORTS, Shape, Topology, TopologyError, check_size};

impl Topology {
    /// The folded (bidirectional) perfect-shuffle MIN with `end_points` end points and
    /// `switch_ports`-port switches.
    ///
    /// Each switch has `m = switch_ports / 2` *down* ports (`0 .. m`, towards the end
    /// points) and `m` *up* ports (`m .. 2m`). There are `s` stages with
    /// `end_points = m^s`, each of `m^(s-1)` switches. Lines are numbered per stage: down
    /// port `p` of switch `j` is line `j*m + p`, and so is up port `m + p`.
    /// - End point `i` is attached to line `i` of stage 0 (switch `i / m`, port `i % m`).
    /// - Up line `y` of stage `t` joins down line `shuffle(y)` of stage `t + 1`, where the
    ///   perfect shuffle rotates the base-`m` digits of `y` left by one:
    ///   `shuffle(y) = (y * m) mod n + (y * m) div n` — the wiring of an Omega network,
    ///   folded so that every stage is a column of bidirectional switches.
    /// - The up ports of the last stage are unused.
    ///
    /// Links: `n` end-point links plus `n` per pair of adjacent stages, `n * s` in all (64
    /// end points and 8-port switches: 3 stages of 16, 48 switches, 192 links counting the
    /// 64 end-point links; 16-port switches: 2 stages of 8, 16 switches, 128 links).
    pub fn folded_min(end_points: u32, switch_ports: u32) -> Result<Topology, TopologyError> {
        if !(4..=MAX_SWITCH_PORTS).contains(&switch_ports) || switch_ports % 2 != 0 {
            return Err(TopologyError::new(
                "switch_ports",
                format!(
                    "must be an even number of ports from 4 to {MAX_SWITCH_PORTS} (half down, half up) (got {switch_ports})"
                ),
            ));
        }
        let m = switch_ports / 2;
        let Some(stages) = min_stages(end_points, m) else {
            return Err(TopologyError::new(
                "end_points",
                format!(
                    "must fit the switches: a MIN of {switch_ports}-port switches connects a power of {m} end points ({m}, {}, {}, ...; got {end_points})",
                    m * m,
                    m * m * m
                ),
            ));
        };
        check_size(
            u64::from(end_points),
            u64::from(end_points / m) * u64::from(stages),
            "end_points",
        )?;
        let n = end_points;
        let per_stage = n / m;
        let switches: Vec<(u32, u32)> = (0..stages)
            .flat_map(|t| (0..per_stage).map(move |_| (t + 1, switch_ports)))
            .collect();
        let mut t = Topology::with_nodes(n, &switches, Shape::Min);
        let switch_node = |stage: u32, j: u32| n + stage * per_stage + j;
        for i in 0..n {
            t.connect(i, 0, switch_node(0, i / m), i % m)?;
        }
        let nm = u64::from(n);
        for stage in 0..stages.saturating_sub(1) {
            for y in 0..n {
                let ym = u64::from(y) * u64::from(m);
                let x = (ym % nm + ym / nm) as u32;
                t.connect(
                    switch_node(stage, y / m),
                    m + y % m,
                    switch_node(stage + 1, x / m),
                    x % m,
                )?;
            }
        }
        Ok(t)
    }
}

/// The number of stages `s` with `m^s = end_points`, if there is one (s >= 1).
fn min_stages(end_points: u32, m: u32) -> Option<u32> {
    if m < 2 || end_points < m {
        return None;
    }
    let mut s = 0;
    let mut v = 1u64;
    while v < u64::from(end_points) {
        v *= u64::from(m);
        s += 1;
    }
    (v == u64::from(end_points)).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::super::NodeKind;
    use super::super::check::{connected, ports_used_once};
    use super::*;

    #[test]
    fn min_64_with_8_port_switches() {
        let t = Topology::folded_min(64, 8).unwrap();
        assert_eq!(t.end_points(), 64);
        assert_eq!(t.switches(), 48);
        // 64 end-point links + 64 between stages 1-2 + 64 between stages 2-3.
        assert_eq!(t.links().len(), 192);
        let unused = ports_used_once(&t);
        // Only the up ports of the 16 last-stage switches are free.
        assert_eq!(unused, 16 * 4);
        for s in 0..48 {
            let node = 64 + s;
            assert_eq!(t.ports(node), 8);
            assert_eq!(t.level(node), 1 + s / 16);
            for p in 0..8 {
                let g = t.global_port(node, p).unwrap();
                let used = t.peer(g).is_some();
                assert_eq!(used, p < 4 || s < 32, "switch {s} port {p}");
                if used {
                    assert_eq!(t.is_up(g), p >= 4, "switch {s} port {p}");
                }
            }
        }
        for e in 0..64 {
            assert_eq!(t.kind(e), NodeKind::EndPoint);
            assert!(t.is_up(t.global_port(e, 0).unwrap()));
        }
        assert!(connected(&t));
    }

    #[test]
    fn min_64_with_16_port_switches() {
        let t = Topology::folded_min(64, 16).unwrap();
        assert_eq!(t.switches(), 16);
        assert_eq!(t.links().len(), 128);
        assert_eq!(ports_used_once(&t), 8 * 8);
        assert!(connected(&t));
    }

    #[test]
    fn perfect_shuffle_wiring() {
        // 16 end points, 4-port switches: m = 2, 4 stages of 8 switches.
        let t = Topology::folded_min(16, 4).unwrap();
        assert_eq!(t.switches(), 32);
        assert_eq!(t.links().len(), 64);
        // Up line 5 (switch 2, up port 3) of stage 0 -> shuffle(5) = 10 (switch 5 port 0)
        // of stage 1.
        let g = t.global_port(16 + 2, 3).unwrap();
        assert_eq!(t.port_owner(t.peer(g).unwrap()), (16 + 8 + 5, 0));
        // Up line 9 (switch 4 up port 3): shuffle(9) = 18 mod 16 + 1 = 3 (switch 1 port 1).
        let g = t.global_port(16 + 4, 3).unwrap();
        assert_eq!(t.port_owner(t.peer(g).unwrap()), (16 + 8 + 1, 1));
        assert!(connected(&t));
    }

    #[test]
    fn rejects_impossible_shapes() {
        assert!(Topology::folded_min(63, 8).is_err());
        assert!(Topology::folded_min(64, 7).is_err());
        assert!(Topology::folded_min(64, 2).is_err());
        assert!(Topology::folded_min(2, 8).is_err());
        assert_eq!(min_stages(4, 4), Some(1));
        assert_eq!(min_stages(512, 8), Some(3));
    }
}
