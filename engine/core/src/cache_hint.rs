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
    prefetch_address(std::ptr::from_ref(value).cast::<u8>());
}

/// Starts bringing every cache line of `value` into the first-level data cache (a value
/// of several lines, all of which are read soon).
#[inline(always)]
pub fn prefetch_all<T: ?Sized>(value: &T) {
    const LINE: usize = 64;
    let start = std::ptr::from_ref(value).cast::<u8>();
    let mut offset = 0;
    while offset < std::mem::size_of_val(value) {
        prefetch_address(start.wrapping_add(offset));
        offset += LINE;
    }
}

/// The prefetch itself, of the line holding `address` (which need not be valid: a
/// prefetch never faults).
#[inline(always)]
fn prefetch_address(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` is a hint: it never faults and writes nothing, whatever the
    // address.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(address.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}
