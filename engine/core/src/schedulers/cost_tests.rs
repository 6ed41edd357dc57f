//! The cost counters between two reads (`SchedulerCost::since`): the work done in
//! between, counter by counter (the per-interval cost shown to users).

use super::SchedulerCost;

#[test]
fn since_is_the_work_done_in_between_counter_by_counter() {
    let earlier = SchedulerCost {
        decisions: 1,
        entries_visited: 2,
        bitmap_words: 3,
        classes_examined: 4,
        tag_computations: 5,
        heap_operations: 6,
    };
    let later = SchedulerCost {
        decisions: 11,
        entries_visited: 22,
        bitmap_words: 33,
        classes_examined: 44,
        tag_computations: 55,
        heap_operations: 66,
    };
    assert_eq!(
        later.since(&earlier),
        SchedulerCost {
            decisions: 10,
            entries_visited: 20,
            bitmap_words: 30,
            classes_examined: 40,
            tag_computations: 50,
            heap_operations: 60,
        }
    );
    assert_eq!(later.since(&later), SchedulerCost::default());
}
