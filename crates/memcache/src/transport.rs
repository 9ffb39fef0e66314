//! The byte stream under a connection, plain TCP or TLS over TCP, and the time slices every
//! wait on it is cut into.
//!
//! Each read, write and handshake step waits at most one slice (until the deadline, at most
//! [`POLL`]), so the stop flag and the deadline are checked between steps. rustls keeps its
//! state across a step that ran out of time (it is built for non-blocking sockets), so a
//! step that timed out is simply tried again.

use std::fmt;
use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustls::{ClientConnection, StreamOwned};

use crate::error::{error, is_wait, secs, Error, ErrorKind};
use crate::limits::POLL;
use crate::options::Options;
use crate::tls::Tls;

/// How a wait ended early.
pub(crate) enum Wait {
    Timeout,
    Stopped,
}

/// How long the next blocking step may wait, or why it may not.
pub(crate) fn slice(stop: &AtomicBool, deadline: Instant) -> Result<Duration, Wait> {
    if stop.load(Ordering::SeqCst) {
        return Err(Wait::Stopped);
    }
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(Wait::Timeout);
    }
    Ok(left.min(POLL))
}

/// A connected stream.
pub(crate) enum Stream {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stream::Plain(s) => f.debug_tuple("Plain").field(s).finish(),
            Stream::Tls(s) => f.debug_tuple("Tls").field(&s.sock).finish(),
        }
    }
}

/// A TLS step reads and writes (a read may have to send, a write may have to receive), so
/// both directions get the slice.
fn both(sock: &TcpStream, t: Duration) -> io::Result<()> {
    sock.set_read_timeout(Some(t))?;
    sock.set_write_timeout(Some(t))
}

impl Stream {
    /// Whether this stream is TLS.
    pub(crate) fn is_tls(&self) -> bool {
        matches!(self, Stream::Tls(_))
    }

    /// Reads what has arrived, waiting at most `t` (a timed-out wait is an error that
    /// [`is_wait`] accepts).
    pub(crate) fn read_within(&mut self, buf: &mut [u8], t: Duration) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => {
                s.set_read_timeout(Some(t))?;
                s.read(buf)
            }
            Stream::Tls(s) => {
                both(&s.sock, t)?;
                s.read(buf)
            }
        }
    }

    /// Writes some of `buf`, waiting at most `t`. TLS may keep written bytes buffered:
    /// [`Stream::flush_within`] sends them.
    pub(crate) fn write_within(&mut self, buf: &[u8], t: Duration) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => {
                s.set_write_timeout(Some(t))?;
                s.write(buf)
            }
            Stream::Tls(s) => {
                both(&s.sock, t)?;
                s.write(buf)
            }
        }
    }

    /// Whether bytes written are still buffered (only TLS buffers).
    pub(crate) fn pending(&self) -> bool {
        match self {
            Stream::Plain(_) => false,
            Stream::Tls(s) => s.conn.wants_write(),
        }
    }

    /// Sends buffered bytes, waiting at most `t`.
    pub(crate) fn flush_within(&mut self, t: Duration) -> io::Result<()> {
        match self {
            Stream::Plain(_) => Ok(()),
            Stream::Tls(s) => {
                both(&s.sock, t)?;
                s.flush()
            }
        }
    }
}

/// Runs the TLS handshake on a connected socket; the deadline and the stop flag hold as for
/// any other wait. `name` names the server in messages; `host` is the name its certificate
/// must hold (unless the configuration names another).
pub(crate) fn handshake(
    sock: TcpStream,
    tls: &Tls,
    host: &str,
    name: &str,
    opts: &Options,
    deadline: Instant,
) -> Result<Stream, Error> {
    let (conn, checked) = tls
        .client(host)
        .map_err(|m| error(name, ErrorKind::Tls, format!("{name}: {m}")))?;
    let mut s = StreamOwned::new(conn, sock);
    while s.conn.is_handshaking() {
        let t = slice(&opts.stop, deadline).map_err(|w| match w {
            Wait::Timeout => error(
                name,
                ErrorKind::Timeout,
                format!(
                    "timed out after {} in the TLS handshake with {name} (a server without \
                     TLS never answers one: was --tls meant?)",
                    secs(opts.timeout)
                ),
            ),
            Wait::Stopped => error(
                name,
                ErrorKind::Interrupted,
                format!("interrupted in the TLS handshake with {name}"),
            ),
        })?;
        both(&s.sock, t).map_err(|e| error(name, ErrorKind::Io, format!("{name}: {e}")))?;
        match s.conn.complete_io(&mut s.sock) {
            Ok(_) => {}
            Err(e) if is_wait(&e) => {}
            Err(e) => {
                let (kind, message) = tls.explain(&e, name, &checked, true);
                return Err(error(name, kind, message));
            }
        }
    }
    Ok(Stream::Tls(Box::new(s)))
}
