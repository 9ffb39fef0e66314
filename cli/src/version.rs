//! `ketama --version`: the CLI's own version and the version of the ketama-core it was built
//! with (they are released together but may differ in a patched build).

/// The version line printed after the program name: `0.1.0 (ketama-core 0.1.0)`.
pub const LINE: &str = const_line();

/// The CLI crate's version.
pub const CLI: &str = env!("CARGO_PKG_VERSION");

const CAP: usize = 128;

const fn const_line() -> &'static str {
    // `concat!` takes literals only, so the line is assembled at compile time by hand.
    const BYTES: ([u8; CAP], usize) = {
        let parts: [&str; 4] = [CLI, " (ketama-core ", ketama_core::VERSION, ")"];
        let mut out = [0u8; CAP];
        let mut n = 0;
        let mut i = 0;
        while i < parts.len() {
            let p = parts[i].as_bytes();
            let mut j = 0;
            while j < p.len() {
                out[n] = p[j];
                n += 1;
                j += 1;
            }
            i += 1;
        }
        (out, n)
    };
    const LEN: usize = BYTES.1;
    const TRIMMED: [u8; LEN] = {
        let mut t = [0u8; LEN];
        let mut i = 0;
        while i < LEN {
            t[i] = BYTES.0[i];
            i += 1;
        }
        t
    };
    match core::str::from_utf8(&TRIMMED) {
        Ok(s) => s,
        Err(_) => panic!("version strings are UTF-8"),
    }
}
