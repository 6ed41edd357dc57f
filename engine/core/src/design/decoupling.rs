//! The decoupling methodology (`shared/spec/20-table-design.md` §2): the entry-weight
//! maximum `M = GMTU * w`, the pool `N * GMTU * k`, the share range of each class, and the
//! search for `w` and `k` in integer tenths.
//!
//! `w` and `k` are held as integer tenths so the search steps are exact. Products with a
//! fractional result are rounded down: `M = floor(GMTU * w)` (then capped by the
//! technology's weight field) and `pool = floor(N * GMTU * k)`.

use crate::error::EngineError;

/// What the search needs of one class.
#[derive(Clone, Debug)]
pub struct ClassNeed {
    /// Entries of the class in the table (`n_i >= 1`).
    pub entries: u64,
    /// Class MTU in credits (`>= 1`).
    pub mtu: u64,
    /// Share of the pool to reach (target, after leftover bandwidth is assigned).
    pub share: f64,
}

/// A feasible `(w, k)` and what follows from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoupling {
    /// `w` in tenths.
    pub w_tenths: u32,
    /// `k` in tenths.
    pub k_tenths: u32,
    /// Total weight distributed.
    pub pool: u64,
    /// Largest weight of one entry.
    pub max_entry_weight: u64,
    /// Weight total of each class (adds up to `pool`).
    pub totals: Vec<u64>,
}

/// `floor(N * GMTU * k)` for `k` in tenths.
pub fn pool(entries: u64, gmtu: u64, k_tenths: u32) -> u64 {
    entries * gmtu * u64::from(k_tenths) / 10
}

/// `min(floor(GMTU * w), cap)` for `w` in tenths.
pub fn max_entry_weight(gmtu: u64, w_tenths: u32, cap: u64) -> u64 {
    (gmtu * u64::from(w_tenths) / 10).min(cap)
}

/// `min_phi = n * MTU / pool`.
pub fn min_share(need: &ClassNeed, pool: u64) -> f64 {
    (need.entries * need.mtu) as f64 / pool.max(1) as f64
}

/// `max_phi = n * M / pool`.
pub fn max_share(need: &ClassNeed, pool: u64, max_entry_weight: u64) -> f64 {
    (need.entries * max_entry_weight) as f64 / pool.max(1) as f64
}

/// Tolerance of share comparisons (shares are read from decimal JSON).
const EPS: f64 = 1e-9;

/// `n * MTU <= share * pool` (the class's minimum is reachable).
fn min_ok(need: &ClassNeed, pool: u64) -> bool {
    pool > 0 && (need.entries * need.mtu) as f64 <= need.share * pool as f64 + EPS
}

/// The integer totals of each class for a pool (largest remainder within the minimums).
fn totals(needs: &[ClassNeed], pool: u64) -> Vec<u64> {
    let quotas: Vec<f64> = needs.iter().map(|c| c.share * pool as f64).collect();
    let lower: Vec<u64> = needs.iter().map(|c| c.entries * c.mtu).collect();
    super::apportion::apportion(pool, &quotas, &lower, &vec![pool; needs.len()])
}

/// Smallest `w` in tenths for which `floor(GMTU * w)` reaches the cap.
pub fn cap_tenths(gmtu: u64, cap: u64) -> u32 {
    u32::try_from((cap * 10).div_ceil(gmtu.max(1))).unwrap_or(u32::MAX)
}

/// The spec's search: the smallest `k` (from 0.1, steps of 0.1) with `min_phi_i <= wanted_i`
/// for every class, then the smallest `w >= k` with `max_phi_i >= wanted_i` and
/// `ceil(T_i / n_i) <= M` for every class. A given `w` or `k` is used as is (and checked).
/// Neither goes beyond the `w` at which `M` reaches `cap` (a larger `w` changes nothing,
/// and `k <= w`). Errors name `classes[i].share` (or `w`/`k` when given) and say why.
pub fn search(
    needs: &[ClassNeed],
    entries: u64,
    gmtu: u64,
    cap: u64,
    given_w: Option<u32>,
    given_k: Option<u32>,
) -> Result<Decoupling, EngineError> {
    let top = cap_tenths(gmtu, cap)
        .max(given_w.unwrap_or(0))
        .max(given_k.unwrap_or(0));
    let k_range = match given_k {
        Some(k) => k..=k,
        None => 1..=given_w.unwrap_or(top),
    };
    let mut k_found = None;
    for k in k_range.clone() {
        if needs.iter().all(|c| min_ok(c, pool(entries, gmtu, k))) {
            k_found = Some(k);
            break;
        }
    }
    let Some(k) = k_found else {
        let k = *k_range.end();
        let p = pool(entries, gmtu, k);
        let (i, c) = needs
            .iter()
            .enumerate()
            .find(|(_, c)| !min_ok(c, p))
            .unwrap_or((0, &needs[0]));
        return Err(EngineError::invalid(
            if given_k.is_some() {
                "k".to_string()
            } else {
                format!("classes[{i}].share")
            },
            format!(
                "class {i} wants share {} but its {} entries of at least its MTU ({} credits) \
                 already take {:.6} of the pool of {p} (k = {}){}; raise the share, lower \
                 mtu_bytes, or raise the distance (fewer entries)",
                c.share,
                c.entries,
                c.mtu,
                min_share(c, p),
                f64::from(k) / 10.0,
                if given_k.is_some() {
                    ""
                } else {
                    " even at the largest k searched"
                }
            ),
        ));
    };
    let p = pool(entries, gmtu, k);
    let t = totals(needs, p);
    let fits = |m: u64| {
        needs.iter().zip(&t).all(|(c, &ti)| {
            c.entries * m >= ti && c.share * p as f64 <= (c.entries * m) as f64 + EPS
        })
    };
    let w_range = match given_w {
        Some(w) => w..=w,
        None => k..=top.max(k),
    };
    for w in w_range.clone() {
        let m = max_entry_weight(gmtu, w, cap);
        if fits(m) {
            return Ok(Decoupling {
                w_tenths: w,
                k_tenths: k,
                pool: p,
                max_entry_weight: m,
                totals: t,
            });
        }
    }
    let w = *w_range.end();
    let m = max_entry_weight(gmtu, w, cap);
    let (i, c) = needs
        .iter()
        .enumerate()
        .zip(&t)
        .find(|((_, c), ti)| c.entries * m < **ti)
        .map(|(ic, _)| ic)
        .unwrap_or((0, &needs[0]));
    Err(EngineError::invalid(
        if given_w.is_some() {
            "w".to_string()
        } else {
            format!("classes[{i}].share")
        },
        format!(
            "class {i} wants share {} of the pool of {p} (k = {}) but its {} entries of at most \
             {m} credits each (w = {}{}) carry at most {:.6}; lower the share, lower the \
             distance (more entries), or use a technology with a wider weight field",
            c.share,
            f64::from(k) / 10.0,
            c.entries,
            f64::from(w) / 10.0,
            if m == cap {
                ", the weight field's limit"
            } else {
                ""
            },
            max_share(c, p, m)
        ),
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    pub(super) fn vector() -> Vec<ClassNeed> {
        let rows = [
            (32, 3, 0.09375),
            (16, 3, 0.046875),
            (8, 32, 0.5),
            (4, 32, 0.203125),
            (2, 16, 0.09375),
            (1, 16, 0.046875),
            (1, 16, 0.015625),
        ];
        rows.iter()
            .map(|&(entries, mtu, share)| ClassNeed {
                entries,
                mtu,
                share,
            })
            .collect()
    }

    /// The spec's vector: k = 0.4 gives pool floor(819.2) = 819 and NC's minimum 96/819 >
    /// 0.09375; k = 0.5 (pool 1024) meets every minimum (NC and BK exactly). VI needs
    /// 8 M >= 512, so M = 64 and w = 2.0.
    #[test]
    fn search_finds_the_public_vector() {
        let d = search(&vector(), 64, 32, 65535, None, None).unwrap();
        assert_eq!(
            (d.w_tenths, d.k_tenths, d.pool, d.max_entry_weight),
            (20, 5, 1024, 64)
        );
        assert_eq!(d.totals, vec![96, 48, 512, 208, 96, 48, 16]);
        assert_eq!(pool(64, 32, 4), 819);
    }

    #[test]
    fn given_values_are_checked() {
        assert!(search(&vector(), 64, 32, 65535, Some(20), Some(5)).is_ok());
        let Err(EngineError::Invalid { errors }) =
            search(&vector(), 64, 32, 65535, Some(19), Some(5))
        else {
            panic!("accepted");
        };
        assert_eq!(errors[0].path, "w");
        let Err(EngineError::Invalid { errors }) = search(&vector(), 64, 32, 65535, None, Some(4))
        else {
            panic!("accepted");
        };
        assert_eq!(errors[0].path, "k");
    }

    #[test]
    fn weight_field_cap_names_the_class() {
        // VI needs M >= 64 but the field holds 60.
        let Err(EngineError::Invalid { errors }) = search(&vector(), 64, 32, 60, None, None) else {
            panic!("accepted");
        };
        assert_eq!(errors[0].path, "classes[2].share");
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
#[path = "decoupling_edge_tests.rs"]
mod edge_tests;
