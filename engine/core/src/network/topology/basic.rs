//! The two smallest topologies: a single link and a single switch.

use super::{MAX_SWITCH_PORTS, Shape, Topology, TopologyError};

impl Topology {
    /// Two end points joined by one link.
    pub fn link() -> Topology {
        let mut t = Topology::with_nodes(2, &[], Shape::Link);
        // Both ports exist and are free.
        let _ = t.connect(0, 0, 1, 0);
        t
    }

    /// One switch with `ports` ports (2 to [`MAX_SWITCH_PORTS`]); end point `i` is on
    /// switch port `i`. Errors name `model.topology.ports`.
    pub fn single_switch(ports: u32) -> Result<Topology, TopologyError> {
        if !(2..=MAX_SWITCH_PORTS).contains(&ports) {
            return Err(TopologyError::new(
                "ports",
                format!("must be between 2 and {MAX_SWITCH_PORTS} ports (got {ports})"),
            ));
        }
        let mut t = Topology::with_nodes(ports, &[(1, ports)], Shape::SingleSwitch);
        for i in 0..ports {
            t.connect(i, 0, ports, i)?;
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::super::check::{connected, ports_used_once};
    use super::*;

    #[test]
    fn single_switch_and_link() {
        let t = Topology::single_switch(8).unwrap();
        assert_eq!((t.end_points(), t.switches(), t.links().len()), (8, 1, 8));
        assert_eq!(ports_used_once(&t), 0);
        assert!(connected(&t));
        let l = Topology::link();
        assert_eq!((l.end_points(), l.switches(), l.links().len()), (2, 0, 1));
        assert_eq!(ports_used_once(&l), 0);
    }

    #[test]
    fn rejects_bad_port_counts() {
        for ports in [0, 1, 65] {
            let e = Topology::single_switch(ports).err().unwrap();
            assert_eq!(e.field, "model.topology.ports");
            assert!(e.message.contains("between 2 and 64"), "{}", e.message);
        }
    }
}
