//! The other schedulers' parameters for any positive shares (`shared/spec/20-table-design.md`,
//! "Equivalent parameters"): shares need not add up to 1, only their ratios count.

use super::*;

#[test]
fn only_the_ratios_of_the_shares_count() {
    let names = ["A".to_string(), "B".to_string()];
    // 1 : 3 over 8 WF2Q entries: 2 and 6; DRR quanta in the same ratio from the smaller
    // class's MTU (2 credits per unit of share): 2 and 6 credits.
    let e = equivalents(&names, &[1.0, 3.0], &[2, 2], 8, 32).unwrap();
    let got: Vec<(u64, u64, f64)> = e
        .classes
        .iter()
        .map(|c| (c.wf2q_entries, c.drr_quantum_credits, c.scfq_weight))
        .collect();
    assert_eq!(got, vec![(2, 2, 1.0), (6, 6, 3.0)]);
    assert_eq!(e.wf2q_table.len(), 8);
    assert_eq!(e.wf2q_table.iter().filter(|t| t.class == "A").count(), 2);
    assert!(e.wf2q_table.iter().all(|t| t.weight == Some(32)));
    // The same shares scaled give the same table and quanta.
    let scaled = equivalents(&names, &[0.25, 0.75], &[2, 2], 8, 32).unwrap();
    assert_eq!(scaled.wf2q_table, e.wf2q_table);
    let quanta: Vec<u64> = scaled
        .classes
        .iter()
        .map(|c| c.drr_quantum_credits)
        .collect();
    assert_eq!(quanta, vec![2, 6]);
}
