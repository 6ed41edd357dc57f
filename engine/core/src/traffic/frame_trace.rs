//! Uploaded video frame-size traces: a plain-text format and its parser.
//!
//! Format (documented for users in `docs/traffic-formats.md`):
//! - one frame size per line, a whole number of bytes (`1` to [`MAX_FRAME_BYTES`]), in
//!   display order;
//! - `#` starts a comment that runs to the end of the line (whole-line or after a size);
//! - blank lines and spaces around a size are ignored; `\r\n` line ends are accepted;
//! - at least one and at most [`MAX_TRACE_FRAMES`] sizes; at most [`MAX_TRACE_CHARS`]
//!   characters of text.
//!
//! The frame rate is not part of the file: it is the stream's `frame_interval_us`. Every
//! error names the (1-based) line and the rule broken.

use std::fmt;
use std::sync::Arc;

use serde::Serialize;
use ts_rs::TS;

/// Largest frame, in bytes (4 MiB).
pub const MAX_FRAME_BYTES: u32 = 4 * 1024 * 1024;
/// Most frames in a trace.
pub const MAX_TRACE_FRAMES: usize = 1_000_000;
/// Longest trace text, in bytes (16 MiB).
pub const MAX_TRACE_CHARS: usize = 16 * 1024 * 1024;

/// A parsed frame-size trace. Cloning it shares the frames (every stream replaying a
/// trace holds the one copy, not its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameTrace {
    frames: Arc<[u32]>,
    total_bytes: u64,
}

/// Why a trace was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(rename = "FrameTraceError")]
pub struct TraceError {
    /// The 1-based line of the problem (None for the whole text).
    #[ts(type = "number | null")]
    pub line: Option<usize>,
    /// The rule broken, in words.
    pub message: String,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for TraceError {}

fn at(line: usize, message: String) -> TraceError {
    TraceError {
        line: Some(line),
        message,
    }
}

/// What the web's trace upload shows of a valid trace (the wasm `parse_frame_trace`).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct FrameTraceSummary {
    /// Frames in the trace.
    #[ts(type = "number")]
    pub frames: usize,
    /// Their total size in bytes.
    #[ts(type = "number")]
    pub total_bytes: u64,
    /// Mean frame size in bytes.
    pub mean_bytes: f64,
    /// Smallest frame in bytes.
    pub min_bytes: u32,
    /// Largest frame in bytes.
    pub max_bytes: u32,
    /// The unscaled rate at the frame interval asked for, b/s.
    #[ts(type = "number")]
    pub mean_rate_bps: u64,
}

/// The verdict on an uploaded trace: exactly one of `summary` and `error` is set.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct FrameTraceCheck {
    /// The summary of a valid trace.
    pub summary: Option<FrameTraceSummary>,
    /// Why the trace was refused (the line and the rule).
    pub error: Option<TraceError>,
}

impl FrameTraceCheck {
    /// Checks `text` as a trace played at one frame every `frame_interval_us`.
    pub fn of(text: &str, frame_interval_us: u32) -> FrameTraceCheck {
        match FrameTrace::parse(text) {
            Ok(trace) => {
                let frames = trace.frames();
                FrameTraceCheck {
                    summary: Some(FrameTraceSummary {
                        frames: trace.len(),
                        total_bytes: trace.total_bytes(),
                        mean_bytes: trace.total_bytes() as f64 / trace.len().max(1) as f64,
                        min_bytes: frames.iter().copied().min().unwrap_or(0),
                        max_bytes: frames.iter().copied().max().unwrap_or(0),
                        mean_rate_bps: trace.mean_rate_bps(frame_interval_us),
                    }),
                    error: None,
                }
            }
            Err(e) => FrameTraceCheck {
                summary: None,
                error: Some(e),
            },
        }
    }
}

impl FrameTrace {
    /// Parses a trace (see the module documentation for the format).
    pub fn parse(text: &str) -> Result<FrameTrace, TraceError> {
        let text = crate::text::strip_bom(text);
        if text.len() > MAX_TRACE_CHARS {
            return Err(TraceError {
                line: None,
                message: format!(
                    "the trace is {} bytes long, more than the limit of {MAX_TRACE_CHARS}",
                    text.len()
                ),
            });
        }
        let mut frames = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            if !content.bytes().all(|b| b.is_ascii_digit()) {
                let shown: String = content.chars().take(40).collect();
                return Err(at(
                    line,
                    format!(
                        "\"{shown}\" is not a frame size: write one whole number of bytes per line (comments start with #)"
                    ),
                ));
            }
            let size = content.parse::<u64>().unwrap_or(u64::MAX);
            if size == 0 {
                return Err(at(
                    line,
                    format!(
                        "a frame of 0 bytes is not allowed (sizes are 1 to {MAX_FRAME_BYTES} bytes)"
                    ),
                ));
            }
            if size > u64::from(MAX_FRAME_BYTES) {
                return Err(at(
                    line,
                    format!(
                        "{content} bytes is larger than the largest frame allowed ({MAX_FRAME_BYTES} bytes)"
                    ),
                ));
            }
            if frames.len() == MAX_TRACE_FRAMES {
                return Err(at(
                    line,
                    format!("the trace has more than {MAX_TRACE_FRAMES} frames"),
                ));
            }
            frames.push(size as u32);
        }
        if frames.is_empty() {
            return Err(TraceError {
                line: None,
                message: "the trace holds no frame sizes (only blank or comment lines)".into(),
            });
        }
        let total_bytes = frames.iter().map(|&f| u64::from(f)).sum();
        Ok(FrameTrace {
            frames: frames.into(),
            total_bytes,
        })
    }

    /// The frame sizes, in bytes.
    pub fn frames(&self) -> &[u32] {
        &self.frames
    }

    /// The frame sizes, shared (a clone of the one copy).
    pub fn shared_frames(&self) -> Arc<[u32]> {
        Arc::clone(&self.frames)
    }

    /// Number of frames.
    pub fn len(&self) -> usize {
        self.frames.len()
    }

    /// Whether the trace has no frames (never true for a parsed trace).
    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// Sum of all frame sizes, in bytes.
    pub fn total_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Mean rate of the trace replayed unscaled with one frame every `frame_interval_us`,
    /// in bits per second (rounded to the nearest; 0 for a zero interval).
    pub fn mean_rate_bps(&self, frame_interval_us: u32) -> u64 {
        let den = self.frames.len() as u128 * u128::from(frame_interval_us);
        if den == 0 {
            return 0;
        }
        let num = u128::from(self.total_bytes) * 8 * 1_000_000;
        u64::try_from((num + den / 2) / den).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sizes_comments_and_blank_lines() {
        let t = FrameTrace::parse("# a trace\n\n 1200 \r\n300 # B frame\n\t450\n").unwrap();
        assert_eq!(t.frames(), &[1200, 300, 450]);
        assert_eq!(t.total_bytes(), 1950);
        // 650 B per 40 ms = 130 000 b/s.
        assert_eq!(t.mean_rate_bps(40_000), 130_000);
    }

    #[test]
    fn errors_name_the_line_and_rule() {
        let cases = [
            ("", None, "no frame sizes"),
            ("# only\n\n", None, "no frame sizes"),
            ("10\n-5\n", Some(2), "not a frame size"),
            ("10\n12.5\n", Some(2), "not a frame size"),
            ("10 20\n", Some(1), "not a frame size"),
            ("1\n2\n0\n", Some(3), "0 bytes"),
            ("4194305\n", Some(1), "larger than"),
            ("99999999999999999999999\n", Some(1), "larger than"),
        ];
        for (text, line, rule) in cases {
            let e = FrameTrace::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(rule), "{text:?}: {e}");
        }
        assert!(
            FrameTrace::parse("x")
                .unwrap_err()
                .to_string()
                .starts_with("line 1: ")
        );
    }

    #[test]
    fn too_many_frames_is_refused_at_the_first_extra_line() {
        let text = "1\n".repeat(MAX_TRACE_FRAMES + 1);
        let e = FrameTrace::parse(&text).unwrap_err();
        assert_eq!(e.line, Some(MAX_TRACE_FRAMES + 1));
        assert!(FrameTrace::parse(&"1\n".repeat(MAX_TRACE_FRAMES)).is_ok());
    }

    #[test]
    fn too_long_text_is_refused() {
        let text = " ".repeat(MAX_TRACE_CHARS + 1);
        assert_eq!(FrameTrace::parse(&text).unwrap_err().line, None);
    }
}
