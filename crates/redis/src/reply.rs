//! Reading RESP values: one reply off the connection within a byte bound (the redis crate's
//! parser over the byte stream), and what a reply must be for each command.

use std::io::{self, Read};

use redis::Value;

use crate::error::{Error, ErrorKind};

/// The byte stream as the parser reads it: at most `left` more bytes, the stream's own
/// failure kept to be reported as it is.
pub(crate) struct Bounded<'a> {
    pub(crate) net: &'a mut ketama_memcache::Conn,
    pub(crate) left: usize,
    pub(crate) failed: Option<ketama_memcache::Error>,
    pub(crate) over: bool,
    pub(crate) ended: bool,
}

impl Read for Bounded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            self.over = true;
            return Err(io::Error::other("reply over its bound"));
        }
        let n = buf.len().min(self.left);
        match self.net.read_some(&mut buf[..n]) {
            Ok(0) => {
                self.ended = true;
                Ok(0)
            }
            Ok(k) => {
                self.left -= k;
                Ok(k)
            }
            Err(e) => {
                self.failed = Some(e);
                Err(io::Error::other("the stream failed"))
            }
        }
    }
}

/// The text of a server's error reply (the error of a [`Value::ServerError`]): its code and
/// detail (`WRONGPASS invalid ...`).
pub(crate) fn error_text<E: Clone + Into<redis::RedisError>>(e: &E) -> String {
    let r: redis::RedisError = e.clone().into();
    let code = r.code().unwrap_or("ERR");
    match r.detail() {
        Some(d) => format!("{code} {d}"),
        None => code.to_string(),
    }
}

/// The code of a server's error reply (`NOAUTH`).
pub(crate) fn error_code<E: Clone + Into<redis::RedisError>>(e: &E) -> String {
    let r: redis::RedisError = e.clone().into();
    r.code().unwrap_or("ERR").to_string()
}

/// A reply that is not what `command` answers.
pub(crate) fn unexpected(server: &str, command: &str, v: &Value) -> Error {
    let shown = format!("{v:?}");
    let shown: String = shown.chars().take(120).collect();
    Error::new(
        server,
        ErrorKind::Protocol,
        format!("{server} answered `{command}` with {shown}, which Redis never sends"),
    )
}

/// The server's refusal of `command`.
pub(crate) fn refused(server: &str, command: &str, text: &str) -> Error {
    Error::new(
        server,
        ErrorKind::Refused,
        format!("{server} answered `{command}` with {text}"),
    )
}

/// An integer reply (Redis sends some numbers as strings).
pub(crate) fn int(server: &str, command: &str, v: &Value) -> Result<i64, Error> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::BulkString(b) => std::str::from_utf8(b)
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| unexpected(server, command, v)),
        Value::ServerError(e) => Err(refused(server, command, &error_text(e))),
        _ => Err(unexpected(server, command, v)),
    }
}

/// A bulk string reply, `None` for nil.
pub(crate) fn bytes(server: &str, command: &str, v: Value) -> Result<Option<Vec<u8>>, Error> {
    match v {
        Value::BulkString(b) => Ok(Some(b)),
        Value::Nil => Ok(None),
        Value::SimpleString(s) => Ok(Some(s.into_bytes())),
        Value::ServerError(e) => Err(refused(server, command, &error_text(&e))),
        v => Err(unexpected(server, command, &v)),
    }
}

/// `+OK`.
pub(crate) fn ok(server: &str, command: &str, v: &Value) -> Result<(), Error> {
    match v {
        Value::Okay => Ok(()),
        Value::SimpleString(s) if s == "OK" => Ok(()),
        Value::ServerError(e) => Err(refused(server, command, &error_text(e))),
        _ => Err(unexpected(server, command, v)),
    }
}

/// A server that wants a login and was given none.
pub(crate) fn needs_login(name: &str, text: &str) -> Error {
    Error::new(
        name,
        ErrorKind::Auth,
        format!("{name} requires a login ({text}): give the user and the password"),
    )
}
