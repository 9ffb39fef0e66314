//! The state file through [`State`]: records survive a reopen (the journal merged, a line
//! cut short ignored), each OLD server's records come back in key order, versions of a
//! restarted server are doubted, the first format is read, bad files are refused.

use std::io::Write;

use super::*;
use crate::backend::Version;

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("ketama-state-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ids(old: &[(&str, &str)], new: &[(&str, &str)]) -> Ids {
    let seen = |v: &[(&str, &str)]| -> Vec<(String, Seen)> {
        v.iter()
            .map(|(l, p)| {
                let s = if p.is_empty() {
                    Seen::Unknown
                } else {
                    Seen::Is(p.to_string())
                };
                (l.to_string(), s)
            })
            .collect()
    };
    Ids::new(seen(old), seen(new))
}

fn all(_: &[u8]) -> bool {
    true
}

fn copy(dst: usize, sv: u64, dv: u64, d: u64) -> Copy {
    Copy {
        dst,
        sv: Ver::sure(Version(sv)),
        dv: Ver::sure(Version(dv)),
        digest: Some(d),
    }
}

fn entries(st: &State, src: usize) -> Vec<Entry> {
    let mut v = Vec::new();
    if let Some(mut r) = st.section(src).unwrap() {
        while let Some(e) = r.next_entry().unwrap() {
            v.push(e);
        }
    }
    v
}

#[test]
fn records_survive_a_reopen_in_key_order_and_a_cut_line_is_ignored() {
    let d = dir("reopen");
    let path = d.join("s").to_string_lossy().into_owned();
    let same = || {
        ids(
            &[("a:1", "1 pid 1"), ("b:1", "1 pid 2")],
            &[("n:1", "1 pid 3")],
        )
    };
    let mut st = State::open(&path, same(), &all).unwrap();
    assert!(st.is_empty());
    let i = |dst, sv, dg| Intent {
        dst,
        sv: Ver::sure(Version(sv)),
        digest: dg,
    };
    st.append(Record::Copied {
        src: 0,
        key: b"k2",
        copy: copy(0, 1, 2, 3),
    })
    .unwrap();
    st.append(Record::Intent {
        src: 0,
        key: b"k1",
        intent: i(0, 5, 6),
    })
    .unwrap();
    st.append(Record::Intent {
        src: 0,
        key: b"k3",
        intent: i(0, 7, 8),
    })
    .unwrap();
    st.append(Record::Copied {
        src: 0,
        key: b"k3",
        copy: copy(0, 7, 9, 8),
    })
    .unwrap();
    st.append(Record::Intent {
        src: 0,
        key: b"k2",
        intent: i(0, 4, 4),
    })
    .unwrap();
    st.append(Record::Copied {
        src: 1,
        key: b"gone",
        copy: copy(0, 1, 1, 1),
    })
    .unwrap();
    st.append(Record::Forget {
        src: 1,
        key: b"gone",
    })
    .unwrap();
    st.append(Record::Intent {
        src: 1,
        key: b"void",
        intent: i(0, 1, 1),
    })
    .unwrap();
    st.append(Record::Void {
        src: 1,
        key: b"void",
    })
    .unwrap();
    st.flush().unwrap();
    drop(st);
    // A crash while appending leaves a partial line: it is ignored.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(b"c a:1 6b n:1 1 2 00000000000000").unwrap();
    drop(f);
    let st = State::open(&path, same(), &all).unwrap();
    assert_eq!(st.len(), 3);
    let e = entries(&st, 0);
    let keys: Vec<&[u8]> = e.iter().map(|e| &e.key[..]).collect();
    assert_eq!(keys, [&b"k1"[..], b"k2", b"k3"]);
    assert_eq!((e[0].copy, e[0].intent), (None, Some(i(0, 5, 6))));
    assert_eq!(
        (e[1].copy, e[1].intent),
        (Some(copy(0, 1, 2, 3)), Some(i(0, 4, 4)))
    );
    assert_eq!((e[2].copy, e[2].intent), (Some(copy(0, 7, 9, 8)), None));
    assert!(entries(&st, 1).is_empty());
    st.finish(true).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("ketama-migrate-state 2\ns old a:1 1 pid 1\n"),
        "{text}"
    );
    assert!(text.ends_with("\nj\n"), "{text}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_restarted_server_doubts_its_versions_and_gone_servers_are_forgotten() {
    let d = dir("restart");
    let path = d.join("s").to_string_lossy().into_owned();
    let first = ids(
        &[("a:1", "1 pid 1")],
        &[("n:1", "1 pid 3"), ("m:1", "1 pid 4")],
    );
    let mut st = State::open(&path, first, &all).unwrap();
    st.append(Record::Copied {
        src: 0,
        key: b"k",
        copy: copy(0, 1, 2, 3),
    })
    .unwrap();
    st.append(Record::Copied {
        src: 0,
        key: b"j",
        copy: copy(1, 1, 2, 3),
    })
    .unwrap();
    st.finish(true).unwrap();
    // n:1 restarted (another start time); m:1 left the NEW file.
    let later = ids(&[("a:1", "1 pid 1")], &[("n:1", "9 pid 3")]);
    let st = State::open(&path, later, &all).unwrap();
    assert_eq!(st.forgotten(), 1);
    let e = entries(&st, 0);
    assert_eq!(e.len(), 1);
    let c = e[0].copy.unwrap();
    assert!(c.sv.sure && !c.dv.sure, "{c:?}");
    assert_eq!(c.dv.version, Version(2));
    // An unknown process: versions this run records are not sure either.
    drop(st);
    let unknown = ids(&[("a:1", "1 pid 1")], &[("n:1", "")]);
    let mut st = State::open(&path, unknown, &all).unwrap();
    st.append(Record::Copied {
        src: 0,
        key: b"x",
        copy: copy(0, 1, 2, 3),
    })
    .unwrap();
    st.finish(true).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("s new n:1 -\n"), "{text}");
    assert!(text.contains(" 1 ?2 "), "{text}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn the_first_format_is_read_and_bad_files_are_refused_with_their_line() {
    let d = dir("v1");
    let path = d.join("s").to_string_lossy().into_owned();
    let now = || ids(&[("a:1", "1 pid 1")], &[("n:1", "1 pid 3")]);
    std::fs::write(
        &path,
        "ketama-migrate-state 1\nc a:1 n:1 5 6 6b31\nc a:1 n:1 7 8 6b32\nd 6b31\n",
    )
    .unwrap();
    let st = State::open(&path, now(), &all).unwrap();
    let e = entries(&st, 0);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].key, b"k2");
    let c = e[0].copy.unwrap();
    assert_eq!(
        (c.sv, c.dv, c.digest),
        (Ver::sure(Version(7)), Ver::sure(Version(8)), None)
    );
    drop(st);
    let refused = |text: &str, names: &dyn Fn(&[u8]) -> bool| {
        std::fs::write(&path, text).unwrap();
        State::open(&path, now(), names).unwrap_err().0
    };
    let e = refused(
        "ketama-migrate-state 2\nc a:1 6b n:1 1 2 -\nc a:1 6a n:1 1 2 -\nj\n",
        &all,
    );
    assert!(e.contains(":3: records out of order"), "{e}");
    let e = refused("ketama-migrate-state 2\nc a:1 6b n:1 1 2 -\n", &all);
    assert!(e.contains("ends before its 'j' line"), "{e}");
    let e = refused("ketama-migrate-state 2\nj\nc a:1 6b6b n:1 1 2 -\n", &|k| {
        k.len() < 2
    });
    assert!(e.contains(":3: a key of 2 bytes"), "{e}");
    let e = refused(
        &format!("ketama-migrate-state 1\nd {}\n", "6b".repeat(70_000)),
        &all,
    );
    assert!(e.contains(":2: a line of more than"), "{e}");
    let e = refused("something else\n", &all);
    assert!(e.contains("not a migrate state file"), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}
