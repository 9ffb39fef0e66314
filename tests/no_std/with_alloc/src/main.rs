//! Builds a libketama ring with ketama-core's `alloc` feature only: no std anywhere. The
//! allocator is a bump allocator over a static arena (enough for this one ring).
#![no_std]
#![no_main]

extern crate alloc;

use core::alloc::{GlobalAlloc, Layout};
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicUsize, Ordering};

use ketama_core::{Profile, Ring, Server};

const ARENA: usize = 1 << 20;

struct Bump {
    arena: UnsafeCell<[u8; ARENA]>,
    next: AtomicUsize,
}

// SAFETY: `next` is advanced atomically, so concurrent callers get disjoint ranges of the arena.
unsafe impl Sync for Bump {}

// SAFETY: every returned block is inside the arena, aligned as asked, and never handed out
// twice; null when the arena is exhausted, as GlobalAlloc allows. Memory is never reused.
unsafe impl GlobalAlloc for Bump {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let base = self.arena.get() as usize;
        let mut start = 0;
        let claimed = self.next.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |next| {
            start = (base + next).next_multiple_of(layout.align()) - base;
            let end = start.checked_add(layout.size())?;
            (end <= ARENA).then_some(end)
        });
        match claimed {
            Ok(_) => (base + start) as *mut u8,
            Err(_) => core::ptr::null_mut(),
        }
    }

    unsafe fn dealloc(&self, _ptr: *mut u8, _layout: Layout) {}
}

#[global_allocator]
static HEAP: Bump = Bump { arena: UnsafeCell::new([0; ARENA]), next: AtomicUsize::new(0) };

// The C library provides memcpy/memset/memcmp and the process entry point.
#[link(name = "c")]
extern "C" {}

/// The precompiled `core` references this even with `panic = "abort"`; nothing unwinds here.
#[no_mangle]
pub extern "C" fn rust_eh_personality() {}

/// The precompiled `alloc` references this unwinding entry; with `panic = "abort"` it is
/// never reached.
#[no_mangle]
pub extern "C" fn _Unwind_Resume() -> ! {
    loop {}
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

fn run() -> Result<bool, ketama_core::Error> {
    let mut ring = Ring::new(Profile::by_name("libketama")?, None);
    for label in ["10.0.1.1:11211", "10.0.1.2:11211", "10.0.1.3:11211"] {
        ring.add(Server::parse(label, 1)?)?;
    }
    Ok(ring.point_count() == 480 && ring.locate(b"user:1")?.label.starts_with("10.0.1."))
}

/// Exit status 0 when the ring builds and answers.
#[no_mangle]
pub extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
    i32::from(!matches!(run(), Ok(true)))
}
