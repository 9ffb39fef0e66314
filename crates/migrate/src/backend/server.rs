//! The two traits a backend implements: [`Backend`] opens a [`Connection`] to one server.

use super::error::ServerError;
use super::types::{Ask, Identity, ListSummary, Listed, Reply, Request};

/// Which fleet of a migration a server belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The fleet as today's clients see it.
    Old,
    /// The fleet as tomorrow's clients will.
    New,
}

/// One server of a fleet: the label placement hashes, where it listens, and its side (a
/// backend may reach each side with other settings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The label (as in the servers file); messages name the server by it.
    pub label: String,
    /// Where to connect (`host:port`).
    pub addr: String,
    /// OLD or NEW.
    pub side: Side,
}

/// What a connection will be used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Listing keys only (`plan`, `verify`'s listings): any server that can list will do.
    List,
    /// Reading, writing, updating and deleting items too: the server must support every
    /// [`Request`], or opening fails with
    /// [`ServerErrorKind::Unsupported`](super::ServerErrorKind::Unsupported).
    Sync,
}

/// A kind of server (memcached, Redis): opens connections to servers of a fleet.
pub trait Backend: Sync {
    /// A connection to one server.
    type Conn: Connection;

    /// Connects to `server` for `purpose`, within the backend's own deadline and stop flag.
    fn open(&self, server: &Endpoint, purpose: Purpose) -> Result<Self::Conn, ServerError>;

    /// Whether requests can name `key` (memcached's meta protocol: not a binary key whose
    /// base64 is over 250 bytes). Keys it cannot name are counted, not copied.
    fn names(&self, key: &[u8]) -> bool {
        let _ = key;
        true
    }

    /// The most requests one connection may have in flight (`None`: a whole batch).
    fn pipeline(&self) -> Option<usize> {
        None
    }
}

/// One connection to one server, as the engine uses it.
pub trait Connection: Send {
    /// Lists every key the server holds, each once, to `each` (an error of `each` ends the
    /// listing with it). Each key comes with what `ask` asks: its [`Version`], its
    /// [`Heat`] (a backend whose listing shows one for free may give it always; one that must
    /// compute it, Redis, only when asked). The summary says how complete the listing is.
    ///
    /// [`Version`]: super::Version
    /// [`Heat`]: crate::heat::Heat
    fn list(
        &mut self,
        ask: Ask,
        each: &mut dyn FnMut(Listed) -> Result<(), ServerError>,
    ) -> Result<ListSummary, ServerError>;

    /// Which server process answers.
    fn identity(&mut self) -> Result<Identity, ServerError>;

    /// Sends one request per item of `requests`, without reading replies. `keep` is the most
    /// bytes of item data the round's [`receive`](Self::receive) will keep (`u64::MAX`: no
    /// bound): a backend whose server can leave out a value over it (Redis) asks for that.
    fn send(&mut self, requests: &[Request<'_>], keep: u64) -> Result<(), ServerError>;

    /// Reads the replies to the last [`send`](Self::send) of `requests`: one per request, in
    /// order, each the [`Reply`] variant of its request. A reply that is not the reply to its
    /// own request (a server or proxy answering out of order) is an error: none of the
    /// round's replies may be used. At most `keep` bytes of item data are kept in all: a
    /// [`Request::Read`] whose data would pass that is read past (or left out by the server)
    /// and answered [`Reply::Later`] with its size (the engine asks for it again in a later
    /// round); every backend keeps this bound.
    ///
    /// [`Request::Read`]: super::Request::Read
    /// [`Reply::Later`]: super::Reply::Later
    fn receive(&mut self, requests: &[Request<'_>], keep: u64) -> Result<Vec<Reply>, ServerError>;
}
