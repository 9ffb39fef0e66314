//! The `Ring` class: a shared core ring whose lookups never wait for a change.
//!
//! Thread safety: the ring and its label strings are one published snapshot
//! ([`ketama_core::SharedRing`]). A lookup loads the current snapshot without a lock; a change
//! builds the next one detached from the interpreter (so other threads keep looking up, with
//! or without the GIL) and swaps it in. A batch reads its indexes and its labels from the same
//! snapshot, so it never mixes two rings.

use std::sync::Arc;

use ketama_core::{Error, Scratch, Server, SharedRing};
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};
use pyo3::PyTypeInfo;

use crate::convert::{hash_of, key_bytes, profile_of, quoted, servers_of, weight_of};
use crate::errors::to_py;
use crate::pin::Pinned;

/// Batches of this many keys or more release the GIL (detach from the interpreter) while
/// they are located (their keys copied to one Rust buffer first); below it the release costs
/// more than it saves (a release and re-acquire is about as dear as hashing a key or two).
pub(crate) const DETACH_THRESHOLD: usize = 64;

/// One server's label: its text (to match labels without the interpreter) and the ready
/// Python `str` every lookup returns (one object per server, only its count changes).
pub(crate) struct Label {
    text: Box<str>,
    obj: Py<PyString>,
}

/// The labels of one snapshot, in server order.
pub(crate) type Labels = Vec<Arc<Label>>;

/// The labels for `ring`, reusing `old`'s where the server is the same (a change adds at the
/// end, removes one or keeps the order) and `fresh` for a label added now.
fn follow(ring: &ketama_core::Ring, old: &Labels, fresh: Option<&Arc<Label>>) -> Labels {
    let mut out = Vec::with_capacity(ring.len());
    let mut j = 0;
    for s in ring.servers() {
        let same = |l: Option<&Arc<Label>>| l.filter(|l| *l.text == *s.label).cloned();
        if let Some(l) = same(old.get(j)) {
            out.push(l);
            j += 1;
        } else if let Some(l) = same(old.get(j + 1)) {
            out.push(l);
            j += 2;
        } else if let Some(l) = same(fresh) {
            out.push(l);
        }
    }
    out
}

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

/// A ring and its labels from `(servers, profile, hash)`, the constructor's arguments.
fn build(
    py: Python<'_>,
    servers: Option<&Bound<'_, PyAny>>,
    profile: &str,
    hash: Option<&str>,
) -> PyResult<(ketama_core::Ring, Labels)> {
    let p = profile_of(profile)?;
    let h = hash.map(|name| hash_of(Some(p), name)).transpose()?;
    let servers = match servers {
        Some(s) if !s.is_none() => servers_of(s)?,
        _ => Vec::new(),
    };
    let labels: Labels = servers
        .iter()
        .map(|s| {
            Arc::new(Label {
                text: s.label.as_str().into(),
                obj: PyString::new(py, &s.label).unbind(),
            })
        })
        .collect();
    // Core names the server to blame by its place in the list.
    let blamed: Vec<String> = servers.iter().map(|s| s.label.clone()).collect();
    let ring = ketama_core::Ring::build(p, h, servers).map_err(|e| {
        let detail = e
            .server
            .and_then(|i| blamed.get(i))
            .map_or(String::new(), |l| quoted(l));
        to_py(e.error, &detail)
    })?;
    Ok((ring, labels))
}

/// The constructor's arguments `(servers=None, profile="libketama", hash=None)` from a call's
/// `*args, **kwargs`, checked as a `def` with that signature would check them.
type Args<'py> = (Option<Bound<'py, PyAny>>, String, Option<String>);

fn constructor_args<'py>(
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Args<'py>> {
    const NAMES: [&str; 3] = ["servers", "profile", "hash"];
    if args.len() > 3 {
        return Err(PyTypeError::new_err(format!(
            "Ring() takes at most 3 positional arguments ({} given)",
            args.len()
        )));
    }
    let mut slots: [Option<Bound<'py, PyAny>>; 3] = [None, None, None];
    for (i, a) in args.iter().enumerate() {
        slots[i] = Some(a);
    }
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            let k: String = k.extract()?;
            let Some(i) = NAMES.iter().position(|n| *n == k) else {
                return Err(PyTypeError::new_err(format!(
                    "Ring() got an unexpected keyword argument '{k}'"
                )));
            };
            if slots[i].is_some() {
                return Err(PyTypeError::new_err(format!(
                    "Ring() got multiple values for argument '{k}'"
                )));
            }
            slots[i] = Some(v);
        }
    }
    let [servers, profile, hash] = slots;
    let profile = match profile {
        Some(p) if !p.is_none() => p.extract::<String>().map_err(|_| {
            PyTypeError::new_err(format!(
                "profile must be a str, not {}",
                p.get_type().name().map_or("?".into(), |n| n.to_string())
            ))
        })?,
        _ => "libketama".to_string(),
    };
    let hash = match hash {
        Some(h) if !h.is_none() => Some(h.extract::<String>().map_err(|_| {
            PyTypeError::new_err(format!(
                "hash must be a str or None, not {}",
                h.get_type().name().map_or("?".into(), |n| n.to_string())
            ))
        })?),
        _ => None,
    };
    Ok((servers, profile, hash))
}

/// Whether `cls` (a subclass of Ring) defines its own `__init__`: then the constructor's
/// arguments are that `__init__`'s, and `__new__` must not read them.
fn overrides_init(cls: &Bound<'_, PyType>) -> PyResult<bool> {
    let base = cls.py().get_type::<Ring>();
    if cls.is(&base) {
        return Ok(false);
    }
    Ok(!cls.getattr("__init__")?.is(&base.getattr("__init__")?))
}

impl Ring {
    /// Publishes `next` in place of the current ring (construction and unpickling).
    fn replace(&self, py: Python<'_>, next: (ketama_core::Ring, Labels)) {
        let r: Result<(), std::convert::Infallible> = self.shared.update(|_, _| Ok(next));
        let Ok(()) = r;
        self.publish(py);
    }

    /// The two published copies of a new ring (`shared` and `pin`).
    fn new_shared(ring: ketama_core::Ring, labels: Labels) -> (SharedRing<Labels>, Pinned<Labels>) {
        let shared = SharedRing::new(ring, labels);
        let pin = Pinned::new(shared.load_full());
        (shared, pin)
    }

    /// After a change of `shared`: pins its snapshot for the single-key lookups.
    fn publish(&self, py: Python<'_>) {
        self.pin.set(py, self.shared.load_full());
    }

    /// `f` on the current snapshot: the pinned one on GIL builds, else a load. `f` must
    /// not run Python code (see [`Pinned::with`]).
    #[inline]
    fn with_snapshot<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&ketama_core::Snapshot<Labels>) -> R,
    ) -> R {
        if crate::pin::gil_exclusive() {
            self.pin.with(py, f)
        } else {
            f(&self.shared.load())
        }
    }

    /// The label of the server for `key`, or the core error.
    fn locate(&self, py: Python<'_>, key: &[u8]) -> Result<Py<PyString>, Error> {
        self.with_snapshot(py, |snap| {
            let i = snap.ring.locate_index(key)?;
            snap.extra
                .get(i)
                .map(|l| l.obj.clone_ref(py))
                .ok_or(Error::NoServer)
        })
    }

    /// The current snapshot, kept whole (a `_NodeLookup` holds it).
    pub(crate) fn snapshot(&self) -> Arc<ketama_core::Snapshot<Labels>> {
        self.shared.load_full()
    }

    /// The label of the server for a key hash the caller's callable computed.
    fn locate_hashed(&self, py: Python<'_>, h: u32) -> Result<Py<PyString>, Error> {
        self.with_snapshot(py, |snap| {
            let i = snap.ring.locate_hash(h)?;
            snap.extra
                .get(i)
                .map(|l| l.obj.clone_ref(py))
                .ok_or(Error::NoServer)
        })
    }

    /// The labels of the servers `walk` picks for `key` (`get_n`, `failover`).
    fn walk(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        walk: impl FnOnce(&ketama_core::Ring, &[u8]) -> Result<Vec<usize>, Error>,
        n: usize,
    ) -> PyResult<Vec<Py<PyString>>> {
        if let Some(f) = &self.key_fn {
            let h = call_hash(f, key)?;
            let snap = self.shared.load();
            let mut out = Vec::new();
            snap.ring
                .locate_n_hash(h, n, &mut out)
                .map_err(|e| to_py(e, &format!("key hash {h}")))?;
            return Ok(out
                .iter()
                .filter_map(|&i| snap.extra.get(i))
                .map(|l| l.obj.clone_ref(py))
                .collect());
        }
        let k = key_bytes(key)?;
        let snap = self.shared.load();
        match walk(&snap.ring, k.as_bytes()) {
            Ok(list) => Ok(list
                .iter()
                .filter_map(|&i| snap.extra.get(i))
                .map(|l| l.obj.clone_ref(py))
                .collect()),
            Err(e) => Err(key_error(e, k.as_bytes())),
        }
    }

    /// Applies a change detached from the interpreter; `fresh` is the label a change adds.
    fn change(
        &self,
        py: Python<'_>,
        label: &str,
        fresh: Option<Arc<Label>>,
        f: impl FnOnce(&ketama_core::Ring, &mut Scratch) -> Result<ketama_core::Ring, Error> + Send,
    ) -> PyResult<()> {
        let r = py.detach(|| {
            self.shared.update(|now, scratch| {
                let next = f(&now.ring, scratch)?;
                let labels = follow(&next, &now.extra, fresh.as_ref());
                Ok::<_, Error>((next, labels))
            })
        });
        self.publish(py);
        r.map_err(|e| to_py(e, &quoted(label)))
    }
}

/// The caller's hash of `key`: an `int` in 0..=2**32-1 (else `TypeError` / `OverflowError`).
fn call_hash(f: &Py<PyAny>, key: &Bound<'_, PyAny>) -> PyResult<u32> {
    let h = f.bind(key.py()).call1((key,))?;
    h.extract::<u32>().map_err(|e| {
        let kind = if h.is_instance_of::<pyo3::types::PyInt>() {
            "an int out of range"
        } else {
            "not an int"
        };
        let msg =
            format!("the ring's hash callable must return an int in 0..=4294967295, got {kind}");
        if h.is_instance_of::<pyo3::types::PyInt>() {
            pyo3::exceptions::PyOverflowError::new_err(msg)
        } else {
            let _ = e;
            PyTypeError::new_err(msg)
        }
    })
}

fn key_error(e: Error, key: &[u8]) -> PyErr {
    let shown = String::from_utf8_lossy(&key[..key.len().min(60)]).into_owned();
    to_py(e, &format!("key {}", quoted(&shown)))
}

/// Keys copied into one buffer (`ends[i]` = end of key i), so a batch can be searched while
/// detached from Python.
struct Batch {
    buf: Vec<u8>,
    ends: Vec<usize>,
}

impl Batch {
    /// Room for `n` keys of a typical length.
    fn reserve(&mut self, n: usize) {
        self.ends.reserve(n);
        self.buf.reserve(n.saturating_mul(24));
    }

    /// Appends one key's bytes (`str` as UTF-8, `bytes`, ...; anything else a `TypeError`).
    fn push(&mut self, key: &Bound<'_, PyAny>) -> PyResult<()> {
        let k = key_bytes(key)?;
        self.buf.extend_from_slice(k.as_bytes());
        self.ends.push(self.buf.len());
        Ok(())
    }

    /// Appends the keys of a list or tuple `seq`, read in place: `get_item(seq, i)` gives a
    /// borrowed reference (`PyList_GetItem` / `PyTuple_GetItem`). An exact `str` is copied
    /// straight from that borrowed reference (nothing runs Python code meanwhile, so the
    /// sequence cannot drop it); any other key takes a reference of its own and goes through
    /// [`Batch::push`] (which may run Python code: the length is read again after it).
    ///
    /// # Safety
    /// `get_item` must be the item getter of `seq`'s type.
    unsafe fn push_seq(
        &mut self,
        seq: &Bound<'_, PyAny>,
        get_item: unsafe extern "C" fn(*mut ffi::PyObject, ffi::Py_ssize_t) -> *mut ffi::PyObject,
    ) -> PyResult<()> {
        let py = seq.py();
        let mut n = seq.len()?;
        self.reserve(n);
        let mut i = 0;
        while i < n {
            // SAFETY: `seq` is a live list or tuple (caller) and `i` is below its length
            // (read again after anything that may run Python code): a borrowed reference.
            let item = unsafe { get_item(seq.as_ptr(), i as ffi::Py_ssize_t) };
            if item.is_null() {
                return Err(PyErr::fetch(py));
            }
            // SAFETY: `item` is a borrowed reference held by `seq`, used before anything
            // could change `seq`.
            let key = unsafe { pyo3::Borrowed::from_ptr(py, item) };
            if PyString::is_exact_type_of(&key) {
                // SAFETY: just checked it is a `str`.
                let s = unsafe { key.cast_unchecked::<PyString>() };
                if let Some(b) = crate::convert::borrow_utf8(&s)? {
                    self.buf.extend_from_slice(b);
                    self.ends.push(self.buf.len());
                    i += 1;
                    continue;
                }
            }
            self.push(&key.to_owned())?;
            n = seq.len()?;
            i += 1;
        }
        Ok(())
    }

    fn key(&self, n: usize) -> &[u8] {
        let start = if n == 0 { 0 } else { self.ends[n - 1] };
        &self.buf[start..self.ends[n]]
    }

    /// Server indexes for every key, `u32::MAX` for a key the client refuses or no server
    /// owns (the refusal rule: batches report per key); a ring-level error (empty ring) with
    /// the position of the key that met it.
    fn search(&self, ring: &ketama_core::Ring) -> Result<Vec<u32>, (usize, Error)> {
        // One core batch: MD5-keyed profiles hash the keys several at a time (SIMD lanes).
        let mut out = vec![u32::MAX; self.ends.len()];
        let mut failed: Option<(usize, Error)> = None;
        let keys = (0..self.ends.len()).map(|n| self.key(n));
        ring.locate_batch(keys, |n, r| match r {
            Ok(i) => out[n] = u32::try_from(i).unwrap_or(u32::MAX),
            Err(Error::KeyRejected | Error::NoServer) => {}
            Err(e) => {
                if failed.is_none_or(|(at, _)| n < at) {
                    failed = Some((n, e));
                }
            }
        });
        match failed {
            Some(f) => Err(f),
            None => Ok(out),
        }
    }
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
        text_signature = "(servers=None, profile='libketama', hash=None)"
    )]
    fn py_new(
        cls: &Bound<'_, PyType>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let py = cls.py();
        let deferred = overrides_init(cls)?;
        let (ring, labels) = if deferred {
            build(py, None, "libketama", None)?
        } else {
            let (servers, profile, hash) = constructor_args(args, kwargs)?;
            build(py, servers.as_ref(), &profile, hash.as_deref())?
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
    /// The ring refuses changes (`add`, `remove`, `set_weight`: `UnsupportedError`).
    #[staticmethod]
    #[pyo3(signature = (points, hash = None, profile = "libketama", servers = None))]
    fn from_points(
        py: Python<'_>,
        points: &Bound<'_, PyAny>,
        hash: Option<&Bound<'_, PyAny>>,
        profile: &str,
        servers: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let p = profile_of(profile)?;
        let (h, key_fn) = match hash {
            None => (None, None),
            Some(x) if x.is_none() => (None, None),
            Some(x) => match x.cast::<PyString>() {
                Ok(name) => (Some(hash_of(Some(p), &name.to_cow()?)?), None),
                Err(_) if x.is_callable() => (None, Some(x.clone().unbind())),
                Err(_) => {
                    return Err(PyTypeError::new_err(
                        "hash must be a hash name, a callable or None",
                    ))
                }
            },
        };
        let mut order: Vec<String> = Vec::new();
        let mut index: std::collections::HashMap<String, usize> = Default::default();
        let fixed = match servers {
            Some(s) if !s.is_none() => {
                if s.is_instance_of::<PyString>() {
                    return Err(PyTypeError::new_err(
                        "servers must be an iterable of labels, not a single string",
                    ));
                }
                for label in s.try_iter()? {
                    let label: String = label?
                        .extract()
                        .map_err(|_| PyTypeError::new_err("a server label must be a str"))?;
                    if index.insert(label.clone(), order.len()).is_some() {
                        return Err(to_py(Error::DuplicateServer, &quoted(&label)));
                    }
                    order.push(label);
                }
                true
            }
            _ => false,
        };
        let mut pairs: Vec<(u32, usize)> = Vec::new();
        for item in points.try_iter()? {
            let item = item?;
            let (pos, label): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item
                .extract()
                .map_err(|_| PyTypeError::new_err("a point is a (position, label) pair"))?;
            let pos: u32 = pos.extract().map_err(|_| {
                pyo3::exceptions::PyValueError::new_err(
                    "a point's position must be an int in 0..=4294967295",
                )
            })?;
            let label = label
                .cast::<PyString>()
                .map_err(|_| PyTypeError::new_err("a point's label must be a str"))?
                .to_cow()?;
            let owner = match index.get(label.as_ref()) {
                Some(&i) => i,
                None if fixed => {
                    return Err(to_py(Error::MissingServer, &quoted(&label)));
                }
                None => {
                    index.insert(label.to_string(), order.len());
                    order.push(label.into_owned());
                    order.len() - 1
                }
            };
            pairs.push((pos, owner));
        }
        let mut list = Vec::with_capacity(order.len());
        for label in &order {
            list.push(Server::parse(label, 1).map_err(|e| to_py(e, &quoted(label)))?);
        }
        let labels: Labels = order
            .iter()
            .map(|l| {
                Arc::new(Label {
                    text: l.as_str().into(),
                    obj: PyString::new(py, l).unbind(),
                })
            })
            .collect();
        let ring = ketama_core::Ring::from_points(p, h, list, &pairs).map_err(|e| {
            let detail = e
                .server
                .and_then(|i| order.get(i))
                .map_or(String::new(), |l| quoted(l));
            to_py(e.error, &detail)
        })?;
        let (shared, pin) = Ring::new_shared(ring, labels);
        Ok(Ring {
            shared,
            pin,
            key_fn,
            deferred: false.into(),
        })
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
        let (servers, profile, hash) = constructor_args(args, kwargs)?;
        self.replace(py, build(py, servers.as_ref(), &profile, hash.as_deref())?);
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
        if let Some(f) = &self.key_fn {
            let h = call_hash(f, key)?;
            return match self.locate_hashed(py, h) {
                Ok(label) => Ok(Some(label)),
                Err(Error::EmptyRing | Error::NoServer) => Ok(None),
                Err(e) => Err(to_py(e, &format!("key hash {h}"))),
            };
        }
        let owned;
        let key = if PyString::is_exact_type_of(key)
            || key.is_instance_of::<PyString>()
            || key.is_instance_of::<PyBytes>()
        {
            key
        } else {
            owned = key.str()?.into_any();
            &owned
        };
        let k = key_bytes(key)?;
        match self.locate(py, k.as_bytes()) {
            Ok(label) => Ok(Some(label)),
            Err(Error::EmptyRing | Error::NoServer) => Ok(None),
            Err(e) => Err(key_error(e, k.as_bytes())),
        }
    }

    /// The labels for many keys, in order; `None` for a key the client refuses or no server
    /// owns (an empty ring raises). Large batches run detached from Python (GIL released).
    fn get_many<'py>(
        &self,
        py: Python<'py>,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        if keys.is_instance_of::<PyString>() || keys.is_instance_of::<PyBytes>() {
            return Err(PyTypeError::new_err(
                "get_many takes an iterable of keys, not a single key",
            ));
        }
        if self.key_fn.is_some() {
            let mut out = Vec::new();
            for key in keys.try_iter()? {
                let key = key?;
                out.push(match self.get(py, &key) {
                    Ok(label) => Some(label),
                    Err(e) if e.is_instance_of::<pyo3::exceptions::PyLookupError>(py) => {
                        if self.shared.load().ring.is_empty() {
                            return Err(e);
                        }
                        None
                    }
                    Err(e) => return Err(e),
                });
            }
            return PyList::new(py, out);
        }
        let mut batch = Batch {
            buf: Vec::new(),
            ends: Vec::new(),
        };
        // Lists and tuples (the usual batches) are read in place with their size known; any
        // other iterable is walked.
        if keys.is_instance_of::<PyList>() {
            // SAFETY: `keys` is a list and this is the list item getter.
            unsafe { batch.push_seq(keys, ffi::PyList_GetItem)? };
        } else if keys.is_instance_of::<PyTuple>() {
            // SAFETY: `keys` is a tuple and this is the tuple item getter.
            unsafe { batch.push_seq(keys, ffi::PyTuple_GetItem)? };
        } else {
            for key in keys.try_iter()? {
                batch.push(&key?)?;
            }
        }
        // Indexes and labels come from one snapshot, whatever changes meanwhile.
        let snap = self.shared.load_full();
        let indexes = if batch.ends.len() >= DETACH_THRESHOLD {
            let (b, ring) = (&batch, &snap.ring);
            py.detach(|| b.search(ring))
        } else {
            batch.search(&snap.ring)
        };
        let indexes = indexes.map_err(|(n, e)| key_error(e, batch.key(n)))?;
        // One list filled in one pass: each slot takes a reference to its server's one `str`
        // (a table of the label pointers first, so a slot is one lookup and two calls).
        let objs: Vec<*mut ffi::PyObject> = snap.extra.iter().map(|l| l.obj.as_ptr()).collect();
        let n = ffi::Py_ssize_t::try_from(indexes.len())
            .map_err(|_| PyTypeError::new_err("batch too large"))?;
        // SAFETY: PyList_New returns a new list of `n` NULL slots, or NULL with an exception.
        let list = unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyList_New(n))? };
        // SAFETY: `none` is the `None` singleton, borrowed.
        let none = unsafe { ffi::Py_None() };
        for (j, &i) in indexes.iter().enumerate() {
            let obj = objs.get(i as usize).copied().unwrap_or(none);
            // SAFETY: `obj` is a live object (a label `str` held by `snap`, or `None`); the new
            // reference is stolen by PyList_SetItem into slot `j` < `n` of our fresh list,
            // which cannot fail there.
            unsafe {
                ffi::Py_IncRef(obj);
                ffi::PyList_SetItem(list.as_ptr(), j as ffi::Py_ssize_t, obj);
            }
        }
        Ok(list.cast_into::<PyList>()?)
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
        label: &str,
        weight: Option<&Bound<'_, PyAny>>,
        name: Option<&str>,
    ) -> PyResult<()> {
        let w = match weight {
            Some(w) if !w.is_none() => weight_of(w, label)?,
            _ => 1,
        };
        let server = Server::parse(label, w)
            .map_err(|e| to_py(e, &quoted(label)))?
            .with_name(name);
        let fresh = Arc::new(Label {
            text: label.into(),
            obj: PyString::new(py, label).unbind(),
        });
        self.change(py, label, Some(fresh), |ring, scratch| {
            ring.with_added_in(server, scratch)
        })
    }

    /// Removes the server with this label (`MissingServerError`, a `KeyError`, when absent).
    fn remove(&self, py: Python<'_>, label: &str) -> PyResult<()> {
        self.change(py, label, None, |ring, scratch| {
            ring.with_removed_in(label, scratch).map(|(next, _)| next)
        })
    }

    /// Changes a server's weight in place (its place in the server order is kept).
    fn set_weight(&self, py: Python<'_>, label: &str, weight: &Bound<'_, PyAny>) -> PyResult<()> {
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
        node: &str,
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
    fn remove_node(&self, py: Python<'_>, node: &str) -> PyResult<()> {
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
        let py = slf.py();
        if slf.get().shared.load().ring.is_explicit() {
            return Self::reduce_points(slf);
        }
        let (servers, profile, hash) = {
            let snap = slf.get().shared.load();
            let servers: Vec<(String, u32, Option<String>)> = snap
                .ring
                .servers()
                .map(|s| (s.label.clone(), s.weight, s.name.clone()))
                .collect();
            (servers, snap.ring.profile().name, snap.ring.hash().name())
        };
        let args = PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                servers.into_pyobject(py)?.into_any(),
                profile.into_pyobject(py)?.into_any(),
                hash.into_pyobject(py)?.into_any(),
            ],
        )?;
        let state = match slf.getattr("__dict__") {
            Ok(d) if d.len()? > 0 => d,
            _ => py.None().into_bound(py),
        };
        let restore = py.import("ketama")?.getattr("_restore_ring")?;
        Ok((restore, args, state))
    }

    /// Unpickling: an instance of `cls` (a Ring or a subclass) holding this ring, made
    /// without calling `cls`'s own `__new__` or `__init__`.
    #[staticmethod]
    fn _restore<'py>(
        cls: &Bound<'py, PyType>,
        servers: &Bound<'py, PyAny>,
        profile: &str,
        hash: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let base = py.get_type::<Ring>();
        if !cls.is_subclass(&base)? {
            return Err(PyTypeError::new_err("_restore: not a Ring class"));
        }
        let next = build(py, Some(servers), profile, hash)?;
        let obj = base.getattr("__new__")?.call1((cls,))?;
        let ring = obj.cast::<Ring>()?.get();
        ring.replace(py, next);
        ring.deferred
            .store(false, std::sync::atomic::Ordering::Release);
        Ok(obj)
    }
}

impl Ring {
    /// `__reduce__` of a ring from points: `Ring.from_points(points, hash, profile, servers)`.
    fn reduce_points<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>, Bound<'py, PyAny>)> {
        let py = slf.py();
        let me = slf.get();
        let snap = me.shared.load();
        let ring = &snap.ring;
        // Signed rings store positions sign-flipped: give back what the caller gave.
        let flip = ring
            .profile()
            .placement
            .bound()
            .map_or(0, ketama_core::profile::Bound::flip);
        let labels: Vec<String> = ring.servers().map(|s| s.label.clone()).collect();
        let points: Vec<(u32, String)> = ring
            .points()
            .map(|(p, i)| (p ^ flip, labels[i].clone()))
            .collect();
        let hash = match &me.key_fn {
            Some(f) => f.clone_ref(py).into_bound(py),
            None => ring.hash().name().into_pyobject(py)?.into_any(),
        };
        let ctor = slf.get_type().getattr("from_points")?;
        let args = PyTuple::new(
            py,
            [
                points.into_pyobject(py)?.into_any(),
                hash,
                ring.profile().name.into_pyobject(py)?.into_any(),
                labels.into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((ctor, args, py.None().into_bound(py)))
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
