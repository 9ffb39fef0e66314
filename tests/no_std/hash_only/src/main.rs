//! Links ketama-core with no default features (no alloc, no std) into a binary that has
//! neither std nor Rust's `main`: the C runtime calls our `main` directly.
#![no_std]
#![no_main]

use ketama_core::Hash;

// The C library provides memcpy/memset/memcmp and the process entry point.
#[link(name = "c")]
extern "C" {}

/// The precompiled `core` references this even with `panic = "abort"`; nothing unwinds here.
#[no_mangle]
pub extern "C" fn rust_eh_personality() {}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

/// Exit status 0 when the known answers hold.
#[no_mangle]
pub extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
    let ok = Hash::Md5.hash(b"apple") == 3_195_025_439
        && Hash::OneAtATime.hash(b"apple") == 2_297_466_611
        && matches!(Hash::from_name("FNV1A_32_HASH"), Ok(h) if h.hash("café".as_bytes()) == 856_211_068);
    i32::from(!ok)
}
