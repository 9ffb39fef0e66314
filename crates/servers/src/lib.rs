//! The servers file of the `ketama` command: its text parsed into a [`Fleet`] ([`parse()`]),
//! a fleet built into a ring ([`ring()`]), every refusal an [`Error`] that names the file
//! and, where one is to blame, the line.
//!
//! One server per line: `host:port [weight] [name]`, fields separated by spaces or tabs (so
//! libketama's `ip:port<TAB>memory` files load as they are). `#` starts a comment (a whole
//! line, or the rest of a line after whitespace); blank lines are skipped. IPv6 is written
//! `[addr]:port`. A server's label is `host:port` exactly as written; `name` becomes
//! [`Server::with_name`](ketama_core::Server::with_name) (twemproxy's server name, the Java
//! clients' node string). Two lines naming one endpoint are refused.
//!
//! A UTF-8 byte-order mark is refused, not stripped (`file:1: the file starts with a UTF-8
//! byte-order mark ...`): stripping it would make the file mean something other than what a
//! client reading the same file sees (libketama would hash the mark into the first label).
//! Nothing else is stripped from a label: only `\r` before the newline, comments and the
//! blanks between fields.
//!
//! Pure: the caller reads the file (within its own bound) and hands its bytes over. This is
//! not libketama's own format with its quirks, which the C and Python drop-ins read through
//! `ketama_core::servers_file`.

mod error;
mod fleet;
mod parse;
mod ring;

pub use error::{Error, ErrorKind};
pub use fleet::{Fleet, Line};
pub use parse::parse;
pub use ring::ring;
