//! Gives the shared library a versioned soname. Writes nothing into the source tree
//! (`include/ketama.h` comes from `ffi-c/gen-header.sh`).

fn main() {
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".into());
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if target_os == "linux" || target_os == "freebsd" || target_os == "netbsd" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libketama.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
