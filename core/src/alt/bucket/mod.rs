//! Bucket functions: `input -> bucket in 0..buckets` with no server list, each bit-exact with
//! the implementation its users run.
//!
//! | [`Bucket`] | name | reference implementation | buckets |
//! |---|---|---|---|
//! | [`Bucket::Jump`] | `jump` | Lamping & Veach 2014, the paper's `JumpConsistentHash` (= dgryski/go-jump) | 1 ..= 2^31-1 |
//! | [`Bucket::Guava`] | `guava` | Guava `Hashing.consistentHash(long, int)` | 1 ..= 2^31-1 |
//! | [`Bucket::JumpBack`] | `jumpback` | hash4j `ConsistentHashing.jumpBackHash(splitMix64_V1())` | 1 ..= 2^31-1 |
//! | [`Bucket::FlipHash`] | `fliphash` | DataDog `fliphash::fliphash_64(input, ..=N-1)` (seed 0) | 1 ..= 2^31-1 |
//! | [`Bucket::MaglevGo`] | `maglev-go` | dgryski/go-maglev `New(["backend-0".."backend-(N-1)"], 65537).Lookup(input)` | 1 ..= 65537 |
//! | [`Bucket::MpcHashGo`] | `mpchash-go` | dgryski/go-mpchash `New(["shard-1".."shard-N"], siphash{1,2}, 21)`, key = decimal text | 1 ..= 65536 |
//!
//! The first four are pure functions of `(input, buckets)`: no allocation, nanoseconds per call.
//! The two Go ones build a table (maglev: 65537 slots) or a circle (mpchash: one point per shard)
//! for the bucket count, so [`bucket`] costs a build per call; build a [`Bucketer`] once to
//! answer many inputs. Their limits exist because a build above them takes too long to be a
//! useful per-call function (maglev with more than 65537 backends also leaves backends without a
//! slot); above a limit the answer is [`Error::TooManyBuckets`](crate::error::Error::TooManyBuckets).
//!
//! ```
//! use ketama_core::alt::bucket::{bucket, Bucket};
//!
//! let guava = Bucket::from_name("guava")?;
//! assert_eq!(bucket(guava, 2687259751451158933, 807)?, 195);
//! assert_eq!(bucket(Bucket::Jump, 2687259751451158933, 807)?, 576); // the paper rounds differently
//! # Ok::<(), ketama_core::Error>(())
//! ```

use alloc::vec::Vec;
use core::fmt;

use crate::decimal::Decimal;
use crate::error::Error;

mod fliphash;
mod guava;
pub(crate) mod jumpback;
mod maglev_go;
mod mpchash_go;
mod siphash;

/// One bucket function. See the [module docs](self) for each one's reference implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Bucket {
    /// `jump`: Lamping & Veach's jump consistent hash, exactly the paper's code.
    Jump,
    /// `guava`: Guava's `Hashing.consistentHash(long, int)` (not the paper's rounding).
    Guava,
    /// `jumpback`: Ertl's JumpBackHash as hash4j ships it, with SplitMix64.
    JumpBack,
    /// `fliphash`: DataDog's FlipHash, `fliphash_64` with seed 0.
    FlipHash,
    /// `maglev-go`: dgryski/go-maglev with `backend-<i>` names and 65537 slots.
    MaglevGo,
    /// `mpchash-go`: dgryski/go-mpchash with `shard-<i>` names, seeds 1 and 2, 21 probes.
    MpcHashGo,
}

impl Bucket {
    /// Every bucket function, in documentation order.
    pub const ALL: [Bucket; 6] = [
        Bucket::Jump,
        Bucket::Guava,
        Bucket::JumpBack,
        Bucket::FlipHash,
        Bucket::MaglevGo,
        Bucket::MpcHashGo,
    ];

    /// The function named `name` (exact, lower case, as [`Bucket::name`] spells it).
    pub fn from_name(name: &str) -> Result<Self, Error> {
        Bucket::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or(Error::UnknownAlgorithm)
    }

    /// The stable name (`jump`, `guava`, `jumpback`, `fliphash`, `maglev-go`, `mpchash-go`).
    pub fn name(self) -> &'static str {
        match self {
            Bucket::Jump => "jump",
            Bucket::Guava => "guava",
            Bucket::JumpBack => "jumpback",
            Bucket::FlipHash => "fliphash",
            Bucket::MaglevGo => "maglev-go",
            Bucket::MpcHashGo => "mpchash-go",
        }
    }

    /// One line: the reference implementation this function matches.
    pub fn description(self) -> &'static str {
        match self {
            Bucket::Jump => "Lamping & Veach 2014 JumpConsistentHash (the paper; go-jump agrees)",
            Bucket::Guava => "Guava Hashing.consistentHash(long, int) (Java rounding and int wrap)",
            Bucket::JumpBack => {
                "hash4j ConsistentHashing.jumpBackHash(splitMix64_V1()) (Ertl 2025, constant time)"
            }
            Bucket::FlipHash => "DataDog fliphash_64(input, ..=buckets-1), seed 0 (constant time)",
            Bucket::MaglevGo => {
                "dgryski/go-maglev New([backend-0..backend-(N-1)], 65537).Lookup(input)"
            }
            Bucket::MpcHashGo => {
                "dgryski/go-mpchash New([shard-1..shard-N], siphash seeds {1,2}, 21), key = decimal text"
            }
        }
    }

    /// The largest bucket count this function accepts.
    pub fn max_buckets(self) -> u32 {
        match self {
            Bucket::Jump | Bucket::Guava | Bucket::JumpBack | Bucket::FlipHash => i32::MAX as u32,
            Bucket::MaglevGo => maglev_go::TABLE_SIZE,
            Bucket::MpcHashGo => MPCHASH_MAX_BUCKETS,
        }
    }

    fn check(self, buckets: u32) -> Result<(), Error> {
        if buckets == 0 {
            Err(Error::ZeroBuckets)
        } else if buckets > self.max_buckets() {
            Err(Error::TooManyBuckets)
        } else {
            Ok(())
        }
    }
}

impl fmt::Display for Bucket {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `mpchash-go`'s bucket limit (2^16): a circle is one SipHash and one sorted entry per shard,
/// rebuilt by every [`bucket`] call.
const MPCHASH_MAX_BUCKETS: u32 = 1 << 16;

/// The bucket of `input` in `0..buckets` under `algorithm`.
///
/// `maglev-go` and `mpchash-go` build their table for every call; use a [`Bucketer`] for many
/// inputs.
pub fn bucket(algorithm: Bucket, input: u64, buckets: u32) -> Result<u32, Error> {
    algorithm.check(buckets)?;
    match algorithm {
        Bucket::Jump => Ok(crate::alt::jump::jump(input, buckets)),
        Bucket::Guava => Ok(guava::guava(input, buckets)),
        Bucket::JumpBack => Ok(jumpback::jumpback(input, buckets)),
        Bucket::FlipHash => Ok(fliphash::fliphash(input, buckets)),
        Bucket::MaglevGo | Bucket::MpcHashGo => Bucketer::new(algorithm, buckets)?.get(input),
    }
}

/// A bucket function fixed to one bucket count, with its table built once.
#[derive(Clone, Debug)]
pub struct Bucketer {
    algorithm: Bucket,
    buckets: u32,
    state: State,
}

#[derive(Clone, Debug)]
enum State {
    Pure,
    Maglev(Vec<u32>),
    Mpc(mpchash_go::Circle),
}

impl Bucketer {
    /// Checks `buckets` against the function's limits and builds what it needs.
    pub fn new(algorithm: Bucket, buckets: u32) -> Result<Self, Error> {
        algorithm.check(buckets)?;
        let state = match algorithm {
            Bucket::MaglevGo => State::Maglev(maglev_go::table(buckets)),
            Bucket::MpcHashGo => State::Mpc(mpchash_go::Circle::new(buckets)),
            _ => State::Pure,
        };
        Ok(Bucketer {
            algorithm,
            buckets,
            state,
        })
    }

    /// The function.
    pub fn algorithm(&self) -> Bucket {
        self.algorithm
    }

    /// The bucket count.
    pub fn buckets(&self) -> u32 {
        self.buckets
    }

    /// The bucket of `input` in `0..buckets`.
    pub fn get(&self, input: u64) -> Result<u32, Error> {
        match &self.state {
            State::Pure => bucket(self.algorithm, input, self.buckets),
            State::Maglev(table) => maglev_go::lookup(table, input).ok_or(Error::NoBucket),
            State::Mpc(circle) => circle.lookup(input).ok_or(Error::NoBucket),
        }
    }
}

/// A name prefix followed by a decimal number, on the stack (the Go functions' names and keys).
struct DecimalText {
    buf: [u8; 40],
    len: usize,
}

impl DecimalText {
    /// Starts with `prefix` (at most 20 bytes; longer prefixes are cut, which no caller does).
    fn with_prefix(prefix: &[u8]) -> Self {
        let mut buf = [0u8; 40];
        let len = prefix.len().min(20);
        buf[..len].copy_from_slice(&prefix[..len]);
        DecimalText { buf, len }
    }

    /// Appends `n` in decimal (at most 20 digits, which always fit).
    fn push_u64(&mut self, n: u64) {
        let digits = Decimal::new(n);
        let d = digits.as_bytes();
        self.buf[self.len..self.len + d.len()].copy_from_slice(d);
        self.len += d.len();
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for b in Bucket::ALL {
            assert_eq!(Bucket::from_name(b.name()), Ok(b));
            assert!(!b.description().is_empty());
        }
        assert_eq!(Bucket::from_name("Jump"), Err(Error::UnknownAlgorithm));
        assert_eq!(Bucket::from_name(""), Err(Error::UnknownAlgorithm));
    }

    #[test]
    fn limits_are_typed_errors() {
        for b in Bucket::ALL {
            assert_eq!(bucket(b, 7, 0), Err(Error::ZeroBuckets));
            assert_eq!(bucket(b, 7, b.max_buckets().saturating_add(1)).err(), {
                (b.max_buckets() < u32::MAX).then_some(Error::TooManyBuckets)
            });
            assert_eq!(bucket(b, u64::MAX, 1), Ok(0));
        }
        for b in [
            Bucket::Jump,
            Bucket::Guava,
            Bucket::JumpBack,
            Bucket::FlipHash,
        ] {
            for input in [0, 1 << 63, u64::MAX, 12345] {
                assert!(bucket(b, input, i32::MAX as u32).unwrap() < i32::MAX as u32);
            }
            assert_eq!(bucket(b, 1, u32::MAX), Err(Error::TooManyBuckets));
        }
    }

    #[test]
    fn bucketer_agrees_with_bucket() {
        for b in Bucket::ALL {
            for n in [1, 2, 3, 10, 97] {
                let t = Bucketer::new(b, n).unwrap();
                for input in [0, 1, 99, 1 << 63, u64::MAX] {
                    let got = t.get(input).unwrap();
                    assert!(got < n);
                    assert_eq!(Ok(got), bucket(b, input, n));
                }
            }
        }
    }

    #[test]
    fn decimal_text() {
        let mut t = DecimalText::with_prefix(b"shard-");
        t.push_u64(u64::MAX);
        assert_eq!(t.as_bytes(), b"shard-18446744073709551615");
        let mut t = DecimalText::with_prefix(b"");
        t.push_u64(0);
        assert_eq!(t.as_bytes(), b"0");
    }
}
