//! `qoslab bench --repeat N [--ratio A/B]`: several runs of each scenario reduced to
//! one row (the median run, with the fastest and slowest), and one scenario's ns per
//! event over another's, round by round. On a machine shared with other tenants a
//! large network's single run can move by a fifth while a small one's holds (see
//! docs/performance.md, nineteenth stop): rounds that run both scenarios minutes
//! apart, and the median of their ratios, are the paired figure.

use serde::Serialize;

use super::Row;

/// One scenario's ns per event over another's, round by round.
#[derive(Debug, Serialize)]
pub struct Ratio {
    /// The scenario divided by.
    pub against: &'static str,
    /// Rounds (ratios) summarised.
    pub rounds: usize,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

/// The positions among `names` of the two scenarios `spec` (`A/B`) names; a message
/// naming the option and the rule when it does not name two different chosen ones.
pub fn ratio_pair(spec: &str, names: &[&str]) -> Result<(usize, usize), String> {
    let Some((a, b)) = spec.split_once('/') else {
        return Err(format!(
            "--ratio `{spec}`: expected two scenario names as A/B"
        ));
    };
    let find = |name: &str| {
        names.iter().position(|n| *n == name).ok_or_else(|| {
            format!(
                "--ratio: `{name}` is not one of the scenarios chosen ({})",
                names.join(", ")
            )
        })
    };
    let (a, b) = (find(a)?, find(b)?);
    if a == b {
        return Err(format!("--ratio `{spec}`: the two scenarios must differ"));
    }
    Ok((a, b))
}

/// The median of `values` (the mean of the two middle ones for an even count); 0 when
/// there are none.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// The smallest and largest of `values` (infinities when there are none).
fn range(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        })
}

/// Round by round, `a`'s ns per event over `b`'s (`b` named `against`).
pub fn ratio(against: &'static str, a: &[Row], b: &[Row]) -> Ratio {
    let ratios: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(a, b)| a.ns_per_event / b.ns_per_event)
        .collect();
    let (min, max) = range(&ratios);
    Ratio {
        against,
        rounds: ratios.len(),
        median: median(&ratios),
        min,
        max,
    }
}

/// One scenario's runs as one row: the median time (and the rates it gives), the
/// fastest and slowest runs' ns per event, the highest peak. The runs are of one
/// deterministic scenario, so their counts agree.
pub fn summarize(runs: Vec<Row>) -> Row {
    let ns: Vec<f64> = runs.iter().map(|r| r.ns_per_event).collect();
    let seconds = median(&runs.iter().map(|r| r.seconds).collect::<Vec<_>>());
    let peak = runs.iter().filter_map(|r| r.peak_mib).reduce(f64::max);
    let count = runs.len();
    let mut row = runs
        .into_iter()
        .next()
        .expect("at least one run per scenario");
    row.seconds = seconds;
    row.events_per_s = row.events as f64 / seconds;
    row.packet_hops_per_s = row.packet_hops.map(|h| h as f64 / seconds);
    row.ns_per_event = seconds * 1e9 / row.events.max(1) as f64;
    (row.ns_per_event_min, row.ns_per_event_max) = range(&ns);
    row.peak_mib = peak;
    row.runs = count;
    row
}

#[cfg(test)]
mod tests {
    use super::{median, ratio_pair};

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn ratio_names_two_different_chosen_scenarios() {
        let names = ["min64-0.5", "min1024"];
        assert_eq!(ratio_pair("min1024/min64-0.5", &names), Ok((1, 0)));
        for bad in ["min1024", "min1024/min4096", "min1024/min1024", "/min1024"] {
            let e = ratio_pair(bad, &names).unwrap_err();
            assert!(e.starts_with("--ratio"), "{e}");
        }
    }
}
