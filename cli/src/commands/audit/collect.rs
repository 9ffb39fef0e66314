//! Asking the servers for their keys: read-only listings, up to [`MAX_PARALLEL`] servers at a
//! time, each key scored as it arrives.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::SyncSender;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ketama_core::Ring;

use super::score::{Holding, Misplaced, Scorer, Tally, Unreachable};
use crate::servers::Fleet;
use ketama_memcache::{Conn, Error, ListOptions, Options, Pace, Sizes};
use ketama_migrate::address;

/// The most servers asked at the same time.
pub(crate) const MAX_PARALLEL: usize = 16;

/// What asking one server gave.
pub(crate) type Answer = Result<(Holding, Vec<Tally>), Unreachable>;

/// How the servers are asked: memcached or Redis, with their connection options.
#[derive(Clone, Debug)]
pub(crate) enum Lister {
    /// memcached.
    Memcached(Options),
    /// Redis or Valkey.
    Redis(ketama_redis::Options),
}

/// Lists the keys of every server (read-only, up to [`MAX_PARALLEL`] at a time, each within
/// `opts.timeout`) and scores them against `rings` as they come; `stream` receives each key
/// the first ring looks for elsewhere. Returns the answers in the fleet's order.
pub(crate) fn collect(
    fleet: &Fleet,
    rings: &[Ring],
    keep: usize,
    opts: &Lister,
    stream: Option<SyncSender<Misplaced>>,
    bar: &ProgressBar,
) -> Vec<Answer> {
    let servers = fleet.servers();
    let next = AtomicUsize::new(0);
    let listed = AtomicU64::new(0);
    let answers: Vec<Mutex<Option<Answer>>> = servers.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..servers.len().clamp(1, MAX_PARALLEL) {
            let stream = stream.clone();
            let (next, listed, answers, servers) = (&next, &listed, &answers, &servers);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(s) = servers.get(i) else { return };
                let a = ask(s, rings, keep, opts, stream.as_ref(), listed, bar);
                if let Ok(mut slot) = answers[i].lock() {
                    *slot = Some(a);
                }
                bar.inc(1);
            });
        }
    });
    answers
        .into_iter()
        .zip(&servers)
        .map(|(a, s)| {
            a.into_inner().ok().flatten().unwrap_or_else(|| {
                Err(Unreachable {
                    label: s.label.clone(),
                    error: "not asked".into(),
                })
            })
        })
        .collect()
}

/// Lists and scores one server.
fn ask(
    s: &ketama_core::Server,
    rings: &[Ring],
    keep: usize,
    opts: &Lister,
    stream: Option<&SyncSender<Misplaced>>,
    listed: &AtomicU64,
    bar: &ProgressBar,
) -> Answer {
    let mut scorer = Scorer::new(rings, &s.label, keep);
    let mut n = 0u64;
    let mut score = |key: &[u8]| {
        if let (Some(m), Some(tx)) = (scorer.key(key), stream) {
            let _ = tx.send(m);
        }
        n += 1;
        if n % 4096 == 0 {
            let total = listed.fetch_add(4096, Ordering::Relaxed) + 4096;
            bar.set_message(total.to_string());
        }
    };
    let opts = match opts {
        Lister::Memcached(o) => o,
        Lister::Redis(o) => {
            let h = list_redis(s, o, &mut score);
            return h.map(|h| (h, scorer.tallies));
        }
    };
    let r = Conn::connect(&address(s), opts.clone()).and_then(|mut c| {
        // Up to MAX_PARALLEL listings at once: each with the smaller key-set sizes.
        let how = ListOptions {
            pace: Pace::Whole,
            sizes: Sizes::MANY_LISTINGS,
        };
        c.list_keys(how, |k| {
            score(&k.key);
            Ok::<(), Error>(())
        })
    });
    match r {
        Ok(l) => {
            crate::listing_notes::bad_lines(
                "audit",
                &s.label,
                l.method.command(),
                l.bad.iter().map(|b| (b.line, b.reason.as_str())),
                l.bad_count,
            );
            Ok((
                Holding {
                    label: s.label.clone(),
                    listing: l.method.command(),
                    partial: l.method == ketama_memcache::Method::Cachedump,
                    keys: l.keys as usize,
                    items: l.items,
                    bad_lines: l.bad_count,
                },
                scorer.tallies,
            ))
        }
        Err(e) => Err(Unreachable {
            label: s.label.clone(),
            error: e.message,
        }),
    }
}

/// Lists one Redis (read-only: `SCAN`, `PTTL`, `MEMORY USAGE`), each key to `score`, the
/// whole listing within the timeout.
fn list_redis(
    s: &ketama_core::Server,
    opts: &ketama_redis::Options,
    score: &mut dyn FnMut(&[u8]),
) -> Result<Holding, Unreachable> {
    let r = ketama_redis::Conn::connect(&s.label, &address(s), opts).and_then(|mut c| {
        let how = ListOptions {
            pace: Pace::Whole,
            sizes: Sizes::MANY_LISTINGS,
        };
        c.list_keys(how, ketama_redis::Ask::default(), |k| {
            score(&k.key);
            Ok::<(), ketama_redis::Error>(())
        })
    });
    match r {
        Ok(l) => {
            let skipped: Vec<(u64, String)> = l
                .skipped
                .iter()
                .enumerate()
                .map(|(i, n)| (i as u64 + 1, format!("a key of {n} bytes")))
                .collect();
            crate::listing_notes::bad_lines(
                "audit",
                &s.label,
                "SCAN",
                skipped.iter().map(|(i, w)| (*i, w.as_str())),
                l.skipped_count,
            );
            Ok(Holding {
                label: s.label.clone(),
                listing: "SCAN",
                partial: false,
                keys: l.keys as usize,
                items: l.dbsize,
                bad_lines: l.skipped_count,
            })
        }
        Err(e) => Err(Unreachable {
            label: s.label.clone(),
            error: e.message,
        }),
    }
}

/// A progress bar over the servers on a terminal's stderr (hidden elsewhere).
pub(crate) fn progress(servers: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(servers as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "audit [{bar:30}] {pos}/{len} servers done, {msg} keys listed ({elapsed})",
    ) {
        pb.set_style(style.progress_chars("=> "));
    }
    pb.set_message("0");
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}
