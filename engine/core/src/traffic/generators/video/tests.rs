//! Tests of the video model.

use super::*;
use crate::rng::{RngStreams, StreamId};

fn vi(variation: f64) -> VideoConfig {
    VideoConfig {
        rate_bps: 3_000_000,
        frame_interval_us: 40_000,
        gop: "IBBPBBPBBPBB".into(),
        i_ratio: 10.0,
        p_ratio: 4.0,
        b_ratio: 1.0,
        variation,
        mtu_bytes: 2048,
    }
}

fn rngs(seed: u64) -> (RngStream, RngStream) {
    let s = RngStreams::new(seed);
    (s.stream(StreamId::Phase(0)), s.stream(StreamId::Sizes(0)))
}

/// Packets of the first `count` whole frames, grouped by frame (frame `f` of the result
/// starts at `phase + f x interval`; the frame under way at time zero, whose packets
/// before zero are skipped, is left out).
fn frames(stream: &mut VideoStream, count: usize) -> Vec<Vec<(u64, u32)>> {
    let interval = stream.interval_ps();
    let phase = stream.phase_ps;
    let mut out: Vec<Vec<(u64, u32)>> = vec![Vec::new(); count];
    loop {
        let (t, b) = stream.next_packet().unwrap();
        let f = ((t.as_ps() + interval - phase) / interval) as usize;
        if f == 0 {
            continue;
        }
        if f > count {
            return out;
        }
        out[f - 1].push((t.as_ps(), b));
    }
}

/// Streams are under way at time zero: the first packet comes before the phase (in
/// the frame that started one interval earlier), and many streams together offer
/// their mean rate over the first interval as over the second (no ramp-up).
#[test]
fn streams_are_under_way_at_time_zero() {
    let s = RngStreams::new(11);
    let mut p = s.stream(StreamId::Phase(0));
    let interval = 40_000_000_000u64;
    let mut windows = [0u64; 2];
    let mut early = 0;
    for i in 0..1000 {
        let mut v = VideoStream::synthetic(&vi(0.3), &mut p, s.stream(StreamId::Sizes(i))).unwrap();
        let phase = v.phase_ps;
        let (first, first_bytes) = v.next_packet().unwrap();
        if first.as_ps() < phase {
            early += 1;
        }
        let (mut t, mut b) = (first, first_bytes);
        while t.as_ps() < 2 * interval {
            windows[(t.as_ps() / interval) as usize] += u64::from(b);
            (t, b) = v.next_packet().unwrap();
        }
    }
    // A stream starts before its phase unless every packet of its frame under way
    // fell before zero (probability 1/n for a frame of n packets; frames here have
    // 3 to 30 packets).
    assert!(early > 600, "{early} of 1000 streams start mid-frame");
    // 1000 streams x 15 000 B per frame on average.
    for (w, &bytes) in windows.iter().enumerate() {
        let ratio = bytes as f64 / 15.0e6;
        assert!((ratio - 1.0).abs() < 0.1, "interval {w}: {ratio}");
    }
}

#[test]
fn mean_sizes_give_exactly_the_rate() {
    let m = gop_mean_sizes(&vi(0.3));
    // 3 Mb/s x 0.48 s / 8 = 180 000 B per GOP; ratios sum 10 + 3x4 + 8x1 = 30.
    assert!((m.iter().sum::<f64>() - 180_000.0).abs() < 1e-6);
    assert!((m[0] - 60_000.0).abs() < 1e-9 && (m[3] - 24_000.0).abs() < 1e-9);
    assert!((m[1] - 6_000.0).abs() < 1e-9);
}

#[test]
fn without_variation_frames_follow_the_gop_exactly() {
    let (mut p, s) = rngs(1);
    let mut v = VideoStream::synthetic(&vi(0.0), &mut p, s).unwrap();
    let fr = frames(&mut v, 24);
    let sizes: Vec<u64> = fr
        .iter()
        .map(|f| f.iter().map(|x| u64::from(x.1)).sum())
        .collect();
    let i = sizes.iter().position(|&s| s == 60_000).unwrap();
    for (k, &s) in sizes.iter().enumerate() {
        let expect = match (k + 12 - i % 12) % 12 {
            0 => 60_000,
            3 | 6 | 9 => 24_000,
            _ => 6_000,
        };
        assert_eq!(s, expect, "frame {k}");
    }
}

#[test]
fn frames_are_split_into_mtu_packets_spread_over_the_frame() {
    let (mut p, s) = rngs(2);
    let mut v = VideoStream::synthetic(&vi(0.5), &mut p, s).unwrap();
    let interval = v.interval_ps();
    let phase = v.phase_ps;
    assert!(phase < interval);
    let mut last = 0;
    for (f, packets) in frames(&mut v, 200).iter().enumerate() {
        let n = packets.len() as u64;
        let total: u64 = packets.iter().map(|x| u64::from(x.1)).sum();
        assert_eq!(n, total.div_ceil(2048));
        let start = phase + f as u64 * interval;
        assert!(!packets.is_empty());
        for (j, &(t, b)) in packets.iter().enumerate() {
            assert!(t >= last, "time order");
            last = t;
            assert_eq!(t, start + j as u64 * interval / n);
            if (j as u64) + 1 < n {
                assert_eq!(b, 2048);
            } else {
                assert!((1..=2048).contains(&b));
            }
        }
    }
}

#[test]
fn long_run_rate_is_the_configured_rate() {
    for (seed, cv) in [(3, 0.0), (4, 0.3), (5, 1.0)] {
        let (mut p, s) = rngs(seed);
        let mut v = VideoStream::synthetic(&vi(cv), &mut p, s).unwrap();
        let n = 30_000; // 20 minutes of video
        let bytes: u64 = frames(&mut v, n)
            .iter()
            .flatten()
            .map(|x| u64::from(x.1))
            .sum();
        let rate = rate_bps(bytes, n as u64 * v.interval_ps());
        let tol = if cv > 0.5 { 0.03 } else { 0.01 };
        assert!((rate / 3.0e6 - 1.0).abs() < tol, "cv {cv}: {rate} b/s");
    }
}

#[test]
fn variation_gives_the_coefficient_of_variation() {
    let (mut p, s) = rngs(6);
    let mut cfg = vi(0.4);
    cfg.gop = "P".into();
    let mut v = VideoStream::synthetic(&cfg, &mut p, s).unwrap();
    let sizes: Vec<f64> = frames(&mut v, 40_000)
        .iter()
        .map(|f| f.iter().map(|x| f64::from(x.1)).sum())
        .collect();
    let mean = sizes.iter().sum::<f64>() / sizes.len() as f64;
    let var = sizes.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / sizes.len() as f64;
    let cv = var.sqrt() / mean;
    assert!((mean / 15_000.0 - 1.0).abs() < 0.01, "mean {mean}");
    assert!((cv - 0.4).abs() < 0.02, "cv {cv}");
}

#[test]
fn trace_replays_cyclically_scaled_or_not() {
    let trace = FrameTrace::parse("1000\n3000\n500\n").unwrap();
    let (mut p, _) = rngs(7);
    let mut v = VideoStream::trace(&trace, 40_000, None, 1024, &mut p);
    let sizes: Vec<u64> = frames(&mut v, 9)
        .iter()
        .map(|f| f.iter().map(|x| u64::from(x.1)).sum())
        .collect();
    let start = [1000, 3000, 500]
        .iter()
        .position(|&s| s == sizes[0])
        .unwrap();
    for (k, &s) in sizes.iter().enumerate() {
        assert_eq!(s, [1000u64, 3000, 500][(start + k) % 3]);
    }
    // Scaled to 100 kb/s: a mean of 500 B per 40 ms frame (x 1/3: 333.3, 1000, 166.7).
    let mut v = VideoStream::trace(&trace, 40_000, Some(100_000), 1024, &mut p);
    let fr = frames(&mut v, 3000);
    let total: u64 = fr.iter().flatten().map(|x| u64::from(x.1)).sum();
    assert!(total.abs_diff(1_500_000) <= 1, "{total}");
    let first: u64 = fr[..3].iter().flatten().map(|x| u64::from(x.1)).sum();
    assert!(first.abs_diff(1500) <= 1);
}
