//! The `w`/`k` search on small hand-worked cases (`shared/spec/20-table-design.md` §2):
//! `w` must also give every class its wanted share at most (`max_phi_i >= wanted_i`), not
//! only room for its total, and the errors name the class that breaks the rule.

use super::*;

fn need(entries: u64, share: f64) -> ClassNeed {
    ClassNeed {
        entries,
        mtu: 1,
        share,
    }
}

/// Two classes wanting half each, 2 entries and 1 entry, GMTU 6 credits.
/// k: pool(3, 6, k) = floor(1.8 k): 1, 3, 5; class 0's minimum 2 <= 0.5 x pool first at
/// k = 0.3 (pool 5). Totals: quotas 2.5 and 2.5, the unit to class 0 (ties to the lower
/// index): 3 and 2. w from 0.3: M = floor(0.6 w) = 1, 2, 3. At M = 2 both totals fit
/// (4 >= 3, 2 >= 2) but class 1 can reach only 2/5 = 0.4 of the pool, below its 0.5: so
/// w = 0.5, M = 3.
#[test]
fn w_also_gives_every_class_its_wanted_share_at_most() {
    let d = search(&[need(2, 0.5), need(1, 0.5)], 3, 6, 65535, None, None).unwrap();
    assert_eq!(
        (d.k_tenths, d.pool, d.w_tenths, d.max_entry_weight),
        (3, 5, 5, 3)
    );
    assert_eq!(d.totals, vec![3, 2]);
    assert!(max_share(&need(1, 0.5), d.pool, d.max_entry_weight) >= 0.5);
}

/// With `w` = 0.4 given the search refuses, naming `w`.
#[test]
fn a_given_w_below_the_wanted_share_is_refused() {
    let Err(EngineError::Invalid { errors }) =
        search(&[need(2, 0.5), need(1, 0.5)], 3, 6, 65535, Some(4), None)
    else {
        panic!("accepted");
    };
    assert_eq!(errors[0].path, "w");
}

/// The spec's vector with `w` = 0.4 given: `k` can go up to 0.4 only, where the pool is 819
/// and NC's (class 0's) minimum 96 credits is above 0.09375 x 819: NC is named, the first
/// class whose minimum is out of reach.
#[test]
fn the_k_error_names_the_first_class_whose_minimum_is_out_of_reach() {
    let needs = super::tests::vector();
    let Err(EngineError::Invalid { errors }) = search(&needs, 64, 32, 65535, Some(4), None) else {
        panic!("accepted");
    };
    assert_eq!(errors[0].path, "classes[0].share");
    assert!(
        errors[0].message.starts_with("class 0 wants share 0.09375"),
        "{}",
        errors[0].message
    );
}

/// Weights capped at 1, GMTU 15 credits: `w` beyond 0.1 changes nothing, so k = 0.1, pool
/// floor(2 x 15 x 0.1) = 3, totals 1 and 2 (quotas exactly 1 and 2). Class 0's one entry
/// of weight 1 carries its total exactly; class 1's cannot carry 2: class 1 is named.
#[test]
fn the_w_error_names_the_class_whose_total_does_not_fit() {
    let Err(EngineError::Invalid { errors }) = search(
        &[need(1, 1.0 / 3.0), need(1, 2.0 / 3.0)],
        2,
        15,
        1,
        None,
        None,
    ) else {
        panic!("accepted");
    };
    assert_eq!(errors[0].path, "classes[1].share");
    assert!(
        errors[0].message.starts_with("class 1 wants share"),
        "{}",
        errors[0].message
    );
}
