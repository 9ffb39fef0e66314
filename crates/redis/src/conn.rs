//! One connection to one Redis (or Valkey) server: connect, log in, pick the database, learn
//! who answers ([`ServerInfo`]); then rounds of pipelined commands, each reply read within
//! its byte bound and the round's deadline.

use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use redis::{Cmd, Parser, Value};

use crate::error::{Error, ErrorKind};
use crate::info::{unix_ms, ServerInfo};
use crate::limits::MAX_REPLY;
use crate::options::Options;
use crate::reply::{error_code, error_text, needs_login, ok, refused, Bounded};

/// One connection to one server. A connection that failed (a read or write error, a reply
/// that is not RESP) refuses further use: the caller drops it and opens another.
#[derive(Debug)]
pub struct Conn {
    net: ketama_memcache::Conn,
    parser: ParserBox,
    /// Commands queued, sent by [`Conn::flush`].
    out: Vec<u8>,
    /// The first command queued since the last flush, for messages.
    first: &'static str,
    /// Whether each flush gives the round a fresh deadline (else one deadline for all).
    renew: bool,
    broken: bool,
    info: ServerInfo,
    /// The caller's stop flag (for the work a listing does on disk).
    stop: Arc<AtomicBool>,
}

/// The parser (which holds bytes read past the last reply), shown in `Debug` as a name.
struct ParserBox(Parser);

impl std::fmt::Debug for ParserBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Parser")
    }
}

impl Conn {
    /// Connects to `addr` (the server messages name `label`), logs in with the options'
    /// user and password, selects the database, and reads who answers; a Redis Cluster node
    /// and a server older than [`MIN_VERSION`](crate::MIN_VERSION) are refused
    /// ([`ErrorKind::Unsupported`]). All within one deadline of the options' timeout.
    pub fn connect(label: &str, addr: &str, opts: &Options) -> Result<Conn, Error> {
        let net = ketama_memcache::Conn::connect_as(label, addr, opts.net.clone())?;
        let mut c = Conn {
            net,
            parser: ParserBox(Parser::new()),
            out: Vec::new(),
            first: "",
            renew: false,
            broken: false,
            info: ServerInfo::default(),
            stop: opts.net.stop.clone(),
        };
        c.login(opts)?;
        c.info = c.read_info()?;
        c.info.check(label)?;
        c.renew = true;
        Ok(c)
    }

    /// Reads `INFO server`, `INFO cluster` and `TIME` in one round.
    fn read_info(&mut self) -> Result<ServerInfo, Error> {
        self.queue("INFO", redis::cmd("INFO").arg("server"));
        self.queue("INFO", redis::cmd("INFO").arg("cluster"));
        self.queue("TIME", &redis::cmd("TIME"));
        self.flush()?;
        let mut replies = Vec::with_capacity(3);
        for _ in 0..3 {
            let v = self.read(MAX_REPLY)?;
            if let Value::ServerError(e) = &v {
                if error_code(e) == "NOAUTH" {
                    return Err(needs_login(self.name(), &error_text(e)));
                }
                return Err(refused(self.name(), "INFO", &error_text(e)));
            }
            replies.push(v);
        }
        ServerInfo::from_replies(self.name(), replies, unix_ms())
    }

    /// `AUTH` (when a password is given) and `SELECT` (when the database is not 0), in one
    /// round.
    fn login(&mut self, opts: &Options) -> Result<(), Error> {
        let mut sent = Vec::new();
        if let Some(p) = &opts.password {
            let mut auth = redis::cmd("AUTH");
            if let Some(u) = &opts.user {
                auth.arg(u.as_str());
            }
            auth.arg(p.text());
            self.queue("AUTH", &auth);
            sent.push("AUTH");
        }
        if opts.db != 0 {
            self.queue("SELECT", redis::cmd("SELECT").arg(opts.db));
            sent.push("SELECT");
        }
        if sent.is_empty() {
            return Ok(());
        }
        self.flush()?;
        let name = self.name().to_string();
        for command in sent {
            let v = self.read(MAX_REPLY)?;
            match (&v, command) {
                (Value::ServerError(e), "AUTH") => {
                    let who = opts
                        .user
                        .as_deref()
                        .map_or("the default user".to_string(), |u| format!("user '{u}'"));
                    return Err(Error::new(
                        &name,
                        ErrorKind::Auth,
                        format!("{name} refused the login of {who}: {}", error_text(e)),
                    ));
                }
                (Value::ServerError(e), _) if error_code(e) == "NOAUTH" => {
                    return Err(needs_login(&name, &error_text(e)))
                }
                _ => ok(&name, command, &v).map_err(|e| match e.kind {
                    ErrorKind::Refused if command == "SELECT" => Error::new(
                        &name,
                        ErrorKind::Refused,
                        format!("{} (database {} does not exist there?)", e.message, opts.db),
                    ),
                    _ => e,
                })?,
            }
        }
        Ok(())
    }

    /// The server's name in messages.
    pub fn name(&self) -> &str {
        self.net.name()
    }

    /// The address connected to.
    pub fn peer(&self) -> SocketAddr {
        self.net.peer()
    }

    /// Who answers: version, run id, process, clock, cluster mode (read at connect).
    pub fn info(&self) -> &ServerInfo {
        &self.info
    }

    /// Whether each [`flush`](Conn::flush) gives the replies that follow a fresh deadline
    /// (the default), or the deadline set now holds for every round from here on.
    pub fn renew_each_round(&mut self, renew: bool) {
        self.renew = renew;
        if !renew {
            self.net.renew_deadline();
        }
    }

    /// The caller's stop flag.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Queues `cmd` (named `name` in messages) for the next [`flush`](Conn::flush).
    pub fn queue(&mut self, name: &'static str, cmd: &Cmd) {
        if self.out.is_empty() {
            self.first = name;
        }
        cmd.write_packed_command(&mut self.out);
    }

    /// Sends the queued commands (a fresh deadline for their replies, unless
    /// [`renew_each_round`](Conn::renew_each_round) said otherwise).
    pub fn flush(&mut self) -> Result<(), Error> {
        self.usable()?;
        if self.renew {
            self.net.renew_deadline();
        }
        let out = std::mem::take(&mut self.out);
        let r = self.net.write_request(self.first, &out);
        self.out = out;
        self.out.clear();
        if r.is_err() {
            self.broken = true;
        }
        Ok(r?)
    }

    fn usable(&self) -> Result<(), Error> {
        if self.broken {
            let n = self.name();
            return Err(Error::new(
                n,
                ErrorKind::Connection,
                format!("the connection to {n} failed before"),
            ));
        }
        Ok(())
    }

    /// Reads the next reply, of at most `limit` bytes. A server's error reply is a value
    /// ([`Value::ServerError`]) for the caller to judge; a failure of the stream or bytes
    /// that are not RESP are errors, after which the connection refuses further use.
    pub fn read(&mut self, limit: usize) -> Result<Value, Error> {
        self.usable()?;
        let mut r = Bounded {
            net: &mut self.net,
            left: limit,
            failed: None,
            over: false,
            ended: false,
        };
        let v = self.parser.0.parse_value(&mut r);
        let (failed, over, ended) = (r.failed.take(), r.over, r.ended);
        match v {
            Ok(v) => Ok(v),
            Err(e) => {
                self.broken = true;
                let n = self.name();
                Err(match (failed, over, ended) {
                    (Some(f), _, _) => f.into(),
                    (None, true, _) => Error::new(
                        n,
                        ErrorKind::Protocol,
                        format!(
                            "a reply from {n} to `{}` is longer than {limit} bytes",
                            self.first
                        ),
                    ),
                    (None, false, true) => Error::new(
                        n,
                        ErrorKind::Connection,
                        format!(
                            "connection closed by {n} while waiting for the reply to `{}`{}",
                            self.first,
                            if self.net.is_tls() {
                                ""
                            } else {
                                " (a server that speaks TLS does this to a client without \
                                 it: add --tls)"
                            }
                        ),
                    ),
                    _ => Error::new(
                        n,
                        ErrorKind::Protocol,
                        format!(
                            "{n} sent what is not RESP in reply to `{}`: {e}",
                            self.first
                        ),
                    ),
                })
            }
        }
    }

    /// One command, its reply; an error reply is an [`ErrorKind::Refused`] error.
    pub fn call(&mut self, name: &'static str, cmd: &Cmd) -> Result<Value, Error> {
        self.queue(name, cmd);
        self.flush()?;
        match self.read(MAX_REPLY)? {
            Value::ServerError(e) if error_code(&e) == "NOAUTH" => {
                Err(needs_login(self.name(), &error_text(&e)))
            }
            Value::ServerError(e) => Err(refused(self.name(), name, &error_text(&e))),
            v => Ok(v),
        }
    }
}
