//! What the tests of the fleet crates and of the `ketama` command share (never shipped):
//! - [`alloc`]: a counting global allocator, for tests that check a memory measurement;
//! - [`fake`]: fake memcached servers that misbehave (slow, stalled, endless, garbage,
//!   killed mid-reply);
//! - [`meta_fake`]: a fake memcached speaking the meta protocol that answers out of order or
//!   lies about its values' sizes;
//! - [`memcached`]: real memcached processes on free ports of 127.0.0.1, killed on drop;
//! - [`redis`]: real redis-server processes (TLS, ACL, cluster mode as asked), killed on
//!   drop and with the test process;
//! - [`tls`]: certificates made with `openssl` and `memcached -Z` processes;
//! - [`meta`]: a tiny meta-protocol client of its own, to write and read keys around the
//!   client under test;
//! - [`signal`]: SIGINT to a program under test once it is ready, its peak memory;
//! - [`packages`]: the Debian packages a fixture needs, through tests/lib/need.sh.
//!
//! Every fixture stops what it started (by PID, on drop); none outlives its test.
#![deny(missing_docs)]

pub mod alloc;
pub mod fake;
pub mod memcached;
pub mod meta;
pub mod meta_fake;
pub mod packages;
pub mod redis;
pub mod signal;
pub mod tls;
