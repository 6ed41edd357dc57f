//! Cache hints: telling the processor which memory will be read soon, so that a read the
//! simulation cannot avoid (a packet that has waited in a queue long enough to leave the
//! cache) overlaps with other work instead of stalling it. A hint changes no value and no
//! result, only when memory arrives.
//!
//! This is the crate's one `unsafe` block: the x86-64 prefetch instruction is exposed by
//! `std::arch` as an `unsafe` intrinsic although it never faults nor reads into the program
//! (the pointer given here comes from a reference, so it is valid anyway). On targets
//! without it (WebAssembly has no prefetch) the hint does nothing: a plain load there
//! measured no gain (R2 at 30 ms, eleventh stop in `docs/performance.md`).

/// Whether [`prefetch`] does anything on this target (work done only to give a hint can
/// be skipped where it does not).
pub const AVAILABLE: bool = cfg!(target_arch = "x86_64");

/// Starts bringing the cache line holding the start of `value` into the first-level data
/// cache.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` is a hint: it never faults and writes nothing, and the
    // pointer comes from a live reference.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            std::ptr::from_ref(value).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
