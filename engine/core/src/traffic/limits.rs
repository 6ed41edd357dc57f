//! The limits of traffic configurations (a leaf: the configuration, its rules and every
//! generator read them; re-exported by `config`).

/// Most end points a traffic configuration may address.
pub const MAX_ENDPOINTS: u32 = 1 << 16;
/// Most packets per burst.
pub const MAX_BURST_PACKETS: u32 = 100_000;
/// Largest packet, frame MTU or fixed packet size, in bytes.
pub const MAX_PACKET_BYTES: u32 = 65_536;
/// Smallest MTU a video stream may be split with, in bytes.
pub const MIN_MTU_BYTES: u32 = 64;
/// Largest offered load per class and end point (fraction of the link).
pub const MAX_LOAD: f64 = 4.0;
/// Most connections one end point may open for one class.
pub const MAX_CONNECTIONS: u64 = 100_000;
/// Lowest and highest connection rate, in bits per second.
pub const MIN_RATE_BPS: u64 = 100;
/// Highest connection rate, in bits per second (1 Tb/s).
pub const MAX_RATE_BPS: u64 = 1_000_000_000_000;
/// Longest frame interval of a video stream, in microseconds (10 s).
pub const MAX_FRAME_INTERVAL_US: u32 = 10_000_000;
/// Longest GOP pattern.
pub const MAX_GOP_FRAMES: usize = 256;
/// Largest mean-size ratio of a frame type.
pub const MAX_FRAME_RATIO: f64 = 1.0e6;
/// Largest coefficient of variation of a synthetic frame size.
pub const MAX_VARIATION: f64 = 4.0;
/// Largest Zipf exponent.
pub const MAX_ZIPF_EXPONENT: f64 = 20.0;
