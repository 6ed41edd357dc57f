//! The k-ary n-tree (Petrini and Vanneschi): `k^n` end points and `n` stages of
//! `k^(n-1)` switches with `2k` ports.
//!
//! Numbers are written in base `k`, digit 0 the least significant. A switch of stage `t`
//! (0 at the end points, `n - 1` at the top) has an index `w` of `n - 1` digits; it has
//! down ports `0 .. k` and up ports `k .. 2k`.
//! - End point `e` is on down port `digit_0(e)` of stage-0 switch `e / k`.
//! - Up port `k + j` of switch `w` of stage `t` joins down port `digit_t(w)` of the
//!   stage-`t + 1` switch whose index is `w` with digit `t` replaced by `j`.
//! - The up ports of the top stage are unused.
//!
//! So switch `w` of stage `t` reaches, going down, exactly the end points `e` with
//! `digit_(i+1)(e) = digit_i(w)` for `i >= t`, and the way down is unique: at stage `t`
//! the down port is `digit_t(e)`. The way up from a stage-0 switch to a given top switch
//! `r` is unique too: going up from stage `t` through up port `k + digit_t(r)`.

use super::{MAX_SWITCH_PORTS, Shape, Topology, TopologyError, check_size};

/// The parameters of a k-ary n-tree, with the digit arithmetic of its wiring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeShape {
    /// Arity: down ports (and up ports) per switch.
    pub k: u32,
    /// Stages.
    pub n: u32,
}

impl TreeShape {
    /// Switches per stage, `k^(n-1)`.
    pub fn per_stage(&self) -> u32 {
        self.k.pow(self.n - 1)
    }

    /// Digit `i` (base `k`) of `x`.
    pub fn digit(&self, x: u32, i: u32) -> u32 {
        (x / self.k.pow(i)) % self.k
    }

    /// `x` with digit `i` replaced by `d`.
    pub fn with_digit(&self, x: u32, i: u32, d: u32) -> u32 {
        let p = self.k.pow(i);
        x - self.digit(x, i) * p + d * p
    }

    /// The node number of switch `w` of stage `t`.
    pub fn node(&self, t: u32, w: u32) -> u32 {
        self.k.pow(self.n) + t * self.per_stage() + w
    }

    /// The (stage, index) of a switch node.
    pub fn position(&self, node: u32) -> (u32, u32) {
        let s = node - self.k.pow(self.n);
        (s / self.per_stage(), s % self.per_stage())
    }

    /// Whether switch `w` of stage `t` reaches end point `e` going only down.
    pub fn covers(&self, t: u32, w: u32, e: u32) -> bool {
        (t..self.n - 1).all(|i| self.digit(w, i) == self.digit(e, i + 1))
    }
}

impl Topology {
    /// The k-ary n-tree (see the module documentation of `tree.rs`): `k >= 2`, `n >= 1`,
    /// `2k` ports at most [`super::MAX_SWITCH_PORTS`], and the end points and switches
    /// within the limits. Errors name `model.topology.k` or `model.topology.n`.
    ///
    /// 4-ary 3-tree: 64 end points, 48 switches of 8 ports, 192 links (with the end-point
    /// links); 24-ary 2-tree: 576 end points, 48 switches of 48 ports, 1152 links.
    pub fn tree(k: u32, n: u32) -> Result<Topology, TopologyError> {
        if !(2..=MAX_SWITCH_PORTS / 2).contains(&k) {
            return Err(TopologyError::new(
                "k",
                format!(
                    "must be from 2 to {} (switches have 2k ports, at most {MAX_SWITCH_PORTS}) (got {k})",
                    MAX_SWITCH_PORTS / 2
                ),
            ));
        }
        if n == 0 {
            return Err(TopologyError::new("n", "must be at least 1 stage (got 0)"));
        }
        let big = |e: u32| u64::from(k).checked_pow(e).unwrap_or(u64::MAX);
        let end_points = big(n);
        let switches = big(n - 1).saturating_mul(u64::from(n));
        check_size(end_points, switches, "n")?;
        let shape = TreeShape { k, n };
        let e = end_points as u32;
        let per_stage = shape.per_stage();
        let nodes: Vec<(u32, u32)> = (0..n)
            .flat_map(|t| (0..per_stage).map(move |_| (t + 1, 2 * k)))
            .collect();
        let mut topo = Topology::with_nodes(e, &nodes, Shape::Tree(shape));
        for i in 0..e {
            topo.connect(i, 0, shape.node(0, i / k), i % k)?;
        }
        for t in 0..n - 1 {
            for w in 0..per_stage {
                for j in 0..k {
                    let above = shape.with_digit(w, t, j);
                    let down = shape.digit(w, t);
                    topo.connect(shape.node(t, w), k + j, shape.node(t + 1, above), down)?;
                }
            }
        }
        Ok(topo)
    }
}

#[cfg(test)]
mod tests {
    use super::super::check::{bfs, connected, ports_used_once};
    use super::*;

    fn counts(t: &Topology) -> (u32, u32, usize, usize) {
        (
            t.end_points(),
            t.switches(),
            t.links().len(),
            ports_used_once(t),
        )
    }

    #[test]
    fn four_ary_three_tree() {
        let t = Topology::tree(4, 3).unwrap();
        // 64 end-point links + 2 x 64 between stages; the 16 top switches' up ports free.
        assert_eq!(counts(&t), (64, 48, 192, 16 * 4));
        for s in 0..48 {
            assert_eq!(t.ports(64 + s), 8);
            assert_eq!(t.level(64 + s), 1 + s / 16);
            assert_eq!(t.switch_node(s), 64 + s);
            assert_eq!(t.switch_of(64 + s), s);
            assert_eq!(t.kind(t.switch_node(s)), super::super::NodeKind::Switch);
        }
        assert!(connected(&t));
    }

    #[test]
    fn twenty_four_ary_two_tree() {
        let t = Topology::tree(24, 2).unwrap();
        assert_eq!(counts(&t), (576, 48, 1152, 24 * 24));
        assert!((0..48).all(|s| t.ports(576 + s) == 48));
        assert!(connected(&t));
    }

    /// The documented coverage rule agrees with the graph: the down-only reach of every
    /// switch, and every end point's distance to the others is twice its lowest common
    /// stage plus 2.
    #[test]
    fn coverage_and_distances() {
        for (k, n) in [(2, 1), (2, 4), (3, 3), (4, 2)] {
            let t = Topology::tree(k, n).unwrap();
            let shape = TreeShape { k, n };
            assert!(connected(&t));
            let d0 = bfs(&t, 0);
            for e in 1..t.end_points() {
                let common = (0..n).find(|&s| shape.covers(s, 0, e)).unwrap();
                assert_eq!(d0[e as usize], 2 * common + 2, "k {k} n {n} e {e}");
            }
            for node in t.end_points()..t.nodes() {
                let (s, w) = shape.position(node);
                assert_eq!(shape.node(s, w), node);
            }
        }
    }

    #[test]
    fn rejects_bad_parameters() {
        let field = |r: Result<Topology, TopologyError>| r.err().unwrap().field;
        assert_eq!(field(Topology::tree(1, 3)), "model.topology.k");
        assert_eq!(field(Topology::tree(33, 2)), "model.topology.k");
        assert_eq!(field(Topology::tree(4, 0)), "model.topology.n");
        let e = Topology::tree(32, 5).err().unwrap();
        assert_eq!(e.field, "model.topology.n");
        assert!(e.message.contains("end points"), "{}", e.message);
        assert!(Topology::tree(2, 10).is_ok());
    }
}
