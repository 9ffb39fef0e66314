//! Profile and hash names: `Profile::by_name`, `Hash::from_name` and
//! `Profile::hash_from_name` on arbitrary text never panic, and what they accept round-trips.
#![no_main]

use ketama_core::{Hash, Profile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(name) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = Profile::by_name(name) {
        assert!(p.name == name || p.aliases.contains(&name));
        assert!(std::ptr::eq(Profile::by_name(p.name).unwrap(), p));
    }
    if let Ok(h) = Hash::from_name(name) {
        assert_eq!(Hash::from_name(h.name()), Ok(h));
        let _ = h.hash(data);
    }
    for p in Profile::all() {
        if let Ok(h) = p.hash_from_name(name) {
            let _ = h.hash(data);
        }
    }
});
