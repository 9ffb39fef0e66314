//! The meta protocol of memcached 1.6+ (`mg`, `ms`, `md`, `mn`), pipelined: requests are
//! queued, sent with one [`Conn::flush`], and their replies read back in order.
//!
//! Every request carries an opaque token (`O<n>`, counting up per connection) and, when its
//! key travels as it is, asks for the key back (`k`); the replies are read in `meta_reply`, which refuses one that does not
//! carry them. Every wait has a deadline ([`Conn::flush`] gives the replies that follow the
//! whole timeout again), notices the stop flag within [`POLL`](crate::POLL), every line is
//! bounded, and a value is read only up to the server's item size limit: a silent or
//! misbehaving server makes a call fail with an error naming it, never hang.

use std::io::Write as _;
use std::time::Instant;

use crate::conn::Conn;
use crate::error::{printable, Error, ErrorKind};
use crate::key::key_token;
use crate::limits::{MAX_LINE, RELATIVE_TTL_MAX};
use crate::wire::push_num;

/// How an `ms` stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Only when the key is absent (`ME`).
    Add,
    /// Unconditionally, or on a CAS match when one is given (`MS`).
    Set,
}

impl Conn {
    /// Gives the replies that follow a fresh deadline: now + the timeout.
    pub fn renew_deadline(&mut self) {
        self.deadline = Instant::now() + self.opts.timeout;
    }

    /// Notes `name` as the request of the round being queued, for messages.
    fn command(&mut self, name: &'static str) {
        if self.out.is_empty() {
            self.queued = name;
        }
    }

    /// Sends everything queued; the replies that follow get a fresh deadline.
    pub fn flush(&mut self) -> Result<(), Error> {
        self.renew_deadline();
        if self.out.is_empty() {
            return Ok(());
        }
        let out = std::mem::take(&mut self.out);
        let r = self.write_request(self.queued, &out);
        self.out = out;
        self.out.clear();
        r
    }

    /// Checks that the server speaks the meta protocol: its version, or an error of kind
    /// [`ErrorKind::NoMeta`] naming it.
    pub fn check_meta(&mut self) -> Result<String, Error> {
        self.command("version");
        self.out.extend_from_slice(b"version\r\nmn\r\n");
        self.flush()?;
        let l = self.line(MAX_LINE)?;
        let version = printable(l.strip_prefix(b"VERSION ").unwrap_or(&l));
        let l = self.line(MAX_LINE)?;
        if l == b"MN" {
            return Ok(version);
        }
        Err(self.fail(
            ErrorKind::NoMeta,
            format!(
                "{} runs memcached {version}, which has no meta commands (`mn` answered {}): \
                 they came with memcached 1.6",
                self.name,
                printable(&l)
            ),
        ))
    }

    /// Appends ` O<n>` (the opaque token the reply must carry) and, for a key that travels
    /// as it is (`base64`: false), ` k` (the key echo) to the request being queued. A key
    /// sent in base64 is not asked back: memcached echoes the bytes of a key written by the
    /// binary protocol raw, whatever they are (a `\n` among them would cut the reply line).
    fn echo_flags(&mut self, base64: bool) {
        self.out.extend_from_slice(b" O");
        push_num(&mut self.out, i64::from(self.opaque_sent));
        if !base64 {
            self.out.extend_from_slice(b" k");
        }
        self.opaque_sent = self.opaque_sent.wrapping_add(1);
    }

    /// Queues `mg <key> <flags> O<n> k`: the key's token, ` b` when it travels in base64,
    /// then `flags`.
    fn queue_mg(&mut self, key: &[u8], flags: &[u8]) {
        self.command("mg");
        self.out.extend_from_slice(b"mg ");
        let b = key_token(key, &mut self.out);
        if b {
            self.out.extend_from_slice(b" b");
        }
        self.out.extend_from_slice(flags);
        self.echo_flags(b);
        self.out.extend_from_slice(b"\r\n");
    }

    /// Queues `mg` for the value, client flags, remaining TTL and CAS, without bumping the
    /// item in the LRU.
    pub fn queue_get(&mut self, key: &[u8]) {
        self.queue_mg(key, b" v f t c u");
    }

    /// Queues an `mg` that only asks whether the key exists.
    pub fn queue_has(&mut self, key: &[u8]) {
        self.queue_mg(key, b" u");
    }

    /// Queues an `mg` that asks for the item's CAS only.
    pub fn queue_cas(&mut self, key: &[u8]) {
        self.queue_mg(key, b" c u");
    }

    /// Queues an `ms` of `value` with client `flags` and expiry token `exp` (memcached's
    /// `T`: 0 none, up to 30 days relative, else absolute, see [`exp_token`]), asking for the
    /// CAS it gets; with `compare`, only if the item's CAS is that.
    pub fn queue_set(
        &mut self,
        key: &[u8],
        value: &[u8],
        flags: u32,
        exp: i64,
        mode: Mode,
        compare: Option<u64>,
    ) {
        self.command("ms");
        let out = &mut self.out;
        out.extend_from_slice(b"ms ");
        let b = key_token(key, out);
        out.push(b' ');
        push_num(out, value.len() as i64);
        if b {
            out.extend_from_slice(b" b");
        }
        out.extend_from_slice(b" F");
        push_num(out, i64::from(flags));
        out.extend_from_slice(b" T");
        push_num(out, exp);
        out.extend_from_slice(match mode {
            Mode::Add => b" c ME",
            Mode::Set => b" c MS",
        });
        if let Some(c) = compare {
            // Writing into a Vec cannot fail.
            let _ = write!(out, " C{c}");
        }
        self.echo_flags(b);
        self.out.extend_from_slice(b"\r\n");
        self.out.extend_from_slice(value);
        self.out.extend_from_slice(b"\r\n");
    }

    /// Queues an `md`, only if the item's CAS is `compare` when one is given.
    pub fn queue_delete(&mut self, key: &[u8], compare: Option<u64>) {
        self.command("md");
        let out = &mut self.out;
        out.extend_from_slice(b"md ");
        let b = key_token(key, out);
        if b {
            out.extend_from_slice(b" b");
        }
        if let Some(c) = compare {
            let _ = write!(out, " C{c}");
        }
        self.echo_flags(b);
        self.out.extend_from_slice(b"\r\n");
    }
}

/// The `T` token that gives an item `ttl` more seconds (`-1`: none) on a server whose clock
/// reads `server_now`: 0 for none, relative up to 30 days, absolute beyond. `None` when the
/// item has expired (a `T` of 0 would make it immortal).
pub fn exp_token(ttl: i64, server_now: i64) -> Option<i64> {
    match ttl {
        -1 => Some(0),
        t if t <= 0 => None,
        t if t <= RELATIVE_TTL_MAX => Some(t),
        t => Some(server_now + t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_tokens() {
        assert_eq!(exp_token(-1, 1000), Some(0));
        assert_eq!(exp_token(0, 1000), None);
        assert_eq!(exp_token(-5, 1000), None);
        assert_eq!(exp_token(100, 1000), Some(100));
        assert_eq!(exp_token(RELATIVE_TTL_MAX, 0), Some(RELATIVE_TTL_MAX));
        assert_eq!(
            exp_token(RELATIVE_TTL_MAX + 1, 1000),
            Some(1000 + RELATIVE_TTL_MAX + 1)
        );
    }
}
