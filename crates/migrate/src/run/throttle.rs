//! The byte limit of a run (`--max-bytes-per-s`, overall and per OLD server): token buckets
//! charged with the bytes of the values actually read from each OLD server (what the copy
//! takes from a server's network and CPU; the listing's own traffic is not counted).
//!
//! A worker waits before each round of reads until the overall bucket and the bucket of every
//! server of the round are out of debt, then reads, then is charged what it read. So over any
//! span of time a server gives at most its rate times the span, plus a tenth of a second of
//! burst, plus one round in flight per worker (batches shrink to a twentieth of a second of
//! bytes when a limit is set, so a round is small). The clock is a [`Clock`], so a test can
//! run the limiter on simulated time and check its accounting exactly.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Time as the limiter sees it.
pub trait Clock: Send + Sync {
    /// Time since the clock's origin.
    fn now(&self) -> Duration;
    /// Waits until [`now`](Self::now) is at least `t`, or `stop` is raised (checked at
    /// least every 50 ms).
    fn sleep_until(&self, t: Duration, stop: &AtomicBool);
}

/// This machine's monotonic clock.
#[derive(Debug)]
pub struct RealClock {
    origin: Instant,
}

impl Default for RealClock {
    fn default() -> RealClock {
        RealClock {
            origin: Instant::now(),
        }
    }
}

impl Clock for RealClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }

    fn sleep_until(&self, t: Duration, stop: &AtomicBool) {
        while !stop.load(Ordering::SeqCst) {
            let now = self.now();
            if now >= t {
                return;
            }
            std::thread::sleep((t - now).min(Duration::from_millis(50)));
        }
    }
}

/// Byte limits: bytes per second of values read, over all OLD servers and per OLD server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteLimits {
    /// All OLD servers together.
    pub overall: Option<u64>,
    /// Each OLD server.
    pub per_server: Option<u64>,
}

impl ByteLimits {
    /// Whether any limit is set.
    pub fn any(&self) -> bool {
        self.overall.is_some() || self.per_server.is_some()
    }

    /// The bytes of a batch: a twentieth of a second of the lowest limit (at least 1 byte:
    /// a batch holds at least one key whatever its size), at most `most`.
    pub fn batch_bytes(&self, most: u64) -> u64 {
        [self.overall, self.per_server]
            .into_iter()
            .flatten()
            .map(|r| (r / 20).max(1))
            .fold(most, u64::min)
    }
}

/// One token bucket of bytes: tokens (negative: debt) as of `at`.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    rate: f64,
    tokens: f64,
    at: Duration,
}

impl Bucket {
    fn new(rate: u64, now: Duration) -> Bucket {
        Bucket {
            rate: rate as f64,
            tokens: 0.0,
            at: now,
        }
    }

    /// Refills to `now` (at most a tenth of a second of burst).
    fn refill(&mut self, now: Duration) {
        let gained = now.saturating_sub(self.at).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + gained).min(self.rate / 10.0);
        self.at = now;
    }

    /// How long until its debt is paid.
    fn wait(&self) -> Duration {
        if self.tokens >= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(-self.tokens / self.rate)
        }
    }
}

#[derive(Debug, Default)]
struct Buckets {
    overall: Option<Bucket>,
    servers: BTreeMap<usize, Bucket>,
    /// Bytes charged per OLD server (file position).
    charged: BTreeMap<usize, u64>,
    /// Time spent waiting (the longest wait of concurrent workers counts once).
    waited: Duration,
    /// Until when some worker has waited.
    waited_until: Duration,
}

/// The byte limiter of a run, shared by its workers.
pub struct Throttle {
    limits: ByteLimits,
    clock: Arc<dyn Clock>,
    state: Mutex<Buckets>,
}

impl std::fmt::Debug for Throttle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Throttle")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Throttle {
    /// A limiter of `limits` on this machine's clock.
    pub fn new(limits: ByteLimits) -> Throttle {
        Throttle::with_clock(limits, Arc::new(RealClock::default()))
    }

    /// A limiter of `limits` on `clock`.
    pub fn with_clock(limits: ByteLimits, clock: Arc<dyn Clock>) -> Throttle {
        let now = clock.now();
        Throttle {
            limits,
            state: Mutex::new(Buckets {
                overall: limits.overall.map(|r| Bucket::new(r, now)),
                ..Buckets::default()
            }),
            clock,
        }
    }

    /// The limits.
    pub fn limits(&self) -> ByteLimits {
        self.limits
    }

    /// Waits until the overall bucket and those of `servers` (OLD file positions) are out of
    /// debt, or `stop` is raised.
    pub fn wait(&self, servers: &[usize], stop: &AtomicBool) {
        loop {
            let until = {
                let Ok(mut b) = self.state.lock() else { return };
                let now = self.clock.now();
                let mut wait = Duration::ZERO;
                if let Some(o) = b.overall.as_mut() {
                    o.refill(now);
                    wait = wait.max(o.wait());
                }
                if let Some(rate) = self.limits.per_server {
                    for &s in servers {
                        let k = b.servers.entry(s).or_insert_with(|| Bucket::new(rate, now));
                        k.refill(now);
                        wait = wait.max(k.wait());
                    }
                }
                if wait.is_zero() {
                    return;
                }
                let until = now + wait;
                let from = now.max(b.waited_until);
                if until > from {
                    b.waited += until - from;
                    b.waited_until = until;
                }
                until
            };
            if stop.load(Ordering::SeqCst) {
                return;
            }
            self.clock.sleep_until(until, stop);
        }
    }

    /// Charges `bytes` read from OLD server `server`.
    pub fn charge(&self, server: usize, bytes: u64) {
        let Ok(mut b) = self.state.lock() else { return };
        let now = self.clock.now();
        *b.charged.entry(server).or_default() += bytes;
        if let Some(o) = b.overall.as_mut() {
            o.refill(now);
            o.tokens -= bytes as f64;
        }
        if let Some(rate) = self.limits.per_server {
            let k = b
                .servers
                .entry(server)
                .or_insert_with(|| Bucket::new(rate, now));
            k.refill(now);
            k.tokens -= bytes as f64;
        }
    }

    /// Bytes charged per OLD server (file position).
    pub fn charged(&self) -> BTreeMap<usize, u64> {
        self.state
            .lock()
            .map(|b| b.charged.clone())
            .unwrap_or_default()
    }

    /// Time the workers spent waiting on the limiter (overlapping waits once).
    pub fn waited(&self) -> Duration {
        self.state.lock().map(|b| b.waited).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Simulated time: it moves only when someone sleeps.
    #[derive(Default)]
    struct Sim(Mutex<Duration>);

    impl Clock for Sim {
        fn now(&self) -> Duration {
            *self.0.lock().unwrap()
        }
        fn sleep_until(&self, t: Duration, _: &AtomicBool) {
            let mut now = self.0.lock().unwrap();
            *now = (*now).max(t);
        }
    }

    fn secs(d: Duration) -> f64 {
        d.as_secs_f64()
    }

    #[test]
    fn an_overall_limit_paces_reads_to_its_rate() {
        let sim = Arc::new(Sim::default());
        let t = Throttle::with_clock(
            ByteLimits {
                overall: Some(1_000_000),
                per_server: None,
            },
            sim.clone(),
        );
        let stop = AtomicBool::new(false);
        // 100 rounds of 50 KB from two servers: 5 MB at 1 MB/s.
        for i in 0..100 {
            t.wait(&[i % 2], &stop);
            t.charge(i % 2, 50_000);
        }
        // The last round is charged after its wait: 4.95 MB paid for by then.
        assert!((secs(sim.now()) - 4.95).abs() < 1e-6, "{:?}", sim.now());
        assert_eq!(
            t.charged(),
            BTreeMap::from([(0, 2_500_000), (1, 2_500_000)])
        );
        assert!((secs(t.waited()) - 4.95).abs() < 1e-6);
        // Time that passes without reads refills at most a tenth of a second of burst.
        sim.sleep_until(sim.now() + Duration::from_secs(60), &stop);
        let before = sim.now();
        t.wait(&[0], &stop);
        t.charge(0, 300_000);
        t.wait(&[0], &stop);
        assert!((secs(sim.now() - before) - 0.2).abs() < 1e-6);
    }

    #[test]
    fn a_per_server_limit_holds_each_server_apart() {
        let sim = Arc::new(Sim::default());
        let t = Throttle::with_clock(
            ByteLimits {
                overall: None,
                per_server: Some(100_000),
            },
            sim.clone(),
        );
        let stop = AtomicBool::new(false);
        // Rounds alternate between two servers, each paced alone: 10 rounds of 20 KB each.
        for _ in 0..10 {
            for s in [0, 1] {
                t.wait(&[s], &stop);
                t.charge(s, 20_000);
            }
        }
        // Each server: 200 KB at 100 KB/s, both at once; the last charge comes after the
        // wait for 180 KB.
        assert!((secs(sim.now()) - 1.8).abs() < 1e-6, "{:?}", sim.now());
        // A round over both servers waits for the one in debt.
        t.charge(0, 100_000);
        let before = sim.now();
        t.wait(&[0, 1], &stop);
        assert!((secs(sim.now() - before) - 1.2).abs() < 1e-6);
    }

    #[test]
    fn a_stop_ends_a_wait_and_batches_shrink_to_the_lowest_limit() {
        let t = Throttle::new(ByteLimits {
            overall: Some(1),
            per_server: None,
        });
        t.charge(0, 1_000_000);
        let stop = AtomicBool::new(true);
        let start = Instant::now();
        t.wait(&[0], &stop);
        assert!(start.elapsed() < Duration::from_secs(1));
        let l = ByteLimits {
            overall: Some(10_000_000),
            per_server: Some(200_000),
        };
        assert_eq!(l.batch_bytes(4 << 20), 10_000);
        assert_eq!(ByteLimits::default().batch_bytes(4 << 20), 4 << 20);
        assert_eq!(
            ByteLimits {
                overall: Some(5),
                per_server: None
            }
            .batch_bytes(4 << 20),
            1
        );
    }
}
