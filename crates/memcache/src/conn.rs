//! One connection to one server: connect (TCP, then TLS when configured), the deadline, and
//! the pipelining core every request is built on ([`Conn::write_request`],
//! [`Conn::read_line`], [`Conn::read_data`]).

use std::fmt;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use crate::error::{error, io_text, is_closed, is_wait, printable, secs, Error, ErrorKind};
use crate::limits::POLL;
use crate::options::Options;
use crate::tls::{host_of, rustls_error};
use crate::transport::{handshake, slice, Stream, Wait};

/// Bytes read per read call.
const CHUNK: usize = 64 * 1024;

/// One connection to one server.
#[derive(Debug)]
pub struct Conn {
    pub(crate) name: String,
    /// The address connected to.
    peer: SocketAddr,
    stream: Stream,
    pub(crate) opts: Options,
    pub(crate) deadline: Instant,
    /// Received bytes not yet consumed: `buf[start..]`.
    buf: Vec<u8>,
    start: usize,
    /// Whether any byte came from the server yet.
    heard: bool,
    /// The request whose reply is being read, for messages.
    pub(crate) doing: String,
    /// Meta requests queued, sent by [`Conn::flush`].
    pub(crate) out: Vec<u8>,
    /// The first command queued since the last flush, for messages.
    pub(crate) queued: &'static str,
    /// The opaque token (`O`) the next queued meta request carries.
    pub(crate) opaque_sent: u32,
    /// The opaque token the next meta reply must carry.
    pub(crate) opaque_due: u32,
}

impl Conn {
    /// Connects to `host:port` (names are resolved; every address is tried in turn, all within
    /// one deadline of `opts.timeout`, the TLS handshake included). Messages name the server
    /// `addr`.
    pub fn connect(addr: &str, opts: Options) -> Result<Conn, Error> {
        Conn::connect_as(addr, addr, opts)
    }

    /// [`Conn::connect`] to `addr` for the server messages name `name` (a label that is not
    /// where the server listens, e.g. a stand-in process); the TLS certificate must hold the
    /// host of `addr`.
    pub fn connect_as(name: &str, addr: &str, opts: Options) -> Result<Conn, Error> {
        let deadline = Instant::now() + opts.timeout;
        let addrs: Vec<SocketAddr> = addr
            .to_socket_addrs()
            .map_err(|e| {
                error(
                    name,
                    ErrorKind::Resolve,
                    format!("cannot resolve {addr}: {e}"),
                )
            })?
            .collect();
        let mut last = error(
            name,
            ErrorKind::Resolve,
            format!("{addr} resolves to no address"),
        );
        for a in addrs {
            match Conn::open(a, name, host_of(addr), &opts, deadline) {
                Ok(c) => return Ok(c),
                Err(e) if e.kind == ErrorKind::Connect => last = e,
                Err(e) => return Err(e),
            }
        }
        Err(last)
    }

    /// Connects to one socket address; `name` is used in messages and, when it is a
    /// `host:port` label, its host is the name a TLS certificate must hold.
    pub fn connect_addr(a: SocketAddr, name: &str, opts: Options) -> Result<Conn, Error> {
        let ip = a.ip().to_string();
        let host = if name.contains(':') {
            host_of(name)
        } else {
            &ip
        };
        let deadline = Instant::now() + opts.timeout;
        Conn::open(a, name, host, &opts, deadline)
    }

    fn open(
        a: SocketAddr,
        name: &str,
        host: &str,
        opts: &Options,
        deadline: Instant,
    ) -> Result<Conn, Error> {
        let sock = loop {
            let left = slice(&opts.stop, deadline).map_err(|w| match w {
                Wait::Stopped => error(
                    name,
                    ErrorKind::Interrupted,
                    format!("interrupted while connecting to {name}"),
                ),
                Wait::Timeout => error(
                    name,
                    ErrorKind::Timeout,
                    format!(
                        "timed out after {} connecting to {name}",
                        secs(opts.timeout)
                    ),
                ),
            })?;
            match TcpStream::connect_timeout(&a, left.min(POLL)) {
                Ok(s) => break s,
                Err(e) if is_wait(&e) => continue,
                Err(e) => {
                    return Err(error(
                        name,
                        ErrorKind::Connect,
                        format!("cannot connect to {name}: {}", io_text(&e)),
                    ))
                }
            }
        };
        sock.set_nodelay(true)
            .map_err(|e| error(name, ErrorKind::Io, format!("{name}: {}", io_text(&e))))?;
        let stream = match &opts.tls {
            None => Stream::Plain(sock),
            Some(tls) => handshake(sock, tls, host, name, opts, deadline)?,
        };
        Ok(Conn {
            name: name.to_string(),
            peer: a,
            stream,
            opts: opts.clone(),
            deadline,
            buf: Vec::with_capacity(CHUNK),
            start: 0,
            heard: false,
            doing: String::new(),
            out: Vec::new(),
            queued: "",
            opaque_sent: 0,
            opaque_due: 0,
        })
    }

    /// The server's name in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The address connected to (the one of the server's addresses that answered).
    pub fn peer(&self) -> SocketAddr {
        self.peer
    }

    /// Whether this connection speaks TLS.
    pub fn is_tls(&self) -> bool {
        self.stream.is_tls()
    }

    /// Moves this connection's deadline (e.g. `Instant::now() + timeout` before each step of
    /// a long job).
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = deadline;
    }

    /// The current deadline.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    pub(crate) fn fail(&self, kind: ErrorKind, what: impl fmt::Display) -> Error {
        error(&self.name, kind, what.to_string())
    }

    /// "the reply to `stats` from 127.0.0.1:11211", for messages.
    fn reply_to(&self) -> String {
        if self.doing.is_empty() {
            format!("a reply from {}", self.name)
        } else {
            format!("the reply to `{}` from {}", self.doing, self.name)
        }
    }

    /// Said of a plain connection the server dropped or answered in TLS before sending one
    /// byte of memcached: what a TLS server does to a plain client.
    fn plain_hint(&self) -> &'static str {
        if self.stream.is_tls() || self.heard_memcached() {
            ""
        } else {
            " (a server that speaks TLS, e.g. memcached -Z or a cache with in-transit \
             encryption, does this to a client without TLS: add --tls)"
        }
    }

    /// Whether the server sent anything that is not a TLS record header.
    fn heard_memcached(&self) -> bool {
        self.heard && !matches!(self.buf.get(..2), Some([0x15 | 0x16, 0x03]))
    }

    pub(crate) fn protocol(&self, what: impl fmt::Display) -> Error {
        self.fail(
            ErrorKind::Protocol,
            format!(
                "{what} in {} (memcached never sends that){}",
                self.reply_to(),
                self.plain_hint()
            ),
        )
    }

    pub(crate) fn waited(&self, w: Wait, doing: &str) -> Error {
        match w {
            Wait::Timeout => self.fail(
                ErrorKind::Timeout,
                format!("timed out after {} {doing}", secs(self.opts.timeout)),
            ),
            Wait::Stopped => self.fail(ErrorKind::Interrupted, format!("interrupted {doing}")),
        }
    }

    /// How long the next blocking call may wait, or why it may not.
    pub(crate) fn slice(&self) -> Result<Duration, Wait> {
        slice(&self.opts.stop, self.deadline)
    }

    /// An error of a failed read or write.
    fn io_failed(&self, e: &std::io::Error, doing: String) -> Error {
        if let (Some(tls), Some(_)) = (&self.opts.tls, rustls_error(e)) {
            let (kind, message) = tls.explain(e, &self.name, "", false);
            return self.fail(kind, message);
        }
        let kind = if is_closed(e) {
            ErrorKind::Closed
        } else {
            ErrorKind::Io
        };
        self.fail(
            kind,
            format!("{doing}: {}{}", io_text(e), self.plain_hint()),
        )
    }

    /// Sends one or more requests (pipelining: write several, then read their replies in
    /// order). `command` names them in messages (e.g. `get`).
    pub fn write_request(&mut self, command: &str, mut bytes: &[u8]) -> Result<(), Error> {
        if self.doing != command {
            command.clone_into(&mut self.doing);
        }
        let sending = |c: &Conn| format!("sending `{command}` to {}", c.name);
        while !bytes.is_empty() || self.stream.pending() {
            let t = self.slice().map_err(|w| self.waited(w, &sending(self)))?;
            let r = if bytes.is_empty() {
                self.stream.flush_within(t).map(|()| 0)
            } else {
                self.stream.write_within(bytes, t)
            };
            match r {
                Ok(0) if !bytes.is_empty() => {
                    return Err(self.fail(
                        ErrorKind::Closed,
                        format!(
                            "connection closed by {} while sending `{command}`",
                            self.name
                        ),
                    ))
                }
                Ok(n) => bytes = &bytes[n..],
                Err(e) if is_wait(&e) => {}
                Err(e) => {
                    let doing = format!("cannot send `{command}` to {}", self.name);
                    return Err(self.io_failed(&e, doing));
                }
            }
        }
        Ok(())
    }

    /// Reads more bytes into the buffer; `Ok(false)` at end of stream.
    fn fill(&mut self) -> Result<bool, Error> {
        if self.start > 0 && self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        } else if self.start > self.buf.capacity() / 2 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        let mut chunk = [0u8; CHUNK];
        loop {
            let t = self
                .slice()
                .map_err(|w| self.waited(w, &format!("waiting for {}", self.reply_to())))?;
            match self.stream.read_within(&mut chunk, t) {
                Ok(0) => return Ok(false),
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    self.heard = true;
                    return Ok(true);
                }
                Err(e) if is_wait(&e) => {}
                Err(e) => {
                    let doing = format!("cannot read {}", self.reply_to());
                    return Err(self.io_failed(&e, doing));
                }
            }
        }
    }

    fn closed(&self, mid_line: bool) -> Error {
        self.fail(
            ErrorKind::Closed,
            if mid_line {
                format!(
                    "connection closed by {} in the middle of a reply line ({}){}",
                    self.name,
                    self.reply_to(),
                    self.plain_hint()
                )
            } else {
                format!(
                    "connection closed by {} before {}{}",
                    self.name,
                    self.reply_to(),
                    self.plain_hint()
                )
            },
        )
    }

    /// One reply line without its `\r\n`, at most `max` bytes. `Ok(None)`: the line was
    /// longer; it has been read past and dropped (the next call reads the line after it).
    pub fn read_line(&mut self, max: usize) -> Result<Option<Vec<u8>>, Error> {
        Ok(self.read_line_ref(max)?.map(<[u8]>::to_vec))
    }

    /// [`Conn::read_line`] without a copy: the line stays in the receive buffer, valid until
    /// the next read.
    pub fn read_line_ref(&mut self, max: usize) -> Result<Option<&[u8]>, Error> {
        Ok(self.read_line_span(max)?.map(|(a, b)| &self.buf[a..b]))
    }

    /// A reply line that must fit in `max` bytes (an overlong one is an error), borrowed
    /// from the receive buffer.
    pub(crate) fn line_ref(&mut self, max: usize) -> Result<&[u8], Error> {
        match self.read_line_span(max)? {
            Some((a, b)) => Ok(&self.buf[a..b]),
            None => Err(self.protocol(format!("a line longer than {max} bytes"))),
        }
    }

    /// Where the next reply line lies in the receive buffer (see [`Conn::read_line`]).
    fn read_line_span(&mut self, max: usize) -> Result<Option<(usize, usize)>, Error> {
        let mut searched = 0;
        let mut too_long = false;
        loop {
            let pending = &self.buf[self.start..];
            if let Some(i) = pending[searched..].iter().position(|&b| b == b'\n') {
                let at = self.start;
                let mut end = searched + i;
                self.start += end + 1;
                if end > 0 && self.buf[at + end - 1] == b'\r' {
                    end -= 1;
                }
                return Ok((!too_long && end <= max).then_some((at, at + end)));
            }
            searched = pending.len();
            if searched > max + 1 {
                // Drop what is read of an overlong line; keep looking for its end.
                too_long = true;
                self.start = self.buf.len();
                searched = 0;
            }
            if !self.fill()? {
                return Err(self.closed(too_long || self.start < self.buf.len()));
            }
        }
    }

    /// A reply line that must fit in `max` bytes (an overlong one is an error).
    pub(crate) fn line(&mut self, max: usize) -> Result<Vec<u8>, Error> {
        match self.read_line(max)? {
            Some(l) => Ok(l),
            None => Err(self.protocol(format!("a line longer than {max} bytes"))),
        }
    }

    /// Exactly `len` bytes of data followed by `\r\n` (a `VALUE`'s data block), read into
    /// one allocation of `len` bytes (the receive buffer never holds more than a read's
    /// chunk of it). The caller bounds `len` before calling.
    pub fn read_data(&mut self, len: usize) -> Result<Vec<u8>, Error> {
        let mut v = Vec::with_capacity(len);
        self.data_block(len, |part| v.extend_from_slice(part))?;
        Ok(v)
    }

    /// Reads past a data block of `len` bytes and its `\r\n` without keeping it.
    pub fn skip_data(&mut self, len: usize) -> Result<(), Error> {
        self.data_block(len, |_| {})
    }

    /// Hands the `len` bytes of a data block to `part` as they arrive, then checks its
    /// `\r\n`.
    fn data_block(&mut self, len: usize, mut part: impl FnMut(&[u8])) -> Result<(), Error> {
        let mut left = len;
        loop {
            let have = (self.buf.len() - self.start).min(left);
            part(&self.buf[self.start..self.start + have]);
            self.start += have;
            left -= have;
            if left == 0 && self.buf.len() - self.start >= 2 {
                break;
            }
            if !self.fill()? {
                return Err(self.fail(
                    ErrorKind::Closed,
                    format!(
                        "connection closed by {} in the middle of a value ({})",
                        self.name,
                        self.reply_to()
                    ),
                ));
            }
        }
        if &self.buf[self.start..self.start + 2] != b"\r\n" {
            return Err(self.protocol("a data block not ended by \\r\\n"));
        }
        self.start += 2;
        Ok(())
    }

    /// Copies received bytes into `out`: those already buffered, else what the next read
    /// brings (waiting within the deadline, watching the stop flag); `Ok(0)` at the end of
    /// the stream. For another protocol's parser over this connection (the Redis client
    /// reads RESP through it).
    pub fn read_some(&mut self, out: &mut [u8]) -> Result<usize, Error> {
        if self.start == self.buf.len() && !self.fill()? {
            return Ok(0);
        }
        let n = out.len().min(self.buf.len() - self.start);
        out[..n].copy_from_slice(&self.buf[self.start..self.start + n]);
        self.start += n;
        Ok(n)
    }

    /// An error for an unexpected reply line: the server's own error, or garbage.
    pub(crate) fn unexpected(&self, l: &[u8]) -> Error {
        if l.starts_with(b"SERVER_ERROR")
            || l.starts_with(b"CLIENT_ERROR")
            || l == b"ERROR"
            || l == b"NOT_STORED"
        {
            self.fail(
                ErrorKind::Refused,
                format!(
                    "{} answered `{}` with {}",
                    self.name,
                    self.doing,
                    printable(l)
                ),
            )
        } else {
            self.protocol(format!("unexpected line {}", printable(l)))
        }
    }
}
