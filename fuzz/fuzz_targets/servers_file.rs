//! The `ketama` command's servers-file parser (`ketama_servers::parse`) on arbitrary bytes:
//! never panics, and what it accepts is consistent (labels unique, each re-parses to the same
//! server, errors name the file); a small accepted fleet is built into a ring
//! (`ketama_servers::ring`), refused with a message or built, never a panic.
#![no_main]

use ketama_core::Server;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match ketama_servers::parse("fuzz.txt", data) {
        Ok(fleet) => {
            assert!(!fleet.lines.is_empty());
            let mut seen = std::collections::HashSet::new();
            let mut last_line = 0;
            for line in &fleet.lines {
                assert!(line.line > last_line, "lines in file order");
                last_line = line.line;
                assert!(seen.insert(line.server.label.clone()), "duplicate accepted");
                let again = Server::parse(&line.server.label, line.server.weight)
                    .expect("an accepted label re-parses");
                assert_eq!(again.label, line.server.label);
                assert_eq!(
                    (again.host, again.port),
                    (line.server.host.clone(), line.server.port)
                );
                assert!(
                    !line.server.label.starts_with('\u{feff}'),
                    "BOM kept in a label"
                );
            }
            // A small fleet also builds a ring (or is refused with a message), never panics.
            if fleet.lines.len() <= 64 {
                let profile = ketama_core::Profile::by_name("libketama").unwrap();
                let _ = ketama_servers::ring(profile, None, &fleet);
            }
        }
        Err(e) => {
            assert_eq!(e.path, "fuzz.txt");
            let message = e.to_string();
            assert!(
                message.starts_with("fuzz.txt:"),
                "error names the file: {message}"
            );
        }
    }
});
