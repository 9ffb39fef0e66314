//! The original last.fm libketama C API (`ketama_roll`, `ketama_get_server`, ...), declared
//! in `include/ketama_compat.h` (installed as `libketama/ketama.h`).
//!
//! Same continuum as libketama for the same server file (docs/client-notes.md 3.5), without its System V
//! shared memory: each process parses the file itself, shares one parsed copy per path among
//! its live continua (so `ketama_roll` again while one is alive does not re-parse the file),
//! and reloads when the file changes: at `ketama_roll`, and from `ketama_get_server` at most
//! once a second. No segment, no semaphore, no 512 KiB limit.
//!
//! Reload rule: a change is seen when the file's device, inode, size, modification
//! time or status-change time (`ctime`, which every write moves, even one that puts the mtime
//! back) differ from the last check; the file is then read and rebuilt only when its content
//! (MD5 of the bytes) differs, so `touch` alone costs one read and no new continuum.
//! The path must name a regular file of at most 64 MiB: a directory, a FIFO, a device
//! (`/dev/zero`) or a larger file is refused at once, without reading, with a message saying
//! which (libketama hangs on the first three).
//!
//! Pointer lifetime: an `mcs *` from `ketama_get_server` stays valid until `ketama_smoke`,
//! across any number of reloads. It points to an interned record, one per distinct
//! (address, point) pair the file has had while a continuum of that path was alive, shared by
//! every generation (see [`generations::Records`]): a reload that changes some lines adds only the points
//! those servers did not have before, and a server that comes back reuses its records.
//! Memory is 28 bytes plus about 24 of index per such pair: for a file that only ever names
//! servers out of a set of N addresses, at most N x (the most points one of them ever had);
//! it grows only when the file names addresses (or weight shares) never seen before, and is
//! freed with the last continuum of the path. `continuum.array` itself is the current
//! generation's sorted copy; it stays valid for [`handle::KEPT_GENERATIONS`] content changes
//! (libketama itself rewrote its shared segment in place on reload).
//!
//! Files still being written are not published: a read counts only when the file's stamp
//! is the same before and after it, and the file has not changed for [`reload::SETTLE_MS`] (its
//! status-change time is that old, or the same stamp and content were seen that long
//! before). `ketama_get_server` keeps the previous continuum until then (and never waits);
//! `ketama_roll` waits for it, at most [`reload::ROLL_WAIT_MS`]. Writing a new file and `rename`-ing
//! it over the old one is the safe way to change the servers; a writer that rewrites the
//! file in place and pauses longer than [`reload::SETTLE_MS`] mid-way can still be read half-written.
//!
//! The file's format, its quirks and every refusal's message are core's
//! ([`ketama_core::servers_file`], shared with Python's `ketama.Continuum`, which gives the
//! same answer for every file): libketama's reading reproduced (126-byte `fgets` pieces, `#`
//! and short lines skipped, tokens split on space and tab, the memory token's last character
//! dropped, `strtol` numbers, CRLF, repeated addresses each with their own points, ties in
//! file order), and refused with a message where libketama crashes, hangs or reads garbage.
//! docs/libketama-files.md lists what the real libketama does with each hostile file.
//! Addresses of up to 23 bytes are accepted, as libketama accepts them: `mcs.ip` holds the
//! first 22, and a 23rd byte sits in the padding after it, followed by a zero byte, so `ip`
//! always reads as the whole address.
//!
//! Thread safety: `ketama_get_server` may be called from several threads at once on one
//! continuum (a reload is read and built under a lock and published atomically);
//! `ketama_roll` and `ketama_smoke` of one continuum are the caller's to serialise, as in
//! libketama.
//!
//! The module's files: `reload` decides when a file is read again (and reads it) and shares
//! one parse per path; `generations` holds the published generations and the interned records; this file declares the C types and the exported
//! functions. The points are core's ([`ketama_core::ring::RawContinuum`]): libketama's
//! formula, MD5 point strings and lower-bound search, over the file's addresses as bytes.

use core::ffi::{c_char, c_int, c_uint, c_void};
use std::cell::UnsafeCell;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

use ketama_core::hash::md5;

use crate::boundary::{ffi_boundary, try_c_bytes, try_opt_out, try_opt_ref, try_slice_mut};

mod clock;
mod generations;
mod handle;

mod reload;

use clock::now_ms;
use handle::Continuum;
use reload::{load_waiting, prune_cache, stamp};

/// Size of `mcs.ip` and `serverinfo.addr`.
const ADDR_LEN: usize = 22;

/// One point on the circle (libketama's `mcs`; 28 bytes like C's layout, padding explicit).
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug)]
pub struct mcs {
    /// Point on the circle.
    pub point: c_uint,
    /// The server address, NUL-terminated unless it is 22 or 23 characters long.
    pub ip: [c_char; ADDR_LEN],
    /// C's padding: a 23rd address byte, then zero, so `ip` always reads as a string.
    _pad: [u8; 2],
}

/// libketama's `serverinfo` (declared for source compatibility; the API does not use it).
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct serverinfo {
    /// Server address.
    pub addr: [c_char; ADDR_LEN],
    /// The memory column.
    pub memory: core::ffi::c_ulong,
}

/// libketama's `continuum`: `array` points to `numpoints` `mcs`, ascending; `modtime` to a
/// `time_t` holding the file's modification time (seconds).
#[repr(C)]
#[allow(non_camel_case_types)]
#[derive(Debug)]
pub struct continuum {
    /// Number of points.
    pub numpoints: c_int,
    /// Points to the file's modification time (`time_t`).
    pub modtime: *mut c_void,
    /// Points to the `mcs` array.
    pub array: *mut c_void,
}

/// libketama's handle type.
#[allow(non_camel_case_types)]
pub type ketama_continuum = *mut continuum;

const _: () = assert!(core::mem::size_of::<mcs>() == 28);

thread_local! {
    static ERROR: UnsafeCell<[c_char; 256]> = const { UnsafeCell::new([0; 256]) };
}

/// Sets this thread's `ketama_error()` text (truncated to 255 bytes).
fn set_error(msg: &str) {
    ERROR.with(|e| {
        // SAFETY: the buffer belongs to this thread; nothing else holds a Rust reference to it.
        let buf = unsafe { &mut *e.get() };
        let n = msg.len().min(buf.len() - 1);
        for (d, s) in buf.iter_mut().zip(&msg.as_bytes()[..n]) {
            *d = *s as c_char;
        }
        buf[n] = 0;
    });
}

/// Builds the continuum for a server file (`ip:port<TAB>memory` per line). Returns 1 on
/// success, 0 on failure with the reason in `ketama_error()`. On failure after the file was
/// found, `*contptr` still receives an empty continuum (as libketama); free it with
/// `ketama_smoke` either way.
///
/// # Safety
/// `contptr` is writable; `filename` is a NUL-terminated path.
#[no_mangle]
pub unsafe extern "C" fn ketama_roll(
    contptr: *mut ketama_continuum,
    filename: *mut c_char,
) -> c_int {
    ffi_boundary!(0 => {
        set_error("");
        let (Some(contptr), Ok(filename)) = (try_opt_out!(contptr), try_c_bytes!(filename)) else {
            set_error("NULL argument to ketama_roll");
            return 0;
        };
        let path = PathBuf::from(OsStr::from_bytes(filename));
        if let Err(msg) = stamp(&path) {
            set_error(&msg);
            return 0;
        }
        let mut cont = Box::new(Continuum::new(path.clone()));
        let ok = match load_waiting(&path) {
            Ok((g, st)) => {
                cont.install(g, st);
                1
            }
            Err(msg) => {
                set_error(&msg);
                0
            }
        };
        *contptr = Box::into_raw(cont).cast::<continuum>();
        ok
    })
}

/// Frees a continuum from `ketama_roll` (and every `mcs` it returned). NULL is a no-op.
///
/// # Safety
/// `contptr` is NULL or from `ketama_roll`, not yet freed.
#[no_mangle]
pub unsafe extern "C" fn ketama_smoke(contptr: ketama_continuum) {
    ffi_boundary!(() => {
        if !contptr.is_null() {
            // SAFETY: allocated by ketama_roll as a Box<Continuum> (c is its first field).
            drop(unsafe { Box::from_raw(contptr.cast::<Continuum>()) });
            prune_cache();
        }
    })
}

/// The point a key maps to: the first point at or after `ketama_hashi(key)`, wrapping to the
/// first. NULL when the continuum is NULL or empty. The `mcs` stays valid until
/// `ketama_smoke`, across reloads (an interned record, see the module docs).
///
/// # Safety
/// `key` is NUL-terminated; `cont` is NULL or from `ketama_roll`.
#[no_mangle]
pub unsafe extern "C" fn ketama_get_server(key: *mut c_char, cont: ketama_continuum) -> *mut mcs {
    ffi_boundary!(core::ptr::null_mut() => {
        let Ok(key) = try_c_bytes!(key) else {
            return core::ptr::null_mut();
        };
        if cont.is_null() {
            return core::ptr::null_mut();
        }
        // SAFETY: allocated by ketama_roll as a Box<Continuum>.
        // A shared reference only: other threads may be in here too; the lock below
        // serialises every write.
        let this = unsafe { &*cont.cast::<Continuum>() };
        // At most once a second, under the lock: has the file changed? Otherwise no lock and
        // no system call (libketama itself looked at the file only in ketama_roll).
        let now = now_ms();
        if now >= this.next_check.load(Ordering::Relaxed) {
            this.check(now);
        }
        // SAFETY: NULL, or the last of `inner.generations`, alive until KEPT_GENERATIONS
        // later content changes (each check at least a second apart) or ketama_smoke; this
        // call reads it only until it returns.
        let Some(g) = (unsafe { this.current.load(Ordering::Acquire).as_ref() }) else {
            return core::ptr::null_mut();
        };
        let h = md5::ketama(key);
        // An interned record: valid until ketama_smoke, whatever reloads come meanwhile.
        g.record(h)
    })
}

extern "C" {
    fn printf(format: *const c_char, ...) -> c_int;
}

/// Prints `Numpoints in continuum: N` then `ip (point)` per point to stdout (C stdio, so it
/// interleaves correctly with the caller's `printf`), or `Continuum empty`.
///
/// # Safety
/// `cont` is NULL or from `ketama_roll`.
#[no_mangle]
pub unsafe extern "C" fn ketama_print_continuum(cont: ketama_continuum) {
    ffi_boundary!(() => {
        let Some(c) = try_opt_ref!(cont) else {
            return;
        };
        // SAFETY: format strings match their arguments.
        unsafe { printf(c"Numpoints in continuum: %d\n".as_ptr(), c.numpoints) };
        if c.array.is_null() {
            // SAFETY: as above.
            unsafe { printf(c"Continuum empty\n".as_ptr()) };
            return;
        }
        let n = usize::try_from(c.numpoints).unwrap_or(0);
        // SAFETY: array points to numpoints mcs (set by publish).
        let points = unsafe { core::slice::from_raw_parts(c.array.cast::<mcs>(), n) };
        for m in points {
            // SAFETY: the record's last padding byte is zero, so %s stops inside the struct.
            unsafe { printf(c"%s (%u)\n".as_ptr(), m.ip.as_ptr(), m.point) };
        }
    })
}

/// -1, 0 or 1 as `a->point` is below, equal to or above `b->point` (a `qsort` comparator).
///
/// # Safety
/// Both are valid `mcs` pointers.
#[no_mangle]
pub unsafe extern "C" fn ketama_compare(a: *mut mcs, b: *mut mcs) -> c_int {
    ffi_boundary!(0 => {
        match (try_opt_ref!(a), try_opt_ref!(b)) {
            (Some(a), Some(b)) => a.point.cmp(&b.point) as c_int,
            _ => 0,
        }
    })
}

/// The first little-endian 32-bit word of the MD5 of a NUL-terminated string (the key hash).
///
/// # Safety
/// `in_string` is NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn ketama_hashi(in_string: *mut c_char) -> c_uint {
    ffi_boundary!(0 => {
        try_c_bytes!(in_string).map_or(0, md5::ketama)
    })
}

/// The MD5 digest of a NUL-terminated string.
///
/// # Safety
/// `in_string` is NUL-terminated; `md5pword` has room for 16 bytes.
#[no_mangle]
pub unsafe extern "C" fn ketama_md5_digest(in_string: *mut c_char, md5pword: *mut u8) {
    ffi_boundary!(() => {
        if let (Ok(s), Ok(out)) = (try_c_bytes!(in_string), try_slice_mut!(md5pword, 16)) {
            out.copy_from_slice(&md5::digest(s));
        }
    })
}

/// The last error of this thread's `ketama_roll` (empty after a success). Static per thread.
#[no_mangle]
pub extern "C" fn ketama_error() -> *mut c_char {
    ERROR.with(|e| e.get().cast::<c_char>())
}
