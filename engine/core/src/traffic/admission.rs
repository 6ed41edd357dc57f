//! Admission control of connections: a reservation table over the links of a network.
//!
//! Each link has a capacity in bits per second. Class `c` may reserve at most
//! `floor(reserved[c] x capacity)` of every link, and all classes together at most
//! `floor(qos_cap x capacity)`. [`AdmissionTable::try_admit`] accepts a connection only if
//! every link of its path stays within both limits after adding the connection's rate,
//! and then reserves the rate on all of them (all or nothing). Rates and reservations are
//! integers (b/s), so the check is exact.
//!
//! Requests are answered in the order they are made; the caller makes them in a
//! deterministic order (see `connections::admit_round_robin`). A class without a
//! configured reservation, a path naming an unknown link, and an empty path with a
//! positive rate are refused.

use super::config::AdmissionConfig;

/// The reservation state of every link.
#[derive(Clone, Debug)]
pub struct AdmissionTable {
    /// Per class, the most it may reserve on each link (b/s).
    class_limit: Vec<Vec<u64>>,
    /// The most all classes together may reserve on each link (b/s).
    total_limit: Vec<u64>,
    /// Per class, what it has reserved on each link (b/s).
    reserved: Vec<Vec<u64>>,
    /// What all classes have reserved on each link (b/s).
    total: Vec<u64>,
    admitted: Vec<u64>,
    refused: Vec<u64>,
    /// Working space of [`AdmissionTable::try_admit`], zero between calls: per link,
    /// what the request being judged needs on it (the rate times the times its path
    /// takes the link).
    need: Vec<u64>,
}

fn fraction_of(fraction: f64, capacity: u64) -> u64 {
    let f = if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    // Floor: a reservation never exceeds the configured fraction.
    let v = libm::floor(f * capacity as f64);
    if v >= capacity as f64 {
        capacity
    } else {
        v as u64
    }
}

impl AdmissionTable {
    /// A table over links of the given capacities (b/s, indexed by link id).
    pub fn new(link_capacity_bps: &[u64], cfg: &AdmissionConfig) -> AdmissionTable {
        let links = link_capacity_bps.len();
        let classes = cfg.reserved.len();
        AdmissionTable {
            class_limit: cfg
                .reserved
                .iter()
                .map(|&f| {
                    link_capacity_bps
                        .iter()
                        .map(|&c| fraction_of(f, c))
                        .collect()
                })
                .collect(),
            total_limit: link_capacity_bps
                .iter()
                .map(|&c| fraction_of(cfg.qos_cap, c))
                .collect(),
            reserved: vec![vec![0; links]; classes],
            total: vec![0; links],
            admitted: vec![0; classes],
            refused: vec![0; classes],
            need: vec![0; links],
        }
    }

    /// Admits a connection of `rate_bps` of `class` over the links of `links` (a link may
    /// appear more than once: it then carries the rate once per appearance) if every link
    /// keeps the class within its reservation and the total within the QoS cap; reserves
    /// it and returns true, or changes nothing, counts a refusal and returns false (a class
    /// beyond the configured ones is refused without being counted).
    pub fn try_admit(&mut self, links: &[u32], class: u32, rate_bps: u64) -> bool {
        let c = class as usize;
        if c >= self.class_limit.len() {
            return false;
        }
        // What the path needs on each of its links, summed in `need` (a path may take a
        // link more than once): linear in the path, nothing allocated or sorted (a
        // scenario asks about hundreds of thousands of connections).
        let known = links.iter().all(|&l| (l as usize) < self.total.len());
        let ok = known && !(links.is_empty() && rate_bps > 0) && {
            for &l in links {
                let need = &mut self.need[l as usize];
                *need = need.saturating_add(rate_bps);
            }
            let fits = links.iter().all(|&l| {
                let (l, need) = (l as usize, self.need[l as usize]);
                self.reserved[c][l].saturating_add(need) <= self.class_limit[c][l]
                    && self.total[l].saturating_add(need) <= self.total_limit[l]
            });
            for &l in links {
                self.need[l as usize] = 0;
            }
            fits
        };
        if ok {
            for &l in links {
                self.reserved[c][l as usize] += rate_bps;
                self.total[l as usize] += rate_bps;
            }
            self.admitted[c] += 1;
        } else {
            self.refused[c] += 1;
        }
        ok
    }

    /// Among candidate paths, the one whose busiest link has the least total reservation
    /// (ties: the busiest link's class reservation, then the first path); None if empty.
    /// Used to route admitted connections over the least occupied path.
    pub fn least_occupied(&self, paths: &[&[u32]], class: u32) -> Option<usize> {
        let c = class as usize;
        let load = |p: &[u32]| -> (u64, u64) {
            p.iter()
                .map(|&l| {
                    let l = l as usize;
                    (
                        self.total.get(l).copied().unwrap_or(u64::MAX),
                        self.reserved
                            .get(c)
                            .and_then(|r| r.get(l))
                            .copied()
                            .unwrap_or(u64::MAX),
                    )
                })
                .max()
                .unwrap_or((0, 0))
        };
        (0..paths.len()).min_by_key(|&i| (load(paths[i]), i))
    }

    /// How occupied a path is: the highest fraction, over its links, of the reservable
    /// total already reserved (a link that admits nothing counts as full).
    pub fn occupancy(&self, path: &[u32]) -> f64 {
        self.occupancy_of(path.iter().copied())
    }

    /// [`AdmissionTable::occupancy`] of the links `links` yields.
    fn occupancy_of(&self, links: impl Iterator<Item = u32>) -> f64 {
        links
            .map(|l| {
                let limit = self.total_limit(l);
                if limit == 0 {
                    1.0
                } else {
                    self.total(l) as f64 / limit as f64
                }
            })
            .fold(0.0, f64::max)
    }

    /// The occupancy ([`AdmissionTable::occupancy`]) of each of one pair's candidate
    /// routes, judged on the links where they differ: a link every route takes (the
    /// source's and the destination's own links, say) cannot tell them apart, and once
    /// it is the busiest it would make every route look alike and the first one win.
    pub fn route_occupancies(&self, routes: &[Vec<u32>]) -> Vec<f64> {
        if routes.len() < 2 {
            // A lone route shares every link with itself: nothing to judge it on.
            return vec![0.0; routes.len()];
        }
        let shared = |l: &u32| routes.iter().all(|r| r.contains(l));
        routes
            .iter()
            .map(|r| self.occupancy_of(r.iter().copied().filter(|l| !shared(l))))
            .collect()
    }

    /// Bits per second reserved by `class` on `link`.
    pub fn reserved(&self, link: u32, class: u32) -> u64 {
        self.reserved
            .get(class as usize)
            .and_then(|r| r.get(link as usize))
            .copied()
            .unwrap_or(0)
    }

    /// Bits per second reserved by all classes on `link`.
    pub fn total(&self, link: u32) -> u64 {
        self.total.get(link as usize).copied().unwrap_or(0)
    }

    /// The most `class` may reserve on `link`.
    pub fn class_limit(&self, link: u32, class: u32) -> u64 {
        self.class_limit
            .get(class as usize)
            .and_then(|r| r.get(link as usize))
            .copied()
            .unwrap_or(0)
    }

    /// The most all classes together may reserve on `link`.
    pub fn total_limit(&self, link: u32) -> u64 {
        self.total_limit.get(link as usize).copied().unwrap_or(0)
    }

    /// Connections of `class` admitted so far.
    pub fn admitted(&self, class: u32) -> u64 {
        self.admitted.get(class as usize).copied().unwrap_or(0)
    }

    /// Connections of `class` refused so far.
    pub fn refused(&self, class: u32) -> u64 {
        self.refused.get(class as usize).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(reserved: Vec<f64>, cap: f64) -> AdmissionTable {
        AdmissionTable::new(
            &[1_000_000; 4],
            &AdmissionConfig {
                qos_cap: cap,
                reserved,
            },
        )
    }

    #[test]
    fn class_reservation_is_a_hard_limit() {
        let mut t = table(vec![0.25, 0.5], 1.0);
        // 250 000 b/s for class 0: exactly 5 connections of 50 000.
        for _ in 0..5 {
            assert!(t.try_admit(&[0, 1], 0, 50_000));
        }
        assert!(!t.try_admit(&[1, 2], 0, 50_000));
        assert!(
            t.try_admit(&[2, 3], 0, 50_000),
            "other links still have room"
        );
        assert!(
            t.try_admit(&[0, 1], 1, 500_000),
            "class 1 has its own share"
        );
        assert_eq!((t.admitted(0), t.refused(0)), (6, 1));
        assert_eq!(t.reserved(1, 0), 250_000);
        assert_eq!(
            t.reserved(2, 0),
            50_000,
            "a refused request reserves nothing"
        );
        assert_eq!(t.total(1), 750_000);
    }

    #[test]
    fn qos_cap_limits_the_sum_of_classes() {
        let mut t = table(vec![0.5, 0.5], 0.7);
        assert!(t.try_admit(&[0], 0, 500_000));
        assert!(!t.try_admit(&[0], 1, 300_000), "0.8 > 0.7");
        assert!(t.try_admit(&[0], 1, 200_000));
        assert_eq!(t.total(0), 700_000);
        assert_eq!(t.total_limit(0), 700_000);
    }

    #[test]
    fn repeated_links_and_bad_requests() {
        let mut t = table(vec![0.5], 1.0);
        assert!(!t.try_admit(&[0, 0], 0, 300_000), "600 000 on link 0");
        assert!(t.try_admit(&[0, 0], 0, 250_000));
        assert_eq!(t.reserved(0, 0), 500_000);
        assert!(!t.try_admit(&[9], 0, 1), "unknown link");
        assert!(!t.try_admit(&[1], 5, 1), "unknown class");
        assert!(!t.try_admit(&[], 0, 1), "empty path");
    }

    #[test]
    fn least_occupied_prefers_the_emptiest_busiest_link() {
        let mut t = table(vec![1.0], 1.0);
        assert!(t.try_admit(&[0], 0, 300_000));
        assert!(t.try_admit(&[2], 0, 100_000));
        let paths: [&[u32]; 3] = [&[0, 1], &[2, 3], &[1, 3]];
        assert_eq!(t.least_occupied(&paths, 0), Some(2));
        assert_eq!(t.least_occupied(&paths[..2], 0), Some(1));
        assert_eq!(t.least_occupied(&[], 0), None);
    }

    proptest::proptest! {
        /// `try_admit` agrees with a model that counts each link's uses in a map: a
        /// request is admitted when every link it takes `k` times has room for `k` times
        /// the rate in the class's share and in the total, and then reserves that much.
        #[test]
        fn admission_matches_a_per_link_model(
            requests in proptest::collection::vec(
                (proptest::collection::vec(0u32..5, 0..7), 0u32..2, 0u64..400_000),
                1..40,
            ),
        ) {
            let mut t = table(vec![0.5, 0.4], 0.8);
            let mut reserved = [[0u64; 4]; 2];
            let mut total = [0u64; 4];
            for (links, class, rate) in requests {
                let c = class as usize;
                let mut uses = std::collections::BTreeMap::new();
                for &l in &links {
                    *uses.entry(l as usize).or_insert(0u64) += 1;
                }
                let want = !(links.is_empty() && rate > 0)
                    && uses.iter().all(|(&l, &k)| {
                        l < 4
                            && reserved[c][l] + k * rate <= t.class_limit(l as u32, class)
                            && total[l] + k * rate <= t.total_limit(l as u32)
                    });
                proptest::prop_assert_eq!(t.try_admit(&links, class, rate), want);
                if want {
                    for (&l, &k) in &uses {
                        reserved[c][l] += k * rate;
                        total[l] += k * rate;
                    }
                }
                for l in 0..4u32 {
                    proptest::prop_assert_eq!(t.reserved(l, class), reserved[c][l as usize]);
                    proptest::prop_assert_eq!(t.total(l), total[l as usize]);
                }
            }
        }
    }

    #[test]
    fn routes_are_judged_on_the_links_they_do_not_share() {
        let mut t = table(vec![1.0], 1.0);
        assert!(t.try_admit(&[0], 0, 900_000));
        assert!(t.try_admit(&[1], 0, 500_000));
        assert!(t.try_admit(&[2], 0, 250_000));
        // Link 0 is the busiest but both routes take it.
        let routes = [vec![0, 1], vec![0, 2, 3]];
        assert_eq!(t.route_occupancies(&routes), vec![0.5, 0.25]);
        // A lone route shares all its links with itself, however busy they are.
        assert_eq!(t.route_occupancies(&routes[..1]), vec![0.0]);
        assert_eq!(t.route_occupancies(&[]), Vec::<f64>::new());
    }
}
