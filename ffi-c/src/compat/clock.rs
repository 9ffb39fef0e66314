//! The clock `ketama_get_server` reads on every call to decide when to look at its file.

#[cfg(target_os = "linux")]
use core::ffi::c_int;

/// Milliseconds on a monotonic clock, cheap enough for every `ketama_get_server`: Linux's
/// `CLOCK_MONOTONIC_COARSE` (read in user space through the vDSO, a few ns; it moves in ticks
/// of 1-10 ms, so "a second" is a second within one tick); elsewhere std's `Instant`.
#[cfg(target_os = "linux")]
pub(super) fn now_ms() -> u64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: core::ffi::c_long,
        tv_nsec: core::ffi::c_long,
    }
    extern "C" {
        fn clock_gettime(clock: c_int, tp: *mut Timespec) -> c_int;
    }
    const CLOCK_MONOTONIC_COARSE: c_int = 6;
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a writable timespec (`long` seconds and nanoseconds: the layout of
    // glibc's and musl's default `struct timespec`); the clock id is Linux's.
    if unsafe { clock_gettime(CLOCK_MONOTONIC_COARSE, &mut ts) } != 0 {
        return 0; // not seen on Linux since 2.6.32; 0 only delays the next look at the file
    }
    u64::try_from(ts.tv_sec).unwrap_or(0) * 1000
        + u64::try_from(ts.tv_nsec).unwrap_or(0) / 1_000_000
}

/// Milliseconds on a monotonic clock (std's `Instant`, from the first call).
#[cfg(not(target_os = "linux"))]
pub(super) fn now_ms() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(std::time::Instant::now);
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}
