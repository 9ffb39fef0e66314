//! `ketama migrate run` against servers that lie, faked by `ketama-testkit`'s meta fake: one
//! that answers pipelined reads out of order (refused: nothing of the round is written), one
//! whose listing understates its values' sizes (memory stays bounded by what is read), and
//! one that announces values over its own item size limit (refused before they are read).
//! The NEW side is a real memcached or the fake's sink.

use crate::common;

use common::memcached::{json, memcached, tmpdir, Fleet};
use common::meta_fake::{MetaFake, Script};
use common::migrate::{fetch, ketama};

fn files(name: &str, old: &str, new: &str) -> (std::path::PathBuf, String, String) {
    let dir = tmpdir("lying", name);
    let o = dir.join("old");
    let n = dir.join("new");
    std::fs::write(&o, format!("{old}\n")).unwrap();
    std::fs::write(&n, format!("{new}\n")).unwrap();
    let (o, n) = (o.to_string_lossy().into(), n.to_string_lossy().into());
    (dir, o, n)
}

fn run_args<'a>(old: &'a str, new: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "migrate",
        "run",
        "--servers",
        old,
        "--to",
        new,
        "--profile",
        "libketama",
        "--format",
        "json",
        "--timeout",
        "3",
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn replies_out_of_order_are_refused_and_nothing_of_the_round_is_written() {
    let Some(mc) = memcached() else { return };
    let fleet = Fleet::start(&mc, 1, &["-m", "16"]);
    let mut script = Script::keys(50, 20);
    script.reorder = true;
    let fake = MetaFake::start(script);
    let (_dir, old, new) = files("order", fake.addr(), &fleet.labels[0]);
    let out = ketama(&run_args(&old, &new, &[]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("out of order"), "{err}");
    assert_eq!(err.matches(fake.addr()).count(), 1, "named once: {err}");
    let j = json(&out);
    assert_eq!(j["counts"]["copied"], 0, "{j}");
    assert_eq!(j["counts"]["failed"], 50, "{j}");
    for i in 0..50 {
        let k = format!("key:{i}");
        assert_eq!(fetch(&fleet.labels[0], k.as_bytes()), None, "{k} written");
    }
}

#[test]
fn a_listing_that_understates_sizes_keeps_memory_bounded_by_what_is_read() {
    // 100 values of 900 KB listed as 64 bytes: one batch of keys, read in rounds of 4 MB.
    let mut script = Script::keys(100, 900 << 10);
    script.listed_size = Some(64);
    let old = MetaFake::start(script);
    let sink = MetaFake::start(Script::keys(0, 0));
    let (_dir, o, n) = files("sizes", old.addr(), sink.addr());
    let (out, peak_kb) = common::peak(&run_args(&o, &n, &["--concurrency", "1"]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let j = json(&out);
    assert_eq!(j["counts"]["copied"], 100, "{j}");
    assert_eq!(sink.writes(), 100);
    // 90 MB of values went through; a round keeps at most 4 MB (and its write buffer).
    eprintln!("peak RSS {peak_kb} kB");
    assert!(peak_kb < 40 * 1024, "peak RSS {peak_kb} kB");
}

#[test]
fn values_over_the_servers_item_size_limit_are_refused_before_they_are_read() {
    // Values of 64 MiB listed as 1 KB, then a bare `VA 1073741824` announcing 1 GiB, from a
    // server whose item size limit is 1 MiB; values of 600 KiB from a server whose limit is
    // 512 KiB (the limit is the server's own, not memcached's default).
    for (len, announce, limit) in [
        (64 << 20, None, 1u64 << 20),
        (10, Some(1u64 << 30), 1 << 20),
        (600 << 10, None, 512 << 10),
    ] {
        let mut script = Script::keys(5, len);
        script.listed_size = Some(1024);
        script.announce = announce;
        script.item_size_max = limit;
        let old = MetaFake::start(script);
        let sink = MetaFake::start(Script::keys(0, 0));
        let (_dir, o, n) = files("large", old.addr(), sink.addr());
        let (out, peak_kb) = common::peak(&run_args(&o, &n, &["--concurrency", "1"]));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{err}");
        assert!(
            err.contains(&format!("over its item size limit of {limit} bytes")),
            "{err}"
        );
        assert_eq!(sink.writes(), 0);
        assert!(peak_kb < 40 * 1024, "peak RSS {peak_kb} kB");
    }
}

#[test]
fn ctrl_c_while_a_server_is_read_blames_no_server() {
    let mut script = Script::keys(20, 10);
    script.silent_reads = true;
    let old = MetaFake::start(script);
    let sink = MetaFake::start(Script::keys(0, 0));
    let (_dir, o, n) = files("ctrl-c", old.addr(), sink.addr());
    let mut args = run_args(&o, &n, &[]);
    args.retain(|a| *a != "3");
    args.retain(|a| *a != "--timeout");
    let (out, stopped) = common::interrupted(&args, std::time::Duration::from_millis(1500));
    let err = String::from_utf8_lossy(&out.stderr);
    ketama_testkit::signal::assert_stopped_in_time(stopped);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(!err.contains("failed"), "no server failed: {err}");
    assert_eq!(json(&out)["counts"]["failed"], 0);
}
