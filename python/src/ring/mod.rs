//! The `Ring` class: a shared core ring whose lookups never wait for a change.
//!
//! Thread safety: the ring and its label strings are one published snapshot
//! ([`ketama_core::SharedRing`]). A lookup loads the current snapshot without a lock; a change
//! builds the next one detached from the interpreter (so other threads keep looking up, with
//! or without the GIL) and swaps it in. A batch reads its indexes and its labels from the same
//! snapshot, so it never mixes two rings.

mod args;
mod batch;
mod locate;
mod pickle;
mod shared;

use ketama_core::{Server, SharedRing};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};

pub(crate) use batch::DETACH_THRESHOLD;

use self::args::{build, constructor_args, overrides_init};
use self::locate::{call_hash, key_error};
use crate::convert::{key_bytes, label_text, quoted, text, weight_of};
use crate::errors::{blame, to_py};
use crate::labels::{Label, Labels};
use crate::pin::Pinned;

/// A consistent-hashing ring that places keys exactly like the chosen client.
///
/// Limits: a continuum holds at most 2^23 = 8,388,608 points (52,428 equal servers on the
/// libketama profiles); more raises `TooManyPointsError` at once, the limit in its message.
/// Duplicates are one endpoint: `[::1]:11211` and `[0:0::1]:11211` are the same server.
#[pyclass(module = "ketama", name = "Ring", frozen, subclass)]
pub(crate) struct Ring {
    shared: SharedRing<Labels>,
    /// The published snapshot again, for single-key lookups on GIL builds ([`crate::pin`]);
    /// every publication goes through [`Ring::publish`] or [`Ring::new_shared`].
    pin: Pinned<Labels>,
    /// The caller's key hash, for a ring from [`Ring::from_points`] given a callable: keys are
    /// hashed by calling it (as they are, not converted), the search is ours.
    key_fn: Option<Py<PyAny>>,
    /// Set when `__new__` left the ring empty for a subclass `__init__` to fill (see
    /// `py_new`); cleared by the `Ring.__init__` that builds it.
    deferred: std::sync::atomic::AtomicBool,
}

#[pymethods]
impl Ring {
    /// `Ring(servers=None, profile="libketama", hash=None)`.
    ///
    /// Subclasses: one that defines `__init__` gets an empty ring from `__new__` (its own
    /// arguments are not read as servers, profile and hash) and builds it by calling
    /// `super().__init__(servers, profile, hash)`; one that only overrides `__new__` passes
    /// them to `super().__new__(cls, servers, profile, hash)`.
    #[new]
    #[classmethod]
    #[pyo3(
        signature = (*args, **kwargs),
        text_signature = "(servers=None, profile='libketama', hash=None, *, hash_tag=None, prefix_key=None, hash_with_prefix=False)"
    )]
    fn py_new(
        cls: &Bound<'_, PyType>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let py = cls.py();
        let deferred = overrides_init(cls)?;
        let (ring, labels) = if deferred {
            build(py, None, "libketama", None, ketama_core::Options::new())?
        } else {
            let (servers, profile, hash, options) = constructor_args(args, kwargs)?;
            build(py, servers.as_ref(), &profile, hash.as_deref(), options)?
        };
        let (shared, pin) = Ring::new_shared(ring, labels);
        Ok(Ring {
            shared,
            pin,
            key_fn: None,
            deferred: deferred.into(),
        })
    }

    /// A ring whose continuum is exactly `points`, `(position, label)` pairs (positions
    /// ints in 0..=2**32-1), for a client whose points ketama does not generate. `hash`: a hash
    /// name, `None` for the profile's, or a callable taking the key as given and returning an
    /// int in 0..=2**32-1 (the key is hashed in Python, the search is ours). `profile` gives
    /// the search, tie and key rules. `servers`: the labels in server order (default: in
    /// order of first appearance in `points`); a label in `points` must be among them.
    /// The ring refuses changes (`add`, `remove`, `set_weight`: `FixedPointsError`).
    #[staticmethod]
    #[pyo3(signature = (points, hash = None, profile = "libketama", servers = None))]
    fn from_points(
        py: Python<'_>,
        points: &Bound<'_, PyAny>,
        hash: Option<&Bound<'_, PyAny>>,
        profile: &str,
        servers: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        Ring::from_points_in(py, points, hash, profile, servers)
    }

    /// Builds the ring when `__new__` left that to `__init__` (a subclass `__init__` calling
    /// `super().__init__(...)`); otherwise `__new__` has already read these arguments.
    #[pyo3(signature = (*args, **kwargs))]
    fn __init__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        use std::sync::atomic::Ordering;
        if !self.deferred.load(Ordering::Acquire) {
            return Ok(());
        }
        let (servers, profile, hash, options) = constructor_args(args, kwargs)?;
        self.replace(
            py,
            build(py, servers.as_ref(), &profile, hash.as_deref(), options)?,
        );
        self.deferred.store(false, Ordering::Release);
        Ok(())
    }

    /// The label of the server that owns `key` (`str` keys are hashed as UTF-8).
    fn get(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyString>> {
        if let Some(f) = &self.key_fn {
            let h = call_hash(f, key)?;
            return self
                .locate_hashed(py, h)
                .map_err(|e| to_py(e, &format!("key hash {h}")));
        }
        let k = key_bytes(key)?;
        self.locate(py, k.as_bytes())
            .map_err(|e| key_error(e, k.as_bytes()))
    }

    /// uhashring / pymemcache style: like `get`, but `None` when no server can take the key
    /// (empty ring); keys that are neither `str` nor `bytes` are hashed as `str(key)`, as
    /// uhashring does.
    fn get_node(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyString>>> {
        self.node(py, key)
    }

    /// The labels for many keys, in order; `None` for a key the client refuses or no server
    /// owns (an empty ring raises). Large batches run detached from Python (GIL released).
    fn get_many<'py>(
        &self,
        py: Python<'py>,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        self.locate_many(py, keys)
    }

    /// Up to `n` distinct servers for `key`, primary first (replica / failover order, as the
    /// client walks its structure).
    fn get_n(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        n: usize,
    ) -> PyResult<Vec<Py<PyString>>> {
        self.walk(
            py,
            key,
            |ring, k| {
                let mut out = Vec::new();
                ring.locate_n_into(k, n, &mut out).map(|()| out)
            },
            n,
        )
    }

    /// The client's own failover sequence for `key`, primary first: spymemcached's rehash
    /// iterator (`n` entries, servers may repeat), for other clients the next distinct servers
    /// as `get_n`.
    fn failover(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        n: usize,
    ) -> PyResult<Vec<Py<PyString>>> {
        self.walk(py, key, |ring, k| ring.failover(k, n), n)
    }

    /// Where the client sends `key` while the servers labelled in `dead` are down: the first
    /// server of its failover sequence (within as many tries as the client makes) that is not
    /// dead; `None` when the client gives up (every server it would try is dead). A label in
    /// `dead` that is not on the ring raises; a key the client refuses raises as `get` does.
    #[pyo3(signature = (key, dead))]
    fn locate_alive(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        dead: Vec<String>,
    ) -> PyResult<Option<Py<PyString>>> {
        if self.key_fn.is_some() {
            return Err(to_py(
                ketama_core::Error::NeedsKey,
                "locate_alive on a ring hashed by a callable",
            ));
        }
        let k = key_bytes(key)?;
        let snap = self.shared.load();
        let idx = dead
            .iter()
            .map(|l| {
                snap.ring.position(l).ok_or_else(|| {
                    to_py(
                        ketama_core::Error::MissingServer,
                        &format!("dead server {l:?}"),
                    )
                })
            })
            .collect::<PyResult<Vec<usize>>>()?;
        match snap.ring.locate_alive(k.as_bytes(), &idx) {
            Ok(i) => Ok(snap.extra.get(i).map(|l| l.obj.clone_ref(py))),
            Err(ketama_core::Error::NoServer) if !idx.is_empty() => Ok(None),
            Err(e) => Err(key_error(e, k.as_bytes())),
        }
    }

    /// The key hash this ring computes for `key` (after the client's key rewriting).
    fn key_hash(&self, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        if let Some(f) = &self.key_fn {
            return call_hash(f, key);
        }
        let k = key_bytes(key)?;
        let r = self.shared.load().ring.key_hash(k.as_bytes());
        r.map_err(|e| key_error(e, k.as_bytes()))
    }

    /// Adds a server at the end of the server order (`name`: twemproxy server name, or the
    /// exact node string for Java profiles and groupcache).
    #[pyo3(signature = (label, weight = None, name = None))]
    fn add(
        &self,
        py: Python<'_>,
        label: &Bound<'_, PyString>,
        weight: Option<&Bound<'_, PyAny>>,
        name: Option<&Bound<'_, PyString>>,
    ) -> PyResult<()> {
        let label = &*label_text(label)?;
        let name = match name {
            Some(n) => Some(text(n, "name").map_err(|e| blame(py, e, None, Some(label)))?),
            None => None,
        };
        let name = name.as_deref();
        let w = match weight {
            Some(w) if !w.is_none() => weight_of(w, label)?,
            _ => 1,
        };
        let server = Server::parse(label, w)
            .map_err(|e| blame(py, to_py(e, &quoted(label)), None, Some(label)))?
            .with_name(name);
        let fresh = Label::new(py, label);
        self.change(py, label, Some(fresh), |ring, scratch| {
            ring.with_added_in(server, scratch)
        })
    }

    /// Removes the server with this label (`MissingServerError`, a `KeyError`, when absent).
    fn remove(&self, py: Python<'_>, label: &Bound<'_, PyString>) -> PyResult<()> {
        let label = &*text(label, "label")?;
        self.change(py, label, None, |ring, scratch| {
            ring.with_removed_in(label, scratch).map(|(next, _)| next)
        })
    }

    /// Changes a server's weight in place (its place in the server order is kept).
    fn set_weight(
        &self,
        py: Python<'_>,
        label: &Bound<'_, PyString>,
        weight: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let label = &*text(label, "label")?;
        let w = weight_of(weight, label)?;
        self.change(py, label, None, |ring, scratch| {
            ring.with_weight_in(label, w, scratch)
        })
    }

    /// uhashring's `add_node(name, conf)`: `conf` may be a weight or a dict with `"weight"`.
    #[pyo3(signature = (node, conf = None))]
    fn add_node(
        &self,
        py: Python<'_>,
        node: &Bound<'_, PyString>,
        conf: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let weight = match conf {
            None => None,
            Some(c) if c.is_none() => None,
            Some(c) => match c.cast::<PyDict>() {
                Ok(d) => d.get_item("weight")?,
                Err(_) => Some(c.clone()),
            },
        };
        self.add(py, node, weight.as_ref(), None)
    }

    /// uhashring's `remove_node(name)`.
    fn remove_node(&self, py: Python<'_>, node: &Bound<'_, PyString>) -> PyResult<()> {
        self.remove(py, node)
    }

    /// The continuum as `(point, label)` pairs, ascending (empty for modulo, jump, ...).
    fn points(&self, py: Python<'_>) -> Vec<(u32, Py<PyString>)> {
        let snap = self.shared.load();
        snap.ring
            .points()
            .filter_map(|(p, i)| snap.extra.get(i).map(|l| (p, l.obj.clone_ref(py))))
            .collect()
    }

    /// The server labels, in server order.
    #[getter]
    fn servers(&self, py: Python<'_>) -> Vec<Py<PyString>> {
        self.shared
            .load()
            .extra
            .iter()
            .map(|l| l.obj.clone_ref(py))
            .collect()
    }

    /// `{label: weight}`, in server order.
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let pairs: Vec<(Py<PyString>, u32)> = {
            let snap = self.shared.load();
            snap.ring
                .servers()
                .zip(&snap.extra)
                .map(|(s, l)| (l.obj.clone_ref(py), s.weight))
                .collect()
        };
        let d = PyDict::new(py);
        for (l, w) in pairs {
            d.set_item(l, w)?;
        }
        Ok(d)
    }

    /// The profile's name.
    #[getter]
    fn profile(&self) -> &'static str {
        self.shared.load().ring.profile().name
    }

    /// The key hash's name (`"callable"` for a ring from points hashed by a callable).
    #[getter]
    fn hash(&self) -> &'static str {
        if self.key_fn.is_some() {
            return "callable";
        }
        self.shared.load().ring.hash().name()
    }

    /// A `_NodeLookup` over this ring as it is now (for drop-ins): `values[i]` is what a key
    /// on server `i` returns (one value per server); `fallback(key)` answers when the hash
    /// callable returns something the search cannot compare.
    #[pyo3(signature = (values, fallback = None))]
    fn _node_lookup(
        &self,
        py: Python<'_>,
        values: Vec<Py<PyAny>>,
        fallback: Option<Py<PyAny>>,
    ) -> PyResult<crate::lookup::NodeLookup> {
        let key_fn = self.key_fn.as_ref().map(|f| f.clone_ref(py));
        crate::lookup::NodeLookup::new(self.snapshot(), values, key_fn, fallback)
    }

    /// The callable that hashes keys (a ring from points given one), else `None`.
    #[getter]
    fn hash_fn(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.key_fn.as_ref().map(|f| f.clone_ref(py))
    }

    /// Whether the ring was built by `from_points` (and so refuses changes).
    #[getter]
    fn explicit(&self) -> bool {
        self.shared.load().ring.is_explicit()
    }

    fn __len__(&self) -> usize {
        self.shared.load().ring.len()
    }

    fn __contains__(&self, label: &Bound<'_, PyAny>) -> PyResult<bool> {
        match label.cast::<PyString>() {
            Ok(s) => {
                let s = s.to_cow()?;
                Ok(self.shared.load().ring.position(&s).is_some())
            }
            Err(_) => Ok(false),
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyList::new(py, self.servers(py))?
            .try_iter()
            .map(Bound::into_any)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let class = slf.get_type().qualname()?.to_string();
        let snap = slf.get().shared.load();
        let ring = &snap.ring;
        let mut shown: Vec<String> = ring.servers().take(3).map(|s| quoted(&s.label)).collect();
        if ring.len() > 3 {
            shown.push(format!("... {} more", ring.len() - 3));
        }
        Ok(format!(
            "<{class} profile={} hash={} servers={} [{}]>",
            quoted(ring.profile().name),
            quoted(slf.get().hash()),
            ring.len(),
            shown.join(", ")
        ))
    }

    /// Pickling and `copy`: `ketama._restore_ring(class, servers, profile, hash)` (servers as `(label,
    /// weight, name)`), then the instance `__dict__` of a subclass as the state. Unpickling
    /// calls neither the subclass `__new__` nor its `__init__`, as for plain Python objects.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>, Bound<'py, PyAny>)> {
        Self::reduce(slf)
    }

    /// Unpickling: an instance of `cls` (a Ring or a subclass) holding this ring, made
    /// without calling `cls`'s own `__new__` or `__init__`.
    #[staticmethod]
    #[pyo3(signature = (cls, servers, profile, hash, options = None))]
    fn _restore<'py>(
        cls: &Bound<'py, PyType>,
        servers: &Bound<'py, PyAny>,
        profile: &str,
        hash: Option<&str>,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        Self::restore(cls, servers, profile, hash, options)
    }
}

crate::fastcall::one_key!(
    /// `Ring.get` through [`crate::fastcall`].
    FastGet, "get", Ring, |py, ring, key| Ok(ring.get(py, key)?.into_any())
);

crate::fastcall::one_key!(
    /// `Ring.get_node` through [`crate::fastcall`].
    FastGetNode, "get_node", Ring, |py, ring, key| {
        Ok(ring.get_node(py, key)?.map_or_else(|| py.None(), Py::into_any))
    }
);

crate::fastcall::one_key!(
    /// `Ring.get_many` through [`crate::fastcall`].
    FastGetMany, "get_many", Ring, |py, ring, key| Ok(ring.get_many(py, key)?.into_any().unbind())
);
