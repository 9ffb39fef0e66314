//! The C ABI entry points (`ketama_*` in the ketama-ffi rlib) with arbitrary strings, lengths
//! and counts: every call returns a status, never crashes. Lengths are either within the
//! buffer handed over or impossible ones (> isize::MAX, e.g. SIZE_MAX), which must be refused
//! before any byte is read.
#![no_main]

use core::ffi::c_char;
use core::ptr;
use std::ffi::CString;

use ketama::ring::*;
use ketama::info::ketama_hash;
use ketama::status::ketama_status;
use libfuzzer_sys::fuzz_target;

/// Splits the input into fields at 0xFF bytes.
fn fields(data: &[u8]) -> Vec<&[u8]> {
    data.split(|&b| b == 0xFF).collect()
}

/// A length for `buf`: its own length, a shorter one, or an impossible one.
fn length(sel: u8, buf: &[u8]) -> usize {
    match sel % 8 {
        0 => usize::MAX,
        1 => isize::MAX as usize + 1,
        2 => buf.len() / 2,
        _ => buf.len(),
    }
}

fn cstring(b: &[u8]) -> CString {
    CString::new(b.iter().copied().filter(|&c| c != 0).collect::<Vec<u8>>()).unwrap()
}

fuzz_target!(|data: &[u8]| {
    let f = fields(data);
    if f.len() < 2 {
        return;
    }
    let names = ["libketama", "spymemcached", "jump", "modula", "twemproxy-ketama", "maglev-go"];
    let first = f[0];
    // Profile: a known one or the fuzzer's bytes; hash: NULL (default) or the fuzzer's bytes.
    let profile = match first.first() {
        Some(&b) if b % 2 == 0 => CString::new(names[usize::from(b / 2) % names.len()]).unwrap(),
        _ => cstring(first),
    };
    let hash = cstring(f[1]);
    let use_hash = first.get(1).is_some_and(|&b| b % 4 == 0);
    let mut ring: *mut ketama_ring = ptr::null_mut();
    // SAFETY: NUL-terminated strings; valid out pointer.
    let st = unsafe {
        ketama_ring_create(
            profile.as_ptr(),
            if use_hash { hash.as_ptr() } else { ptr::null() },
            &mut ring,
        )
    };
    // ketama_hash with the fuzzer's name and a key of any length.
    for field in &f[1..] {
        let sel = field.first().copied().unwrap_or(3);
        let mut h = 0u32;
        // SAFETY: `field` is readable for `length(..) <= field.len()` bytes, or the length is
        // impossible and must be refused without reading.
        let _ = unsafe { ketama_hash(hash.as_ptr(), field.as_ptr().cast(), length(sel, field), &mut h) };
    }
    if st != ketama_status::Ok {
        assert!(ring.is_null());
        return;
    }
    for (i, field) in f[2..].iter().enumerate() {
        let sel = field.first().copied().unwrap_or(3);
        let p: *const c_char = field.as_ptr().cast();
        let len = length(sel, field);
        // SAFETY (every call below): `ring` is live; `p` is readable for `len` bytes when `len`
        // is a possible length; out pointers are valid for what each call writes.
        unsafe {
            match (i + usize::from(sel >> 3)) % 7 {
                0 | 1 => {
                    let _ = ketama_ring_add(ring, p, len, u32::from(sel >> 5));
                }
                2 => {
                    let _ = ketama_ring_remove(ring, p, len);
                }
                3 => {
                    let _ = ketama_ring_set_weight(ring, p, len, u32::from(sel & 3));
                }
                4 => {
                    let mut out: *const c_char = ptr::null();
                    let mut out_len = 0usize;
                    if ketama_ring_lookup(ring, p, len, &mut out, &mut out_len) == ketama_status::Ok {
                        assert!(!out.is_null());
                    }
                }
                5 => {
                    let n = match sel % 3 {
                        0 => usize::MAX,
                        1 => usize::from(sel),
                        _ => 4,
                    };
                    let cap = 4usize;
                    let mut labels = [ptr::null::<c_char>(); 4];
                    let mut lens = [0usize; 4];
                    let mut count = 0usize;
                    let _ = ketama_ring_lookup_n(
                        ring,
                        p,
                        len,
                        n.min(cap),
                        labels.as_mut_ptr(),
                        lens.as_mut_ptr(),
                        &mut count,
                    );
                    assert!(count <= cap);
                    let mut hash_out = 0u32;
                    let _ = ketama_ring_key_hash(ring, p, len, &mut hash_out);
                }
                _ => {
                    let mut count = 0usize;
                    let _ = ketama_ring_server_count(ring, &mut count);
                    let mut label: *const c_char = ptr::null();
                    let mut label_len = 0usize;
                    let mut weight = 0u32;
                    let _ = ketama_ring_server(
                        ring,
                        usize::from(sel),
                        &mut label,
                        &mut label_len,
                        &mut weight,
                    );
                    let mut pos = [0u32; 8];
                    let mut srv = [0u32; 8];
                    let mut got = 0usize;
                    let _ = ketama_ring_points(ring, pos.as_mut_ptr(), srv.as_mut_ptr(), 8, &mut got);
                }
            }
        }
    }
    // SAFETY: created above, freed once.
    unsafe { ketama_ring_free(ring) };
});
