//! AnchorHash and MementoHash over server lists: properties under arbitrary removals and
//! re-adds (only the changed server's keys move, every answer is a current server, the same
//! history gives the same answers) and balance (each server within a few standard deviations
//! of the mean, as both papers' uniformity claims imply).

use std::collections::BTreeSet;

use ketama_core::alt::anchor::Anchor;
use ketama_core::alt::memento::Memento;
use ketama_core::alt::rendezvous::mix64;
use ketama_core::Error;
use proptest::prelude::*;

/// What both types offer, so one test body serves both.
trait Placer: Clone {
    fn locate(&self, key: u64) -> Result<&str, Error>;
    fn add(&mut self, label: String) -> Result<u32, Error>;
    fn remove(&mut self, label: &str) -> Result<u32, Error>;
    fn labels(&self) -> BTreeSet<String>;
}

impl Placer for Anchor {
    fn locate(&self, key: u64) -> Result<&str, Error> {
        Anchor::locate(self, key)
    }
    fn add(&mut self, label: String) -> Result<u32, Error> {
        Anchor::add(self, label)
    }
    fn remove(&mut self, label: &str) -> Result<u32, Error> {
        Anchor::remove(self, label)
    }
    fn labels(&self) -> BTreeSet<String> {
        self.servers().map(|(_, s)| s.to_string()).collect()
    }
}

impl Placer for Memento {
    fn locate(&self, key: u64) -> Result<&str, Error> {
        Memento::locate(self, key)
    }
    fn add(&mut self, label: String) -> Result<u32, Error> {
        Memento::add(self, label)
    }
    fn remove(&mut self, label: &str) -> Result<u32, Error> {
        Memento::remove(self, label)
    }
    fn labels(&self) -> BTreeSet<String> {
        self.servers().map(|(_, s)| s.to_string()).collect()
    }
}

fn keys(n: u64) -> Vec<u64> {
    (0..n).map(|i| mix64(i ^ 0xabcdef)).collect()
}

fn placements<P: Placer>(p: &P, keys: &[u64]) -> Vec<Option<String>> {
    keys.iter()
        .map(|&k| p.locate(k).ok().map(str::to_string))
        .collect()
}

/// An operation: remove the i-th current server (mod len), or add a new or old server.
#[derive(Clone, Debug)]
enum Op {
    Remove(usize),
    Add(usize),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![
            (0usize..1000).prop_map(Op::Remove),
            (0usize..1000).prop_map(Op::Add)
        ],
        1..40,
    )
}

/// Applies `ops`, checking after each that only the changed server's keys moved and that
/// every answer is a current server. Returns the final placements.
fn check_history<P: Placer>(
    mut p: P,
    ops: &[Op],
    keys: &[u64],
    pool: usize,
) -> Vec<Option<String>> {
    let mut before = placements(&p, keys);
    for op in ops {
        let current: Vec<String> = p.labels().into_iter().collect();
        match op {
            Op::Remove(i) => {
                if current.is_empty() {
                    continue;
                }
                let gone = current[i % current.len()].clone();
                p.remove(&gone).unwrap();
                let after = placements(&p, keys);
                for (b, a) in before.iter().zip(&after) {
                    if b.as_deref() != Some(gone.as_str()) {
                        assert_eq!(b, a, "a key not on {gone} moved");
                    } else {
                        assert_ne!(a.as_deref(), Some(gone.as_str()));
                    }
                }
                before = after;
            }
            Op::Add(i) => {
                let label = format!("10.0.{}.{}:11211", (i % pool) / 250, (i % pool) % 250);
                if current.contains(&label) {
                    assert_eq!(p.add(label), Err(Error::DuplicateServer));
                    continue;
                }
                if p.add(label.clone()).is_err() {
                    continue; // anchor full
                }
                let after = placements(&p, keys);
                for (b, a) in before.iter().zip(&after) {
                    if b != a {
                        assert_eq!(a.as_deref(), Some(label.as_str()), "a key moved elsewhere");
                    }
                }
                before = after;
            }
        }
        let labels = p.labels();
        for a in &before {
            match a {
                Some(s) => assert!(labels.contains(s)),
                None => assert!(labels.is_empty()),
            }
        }
    }
    before
}

fn labels(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("10.0.{}.{}:11211", i / 250, i % 250))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn anchor_minimal_disruption(n in 1usize..40, extra in 0u32..40, ops in ops()) {
        let keys = keys(2000);
        let a = Anchor::new(n as u32 + extra, labels(n)).unwrap();
        let first = check_history(a.clone(), &ops, &keys, 200);
        // The same history from the same start gives the same answers.
        prop_assert_eq!(first, check_history(a, &ops, &keys, 200));
    }

    #[test]
    fn memento_minimal_disruption(n in 1usize..40, ops in ops()) {
        let keys = keys(2000);
        let m = Memento::new(labels(n)).unwrap();
        let first = check_history(m.clone(), &ops, &keys, 200);
        prop_assert_eq!(first, check_history(m, &ops, &keys, 200));
    }
}

/// Max and min load over the mean after removing 30 of 100 servers in a scattered order.
fn balance<P: Placer>(mut p: P) -> (f64, f64) {
    for i in [
        3, 97, 50, 0, 99, 12, 13, 14, 77, 41, 42, 5, 60, 61, 88, 23, 31, 2, 95, 70, 71, 72, 8, 9,
        10, 55, 66, 44, 33, 22,
    ] {
        p.remove(&labels(100)[i]).unwrap();
    }
    let keys = keys(300_000);
    let mut counts = std::collections::BTreeMap::<String, u64>::new();
    for k in keys {
        *counts.entry(p.locate(k).unwrap().to_string()).or_default() += 1;
    }
    assert_eq!(counts.len(), 70, "every remaining server gets keys");
    let mean = 300_000.0 / 70.0;
    let max = *counts.values().max().unwrap() as f64;
    let min = *counts.values().min().unwrap() as f64;
    (max / mean, min / mean)
}

#[test]
fn anchor_balance_after_scattered_removals() {
    // Binomial sd at mean 4286 is ~65 (1.5%); 6 sd is ~9%.
    let (max, min) = balance(Anchor::new(128, labels(100)).unwrap());
    assert!(max < 1.09 && min > 0.91, "max {max} min {min}");
}

#[test]
fn memento_balance_after_scattered_removals() {
    let (max, min) = balance(Memento::new(labels(100)).unwrap());
    assert!(max < 1.09 && min > 0.91, "max {max} min {min}");
}

#[test]
fn re_adding_restores_the_previous_answers() {
    let keys = keys(5000);
    let mut a = Anchor::new(16, labels(10)).unwrap();
    let mut m = Memento::new(labels(10)).unwrap();
    let (a0, m0) = (placements(&a, &keys), placements(&m, &keys));
    for label in [&labels(10)[4], &labels(10)[7], &labels(10)[0]] {
        Placer::remove(&mut a, label).unwrap();
        Placer::remove(&mut m, label).unwrap();
    }
    // Re-add in reverse order: the most recently removed bucket comes back first.
    for label in [&labels(10)[0], &labels(10)[7], &labels(10)[4]] {
        Placer::add(&mut a, label.clone()).unwrap();
        Placer::add(&mut m, label.clone()).unwrap();
    }
    assert_eq!(placements(&a, &keys), a0);
    assert_eq!(placements(&m, &keys), m0);
}

#[test]
fn errors() {
    assert_eq!(Anchor::new(0, labels(0)).err(), Some(Error::ZeroBuckets));
    assert_eq!(
        Anchor::new(1 << 31, labels(1)).err(),
        Some(Error::TooManyBuckets)
    );
    assert_eq!(Anchor::new(3, labels(4)).err(), Some(Error::TooManyServers));
    assert_eq!(
        Anchor::new(3, ["a", "a"]).err(),
        Some(Error::DuplicateServer)
    );
    assert_eq!(Memento::new(["a", "a"]).err(), Some(Error::DuplicateServer));
    let mut a = Anchor::new(2, ["a", "b"]).unwrap();
    assert_eq!(a.add("c"), Err(Error::TooManyServers));
    assert_eq!(a.remove("z"), Err(Error::MissingServer));
    a.remove("a").unwrap();
    a.remove("b").unwrap();
    assert_eq!(a.locate(1), Err(Error::EmptyRing));
    assert_eq!(a.add("c"), Ok(1), "the most recently removed bucket");
    assert_eq!(a.locate(1), Ok("c"));
    let mut m = Memento::new(["a"]).unwrap();
    m.remove("a").unwrap();
    assert_eq!(m.locate(1), Err(Error::EmptyRing));
    assert_eq!(m.remove("a"), Err(Error::MissingServer));
}
