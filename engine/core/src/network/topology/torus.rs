//! Tori of 1 to 3 dimensions with trunk links.
//!
//! Switches are numbered by their coordinates, dimension 0 the least significant
//! (`switch = x0 + d0 * (x1 + d1 * x2)`). Every switch has `e` end-point ports
//! (`0 .. e`; end point `switch * e + j` is on port `j`) and, per dimension `i`, two
//! *trunks* of `T` ports: the positive trunk (ports `e + 2iT .. e + (2i+1)T`, towards
//! coordinate `x_i + 1 mod d_i`) and the negative trunk (the next `T` ports, towards
//! `x_i - 1`). Port `j` of a positive trunk is linked to port `j` of the neighbour's
//! negative trunk: the `T` physical ports of a trunk are parallel links that carry
//! different packets independently. A switch has `e + 2 * dims * T` ports (8x8 with
//! `T = 10`, `e = 8`: 48; 8x8x8 with `T = 4`, `e = 4`: 28).
//!
//! Rings of size 2 are allowed: the two trunks of a dimension then join the same two
//! switches (two distinct sets of links). All switches are level 1.

use super::{MAX_SWITCH_PORTS, MAX_TORUS_DIMS, Shape, Topology, TopologyError, check_size};

/// The parameters of a torus, with its coordinate arithmetic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TorusShape {
    /// Ring size per dimension (each at least 2).
    pub dims: Vec<u32>,
    /// Physical ports per trunk (per direction of each dimension).
    pub trunk_ports: u32,
    /// End points per switch.
    pub end_points_per_switch: u32,
}

impl TorusShape {
    /// Number of switches (the product of the ring sizes).
    pub fn switches(&self) -> u32 {
        self.dims.iter().product()
    }

    /// Coordinate `dim` of switch index `s` (counted among switches).
    pub fn coordinate(&self, s: u32, dim: usize) -> u32 {
        let below: u32 = self.dims[..dim].iter().product();
        (s / below) % self.dims[dim]
    }

    /// The switch index one step from switch `s` along `dim`, positive or negative.
    pub fn neighbour(&self, s: u32, dim: usize, positive: bool) -> u32 {
        let below: u32 = self.dims[..dim].iter().product();
        let d = self.dims[dim];
        let x = self.coordinate(s, dim);
        let y = if positive {
            (x + 1) % d
        } else {
            (x + d - 1) % d
        };
        s - x * below + y * below
    }

    /// The local port of physical port `index` of the trunk along `dim` in the given
    /// direction.
    pub fn trunk_port(&self, dim: usize, positive: bool, index: u32) -> u32 {
        let trunk = 2 * dim as u32 + u32::from(!positive);
        self.end_points_per_switch + trunk * self.trunk_ports + index
    }

    /// Ports per switch.
    pub fn ports(&self) -> u32 {
        self.end_points_per_switch + 2 * self.dims.len() as u32 * self.trunk_ports
    }
}

impl Topology {
    /// A torus of the given ring sizes (1 to [`MAX_TORUS_DIMS`] dimensions, each 2 or
    /// more), trunks of `trunk_ports` ports (at least 1) and `end_points_per_switch` end
    /// points per switch (at least 1); the switch ports (`e + 2 * dims * T`) at most
    /// [`MAX_SWITCH_PORTS`]. Errors name `model.topology.dims`, `.dims[i]`,
    /// `.trunk_ports` or `.end_points_per_switch`.
    ///
    /// 8x8, `T = 10`, `e = 8`: 64 switches of 48 ports, 512 end points, 1792 links;
    /// 8x8x8, `T = 4`, `e = 4`: 512 switches of 28 ports, 2048 end points, 8192 links.
    pub fn torus(
        dims: &[u32],
        trunk_ports: u32,
        end_points_per_switch: u32,
    ) -> Result<Topology, TopologyError> {
        if dims.is_empty() || dims.len() > MAX_TORUS_DIMS {
            return Err(TopologyError::new(
                "dims",
                format!(
                    "must list 1 to {MAX_TORUS_DIMS} ring sizes (got {})",
                    dims.len()
                ),
            ));
        }
        if let Some(i) = dims.iter().position(|&d| d < 2) {
            return Err(TopologyError::new(
                &format!("dims[{i}]"),
                format!("must be a ring of at least 2 switches (got {})", dims[i]),
            ));
        }
        if trunk_ports == 0 {
            return Err(TopologyError::new(
                "trunk_ports",
                "must be at least 1 port per trunk (got 0)",
            ));
        }
        if end_points_per_switch == 0 {
            return Err(TopologyError::new(
                "end_points_per_switch",
                "must be at least 1 (got 0)",
            ));
        }
        let ports =
            u64::from(end_points_per_switch) + 2 * dims.len() as u64 * u64::from(trunk_ports);
        if ports > u64::from(MAX_SWITCH_PORTS) {
            return Err(TopologyError::new(
                "trunk_ports",
                format!(
                    "with end_points_per_switch, makes switches of {ports} ports (end points + 2 x dimensions x trunk ports), more than {MAX_SWITCH_PORTS}"
                ),
            ));
        }
        let switches = dims
            .iter()
            .try_fold(1u64, |acc, &d| acc.checked_mul(u64::from(d)))
            .unwrap_or(u64::MAX);
        check_size(
            switches.saturating_mul(u64::from(end_points_per_switch)),
            switches,
            "dims",
        )?;
        let shape = TorusShape {
            dims: dims.to_vec(),
            trunk_ports,
            end_points_per_switch,
        };
        let s = shape.switches();
        let e = end_points_per_switch;
        let n = s * e;
        let nodes = vec![(1, shape.ports()); s as usize];
        let mut t = Topology::with_nodes(n, &nodes, Shape::Torus(shape.clone()));
        for a in 0..n {
            t.connect(a, 0, n + a / e, a % e)?;
        }
        for sw in 0..s {
            for dim in 0..dims.len() {
                let next = shape.neighbour(sw, dim, true);
                for j in 0..trunk_ports {
                    let out = shape.trunk_port(dim, true, j);
                    let back = shape.trunk_port(dim, false, j);
                    t.connect(n + sw, out, n + next, back)?;
                }
            }
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::super::check::{bfs, connected, ports_used_once};
    use super::*;

    #[test]
    fn two_d_eight_by_eight() {
        let t = Topology::torus(&[8, 8], 10, 8).unwrap();
        assert_eq!((t.end_points(), t.switches()), (512, 64));
        assert!((0..64).all(|s| t.ports(512 + s) == 48));
        assert_eq!(t.links().len(), 512 + 2 * 64 * 10);
        assert_eq!(ports_used_once(&t), 0);
        assert!(connected(&t));
    }

    #[test]
    fn three_d_eight_cubed() {
        let t = Topology::torus(&[8, 8, 8], 4, 4).unwrap();
        assert_eq!((t.end_points(), t.switches()), (2048, 512));
        assert!((0..512).all(|s| t.ports(2048 + s) == 28));
        assert_eq!(t.links().len(), 2048 + 3 * 512 * 4);
        assert_eq!(ports_used_once(&t), 0);
    }

    /// Switch distances are the torus (Lee) distances.
    #[test]
    fn distances_are_ring_distances() {
        for dims in [vec![5], vec![4, 3], vec![2, 3, 4]] {
            let t = Topology::torus(&dims, 2, 1).unwrap();
            let shape = TorusShape {
                dims: dims.clone(),
                trunk_ports: 2,
                end_points_per_switch: 1,
            };
            let d0 = bfs(&t, 0);
            for s in 1..shape.switches() {
                let lee: u32 = (0..dims.len())
                    .map(|i| {
                        let x = shape.coordinate(s, i);
                        x.min(dims[i] - x)
                    })
                    .sum();
                // End point 0 -> its switch -> ... -> switch s -> end point s.
                assert_eq!(d0[s as usize], lee + 2, "dims {dims:?} switch {s}");
            }
        }
    }

    #[test]
    fn rejects_bad_parameters() {
        let field = |r: Result<Topology, TopologyError>| r.err().unwrap().field;
        assert_eq!(field(Topology::torus(&[], 1, 1)), "model.topology.dims");
        assert_eq!(field(Topology::torus(&[2; 4], 1, 1)), "model.topology.dims");
        assert_eq!(
            field(Topology::torus(&[8, 1], 1, 1)),
            "model.topology.dims[1]"
        );
        assert_eq!(
            field(Topology::torus(&[8, 8], 0, 1)),
            "model.topology.trunk_ports"
        );
        assert_eq!(
            field(Topology::torus(&[8, 8], 1, 0)),
            "model.topology.end_points_per_switch"
        );
        let e = Topology::torus(&[8, 8, 8], 10, 8).err().unwrap();
        assert_eq!(e.field, "model.topology.trunk_ports");
        assert!(e.message.contains("68 ports"), "{}", e.message);
        assert!(Topology::torus(&[32, 32, 16], 1, 1).is_ok());
        assert_eq!(
            field(Topology::torus(&[64, 64, 64], 1, 1)),
            "model.topology.dims"
        );
    }
}
