//! [`AnyBackend`]: either backend, chosen at run time (the command's `--backend`), so one
//! call of [`plan`](crate::plan()), [`run`](crate::run()) or [`verify`](crate::verify())
//! serves both.

use super::error::ServerError;
use super::memcached::{Memcached, MemcachedConn};
use super::redis::{Redis, RedisConn};
use super::server::{Backend, Connection, Endpoint, Purpose};
use super::types::{Ask, Identity, ListSummary, Listed, Reply, Request};

/// memcached or Redis servers.
#[derive(Clone, Debug)]
pub enum AnyBackend {
    /// memcached.
    Memcached(Memcached),
    /// Redis or Valkey.
    Redis(Redis),
}

/// A connection of an [`AnyBackend`] (each kind boxed: their sizes differ by hundreds of
/// bytes).
#[derive(Debug)]
pub enum AnyConn {
    /// To a memcached.
    Memcached(Box<MemcachedConn>),
    /// To a Redis.
    Redis(Box<RedisConn>),
}

impl Backend for AnyBackend {
    type Conn = AnyConn;

    fn open(&self, server: &Endpoint, purpose: Purpose) -> Result<AnyConn, ServerError> {
        Ok(match self {
            AnyBackend::Memcached(b) => AnyConn::Memcached(Box::new(b.open(server, purpose)?)),
            AnyBackend::Redis(b) => AnyConn::Redis(Box::new(b.open(server, purpose)?)),
        })
    }

    fn names(&self, key: &[u8]) -> bool {
        match self {
            AnyBackend::Memcached(b) => b.names(key),
            AnyBackend::Redis(b) => b.names(key),
        }
    }

    fn pipeline(&self) -> Option<usize> {
        match self {
            AnyBackend::Memcached(b) => b.pipeline(),
            AnyBackend::Redis(b) => b.pipeline(),
        }
    }
}

impl Connection for AnyConn {
    fn list(
        &mut self,
        ask: Ask,
        each: &mut dyn FnMut(Listed) -> Result<(), ServerError>,
    ) -> Result<ListSummary, ServerError> {
        match self {
            AnyConn::Memcached(c) => c.list(ask, each),
            AnyConn::Redis(c) => c.list(ask, each),
        }
    }

    fn identity(&mut self) -> Result<Identity, ServerError> {
        match self {
            AnyConn::Memcached(c) => c.identity(),
            AnyConn::Redis(c) => c.identity(),
        }
    }

    fn send(&mut self, requests: &[Request<'_>], keep: u64) -> Result<(), ServerError> {
        match self {
            AnyConn::Memcached(c) => c.send(requests, keep),
            AnyConn::Redis(c) => c.send(requests, keep),
        }
    }

    fn receive(&mut self, requests: &[Request<'_>], keep: u64) -> Result<Vec<Reply>, ServerError> {
        match self {
            AnyConn::Memcached(c) => c.receive(requests, keep),
            AnyConn::Redis(c) => c.receive(requests, keep),
        }
    }
}
