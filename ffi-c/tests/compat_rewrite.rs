//! The libketama drop-in never publishes a servers file that is still being written: a reader
//! thread looks keys up through `ketama_get_server` while a writer rewrites the file over and
//! over, either in place (truncate, then line by line with pauses) or by writing a new file
//! and renaming it into place. Every answer must be what the old or the new complete file
//! gives; prints the share of wrong answers, and checks that the reader did follow the
//! changes.

use std::ffi::{c_char, CStr, CString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ketama::compat::{ketama_continuum, ketama_get_server, ketama_roll, ketama_smoke};

const LINES: usize = 30;
const KEYS: usize = 500;
const CYCLES: usize = 6;
const QUIET_MS: [u64; CYCLES] = [330, 610, 470, 250, 720, 520];

/// Server file `which` (0 or 1): 30 servers with distinct weights; the two files name
/// different addresses, so a part of either file places keys differently from both.
fn file_lines(which: usize) -> Vec<String> {
    (0..LINES)
        .map(|i| format!("10.0.{which}.{i}:11211\t{}\n", 100 + i))
        .collect()
}

fn roll(path: &Path) -> ketama_continuum {
    let c = CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    let mut cont: ketama_continuum = std::ptr::null_mut();
    // SAFETY: writable out-pointer, NUL-terminated path.
    let ok = unsafe { ketama_roll(&mut cont, c.as_ptr().cast_mut()) };
    assert_eq!(ok, 1);
    cont
}

fn lookup(cont: ketama_continuum, key: &CStr) -> String {
    // SAFETY: a live continuum; NUL-terminated key.
    let m = unsafe { ketama_get_server(key.as_ptr().cast_mut(), cont) };
    assert!(!m.is_null());
    // SAFETY: a valid mcs; its ip is NUL-terminated (addresses here are under 22 bytes).
    let ip = unsafe { CStr::from_ptr((*m).ip.as_ptr().cast::<c_char>()) };
    ip.to_string_lossy().into_owned()
}

fn keys() -> Vec<CString> {
    (0..KEYS)
        .map(|i| CString::new(format!("key:{i}")).unwrap())
        .collect()
}

/// Each key's answer for each complete file.
fn expected(dir: &Path) -> [Vec<String>; 2] {
    let keys = keys();
    [0, 1].map(|which| {
        let p = dir.join(format!("complete-{which}"));
        std::fs::write(&p, file_lines(which).concat()).unwrap();
        let c = roll(&p);
        let answers = keys.iter().map(|k| lookup(c, k)).collect();
        // SAFETY: from ketama_roll, freed once.
        unsafe { ketama_smoke(c) };
        answers
    })
}

fn write_slowly(f: &mut std::fs::File, which: usize) {
    for line in file_lines(which) {
        f.write_all(line.as_bytes()).unwrap();
        std::thread::sleep(Duration::from_millis(15));
    }
}

/// Rewrites `path` CYCLES times (alternating the two files), each write taking about 0.45 s
/// (longer than the quiet spell after it, more than libketama's tick, far less than a second).
fn writer(path: &Path, rename: bool) {
    for (cycle, &quiet) in QUIET_MS.iter().enumerate() {
        let which = (cycle + 1) % 2;
        if rename {
            let tmp = path.with_extension("new");
            let mut f = std::fs::File::create(&tmp).unwrap();
            write_slowly(&mut f, which);
            drop(f);
            std::fs::rename(&tmp, path).unwrap();
        } else {
            let mut f = std::fs::File::create(path).unwrap(); // truncates in place
            write_slowly(&mut f, which);
        }
        // Irregular quiet spells, so the reader's once-a-second looks fall at every phase.
        std::thread::sleep(Duration::from_millis(quiet));
    }
}

struct Cont(ketama_continuum);
// SAFETY: one thread (the reader) uses the continuum at a time, as libketama requires.
unsafe impl Send for Cont {}

fn run(rename: bool) {
    let dir = tempdir(if rename { "rename" } else { "inplace" });
    let want = Arc::new(expected(&dir));
    let path = dir.join("servers");
    std::fs::write(&path, file_lines(0).concat()).unwrap();
    let cont = Cont(roll(&path));
    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let (stop, want) = (Arc::clone(&stop), Arc::clone(&want));
        std::thread::spawn(move || {
            let cont = cont;
            let keys = keys();
            let (mut total, mut wrong, mut seen) = (0u64, 0u64, [false; 2]);
            while !stop.load(Ordering::Relaxed) {
                let mut all = [true; 2];
                for (i, k) in keys.iter().enumerate() {
                    let got = lookup(cont.0, k);
                    total += 1;
                    if got != want[0][i] && got != want[1][i] {
                        wrong += 1;
                    }
                    all[0] &= got == want[0][i];
                    all[1] &= got == want[1][i];
                }
                seen[0] |= all[0];
                seen[1] |= all[1];
            }
            (cont, total, wrong, seen)
        })
    };
    let start = Instant::now();
    writer(&path, rename);
    // The last file (file 0 after an even number of cycles) must be served within 1.5 s.
    std::thread::sleep(Duration::from_millis(1500));
    stop.store(true, Ordering::Relaxed);
    let (cont, total, wrong, seen) = reader.join().unwrap();
    let keys = keys();
    let last = CYCLES % 2; // the last cycle writes file (CYCLES - 1 + 1) % 2
    let now: Vec<String> = keys.iter().map(|k| lookup(cont.0, k)).collect();
    // SAFETY: from ketama_roll, freed once.
    unsafe { ketama_smoke(cont.0) };
    std::fs::remove_dir_all(&dir).ok();
    let writer = if rename { "rename" } else { "in place" };
    println!(
        "{writer}: {wrong} of {total} lookups wrong ({:.2}%) over {:.1} s",
        100.0 * wrong as f64 / total.max(1) as f64,
        start.elapsed().as_secs_f64()
    );
    assert_eq!(
        wrong, 0,
        "{writer}: lookups answered from a half-written file"
    );
    assert!(
        seen[0] && seen[1],
        "{writer}: the reader never saw both files"
    );
    assert_eq!(now, want[last], "{writer}: the last file is not served");
}

fn tempdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ketama-rewrite-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn file_rewritten_in_place_is_never_half_read() {
    run(false);
}

#[test]
fn file_renamed_into_place_is_never_half_read() {
    run(true);
}
