//! `ketama._ketama`: the native layer of the `ketama` Python package.
//!
//! Thin on purpose: it turns Python arguments into [`ketama_core`] calls and core errors into
//! the exception classes defined in `ketama/_errors.py`. Everything friendly (the pymemcache
//! hasher, docs, `__all__`) lives in Python.
//!
//! Thread safety: a [`Ring`] keeps the core ring and its label strings behind one `RwLock`.
//! Lookups take the read lock, updates the write lock, and no lock is ever held while Python
//! code can run, so a lookup never sees a half-updated ring and nothing can deadlock with the
//! GIL (or with free-threaded CPython's stop-the-world pauses).

mod bucket;

use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use ketama_core::{Error, Hash, Profile, Server};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};

/// Batches of more keys than this release the GIL (or detach from the interpreter) while
/// they are located; below it the release costs more than it saves.
const DETACH_THRESHOLD: usize = 256;

/// Python's name for a core error: the class in `ketama._errors`.
fn error_class(e: Error) -> &'static str {
    match e {
        Error::EmptyRing => "EmptyRingError",
        Error::NoServer => "NoServerError",
        Error::UnknownProfile => "UnknownProfileError",
        Error::UnknownHash => "UnknownHashError",
        Error::AmbiguousHash => "AmbiguousHashError",
        Error::BadWeight => "BadWeightError",
        Error::DuplicateServer => "DuplicateServerError",
        Error::MissingServer => "MissingServerError",
        Error::BadLabel => "BadLabelError",
        Error::KeyRejected => "KeyRejectedError",
        Error::Unsupported => "UnsupportedError",
        Error::TooManyPoints => "TooManyPointsError",
        _ => "KetamaError",
    }
}

/// Builds the Python exception for a core error, with `detail` (e.g. the offending name)
/// after the core's message.
fn to_py(py: Python<'_>, e: Error, detail: &str) -> PyErr {
    static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let message = if detail.is_empty() {
        e.as_str().to_owned()
    } else {
        format!("{}: {detail}", e.as_str())
    };
    let module = match ERRORS.get_or_try_init(py, || py.import("ketama._errors").map(Bound::unbind))
    {
        Ok(m) => m.bind(py),
        Err(err) => return err,
    };
    match module
        .getattr(error_class(e))
        .and_then(|class| class.call1((message,)))
    {
        Ok(instance) => PyErr::from_value(instance),
        Err(err) => err,
    }
}

/// A string in quotes, close to Python's `repr()`, for messages.
fn quoted(s: &str) -> String {
    format!("'{}'", s.escape_debug())
}

/// The key's bytes: `bytes` as they are, `str` as UTF-8, `bytearray` and `memoryview`
/// copied. Anything else is a `TypeError`.
enum KeyBytes<'py> {
    Borrowed(Bound<'py, PyBytes>),
    Str(&'py [u8]),
    Owned(Vec<u8>),
}

impl KeyBytes<'_> {
    fn as_bytes(&self) -> &[u8] {
        match self {
            KeyBytes::Borrowed(b) => b.as_bytes(),
            KeyBytes::Str(s) => s,
            KeyBytes::Owned(v) => v,
        }
    }
}

/// `PyUnicode_AsUTF8AndSize` is in the stable ABI from 3.10 on; PyO3 only uses it when built
/// for 3.10+, and this wheel targets 3.9. We call it ourselves when the running interpreter
/// is new enough, which saves a bytes object per `str` key.
mod utf8 {
    use pyo3::ffi;
    use pyo3::prelude::*;
    use pyo3::types::PyString;
    use std::sync::OnceLock;

    extern "C" {
        fn PyUnicode_AsUTF8AndSize(
            unicode: *mut ffi::PyObject,
            size: *mut ffi::Py_ssize_t,
        ) -> *const u8;
    }

    static HAS_AS_UTF8: OnceLock<bool> = OnceLock::new();

    /// The UTF-8 bytes cached inside the `str` object (valid while `s` lives), or `None` on
    /// Python 3.9 (use `encode_utf8` there).
    pub(crate) fn borrow<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Option<&'a [u8]>> {
        if !*HAS_AS_UTF8.get_or_init(|| s.py().version_info() >= (3, 10)) {
            return Ok(None);
        }
        let mut size: ffi::Py_ssize_t = 0;
        // SAFETY: `s` is a live `str` object and we are attached to the interpreter; the
        // returned buffer belongs to the object and lives as long as it (the borrow of `s`
        // ties the slice's lifetime to it). Python >= 3.10 exports this in the stable ABI.
        let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
        if data.is_null() {
            return Err(PyErr::fetch(s.py()));
        }
        // SAFETY: on success `data` points to `size` initialised bytes (size >= 0).
        Ok(Some(unsafe {
            std::slice::from_raw_parts(data, size as usize)
        }))
    }
}

fn key_bytes<'a, 'py>(key: &'a Bound<'py, PyAny>) -> PyResult<KeyBytes<'a>> {
    if let Ok(s) = key.cast::<PyString>() {
        if let Some(b) = utf8::borrow(s)? {
            return Ok(KeyBytes::Str(b));
        }
        return Ok(KeyBytes::Borrowed(s.encode_utf8()?));
    }
    if let Ok(b) = key.cast::<PyBytes>() {
        return Ok(KeyBytes::Borrowed(b.clone()));
    }
    if key.is_instance_of::<pyo3::types::PyByteArray>()
        || key.is_instance_of::<pyo3::types::PyMemoryView>()
    {
        let b = key.py().get_type::<PyBytes>().call1((key,))?;
        return Ok(KeyBytes::Owned(b.cast::<PyBytes>()?.as_bytes().to_vec()));
    }
    Err(PyTypeError::new_err(format!(
        "key must be str or bytes, not {}",
        key.get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into())
    )))
}

/// A weight from Python: an `int` in 0..=2**32-1 (what the profile accepts is checked by the
/// core).
fn weight_of(py: Python<'_>, w: &Bound<'_, PyAny>, label: &str) -> PyResult<u32> {
    if w.is_instance_of::<pyo3::types::PyBool>() || !w.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "weight of {} must be an int",
            quoted(label)
        )));
    }
    let v: i128 = w.extract()?;
    u32::try_from(v).map_err(|_| {
        to_py(
            py,
            Error::BadWeight,
            &format!("{} has weight {v} (allowed: 0..=4294967295)", quoted(label)),
        )
    })
}

/// One server spec: `"label"`, `(label, weight)` or `(label, weight, name)`.
fn server_of(
    py: Python<'_>,
    item: &Bound<'_, PyAny>,
    weight: Option<&Bound<'_, PyAny>>,
) -> PyResult<Server> {
    let (label, weight, name): (String, u32, Option<String>) =
        if let Ok(s) = item.cast::<PyString>() {
            let label = s.to_cow()?.into_owned();
            let w = match weight {
                Some(w) => weight_of(py, w, &label)?,
                None => 1,
            };
            (label, w, None)
        } else if let Ok(t) = item.cast::<PyTuple>() {
            if !(2..=3).contains(&t.len()) {
                return Err(PyTypeError::new_err(
                    "a server is a label, a (label, weight) or a (label, weight, name) tuple",
                ));
            }
            let label: String = t
                .get_item(0)?
                .extract()
                .map_err(|_| PyTypeError::new_err("a server label must be a str"))?;
            let w = weight_of(py, &t.get_item(1)?, &label)?;
            let name =
                if t.len() == 3 {
                    let n = t.get_item(2)?;
                    if n.is_none() {
                        None
                    } else {
                        Some(n.extract::<String>().map_err(|_| {
                            PyTypeError::new_err("a server name must be a str or None")
                        })?)
                    }
                } else {
                    None
                };
            (label, w, name)
        } else {
            return Err(PyTypeError::new_err(format!(
                "a server is a label, a (label, weight) or a (label, weight, name) tuple, not {}",
                item.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_else(|_| "?".into())
            )));
        };
    let server = Server::parse(&label, weight).map_err(|e| to_py(py, e, &quoted(&label)))?;
    Ok(server.with_name(name.as_deref()))
}

/// Servers from a dict `{label: weight}` or an iterable of specs (see [`server_of`]).
fn servers_of(py: Python<'_>, servers: &Bound<'_, PyAny>) -> PyResult<Vec<Server>> {
    if servers.is_instance_of::<PyString>() || servers.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "servers must be an iterable of labels, not a single string",
        ));
    }
    let mut out = Vec::new();
    if let Ok(d) = servers.cast::<PyDict>() {
        for (k, v) in d.iter() {
            out.push(server_of(py, &k, Some(&v))?);
        }
    } else {
        for item in servers.try_iter()? {
            out.push(server_of(py, &item?, None)?);
        }
    }
    Ok(out)
}

fn profile_of(py: Python<'_>, name: &str) -> PyResult<&'static Profile> {
    Profile::by_name(name)
        .map_err(|e| to_py(py, e, &format!("{} (see ketama.profiles())", quoted(name))))
}

fn hash_of(py: Python<'_>, profile: Option<&Profile>, name: &str) -> PyResult<Hash> {
    let r = match profile {
        Some(p) => p.hash_from_name(name),
        None => Hash::from_name(name),
    };
    r.map_err(|e| to_py(py, e, &format!("{} (see ketama.hashes())", quoted(name))))
}

/// The core ring plus each server's label as a ready Python `str` (so a lookup only
/// increments a reference count), and a counter bumped by every update.
struct State {
    ring: ketama_core::Ring,
    labels: Vec<Py<PyString>>,
    generation: u64,
}

/// A consistent-hashing ring that places keys exactly like the chosen client.
#[pyclass(module = "ketama", name = "Ring", frozen, subclass)]
struct Ring {
    state: RwLock<State>,
}

impl Ring {
    fn read(&self) -> RwLockReadGuard<'_, State> {
        // The core's updates are build-then-swap, so a poisoned lock still holds a whole ring.
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// The label of the server for `key`, or the core error.
    fn locate(&self, py: Python<'_>, key: &[u8]) -> Result<Py<PyString>, Error> {
        // Under the lock only a reference count is touched: no Python code can run here.
        let state = self.read();
        let i = state.ring.locate_index(key)?;
        state
            .labels
            .get(i)
            .map(|l| l.clone_ref(py))
            .ok_or(Error::NoServer)
    }

    /// The labels of the servers `walk` picks for `key` (`get_n`, `failover`).
    fn walk(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        walk: impl FnOnce(&ketama_core::Ring, &[u8]) -> Result<Vec<usize>, Error>,
    ) -> PyResult<Vec<Py<PyString>>> {
        let k = key_bytes(key)?;
        let state = self.read();
        match walk(&state.ring, k.as_bytes()) {
            Ok(list) => Ok(list
                .iter()
                .filter_map(|&i| state.labels.get(i))
                .map(|l| l.clone_ref(py))
                .collect()),
            Err(e) => {
                drop(state);
                Err(Ring::key_error(py, e, k.as_bytes()))
            }
        }
    }

    fn key_error(py: Python<'_>, e: Error, key: &[u8]) -> PyErr {
        let shown = String::from_utf8_lossy(&key[..key.len().min(60)]).into_owned();
        to_py(py, e, &format!("key {}", quoted(&shown)))
    }
}

/// Keys copied into one buffer (`ends[i]` = end of key i), so a batch can be searched while
/// detached from Python.
struct Batch {
    buf: Vec<u8>,
    ends: Vec<usize>,
}

impl Batch {
    fn key(&self, n: usize) -> &[u8] {
        let start = if n == 0 { 0 } else { self.ends[n - 1] };
        &self.buf[start..self.ends[n]]
    }

    /// Server indexes for every key, with the generation they belong to; on error the
    /// position of the failing key.
    fn search(&self, state: &State) -> Result<Vec<u32>, (usize, Error)> {
        let mut out = Vec::with_capacity(self.ends.len());
        let mut start = 0;
        for (n, &end) in self.ends.iter().enumerate() {
            let i = state
                .ring
                .locate_index(&self.buf[start..end])
                .map_err(|e| (n, e))?;
            out.push(i as u32);
            start = end;
        }
        Ok(out)
    }
}

#[pymethods]
impl Ring {
    #[new]
    #[pyo3(signature = (servers = None, profile = "libketama", hash = None))]
    fn py_new(
        py: Python<'_>,
        servers: Option<&Bound<'_, PyAny>>,
        profile: &str,
        hash: Option<&str>,
    ) -> PyResult<Self> {
        let p = profile_of(py, profile)?;
        let h = hash.map(|name| hash_of(py, Some(p), name)).transpose()?;
        let servers = match servers {
            Some(s) if !s.is_none() => servers_of(py, s)?,
            _ => Vec::new(),
        };
        let labels = servers
            .iter()
            .map(|s| PyString::new(py, &s.label).unbind())
            .collect();
        let first_dup = {
            let mut seen = std::collections::HashSet::new();
            servers
                .iter()
                .find(|s| !seen.insert(s.label.as_str()))
                .map(|s| s.label.clone())
        };
        let ring = ketama_core::Ring::with_servers(p, h, servers).map_err(|e| {
            let detail = match (e, &first_dup) {
                (Error::DuplicateServer, Some(l)) => quoted(l),
                _ => String::new(),
            };
            to_py(py, e, &detail)
        })?;
        Ok(Ring {
            state: RwLock::new(State {
                ring,
                labels,
                generation: 0,
            }),
        })
    }

    /// The label of the server that owns `key` (`str` keys are hashed as UTF-8).
    fn get(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyString>> {
        let k = key_bytes(key)?;
        self.locate(py, k.as_bytes())
            .map_err(|e| Ring::key_error(py, e, k.as_bytes()))
    }

    /// uhashring / pymemcache style: like `get`, but `None` when no server can take the key
    /// (empty ring); keys that are neither `str` nor `bytes` are hashed as `str(key)`, as
    /// uhashring does.
    fn get_node(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyString>>> {
        let owned;
        let key = if key.is_instance_of::<PyString>() || key.is_instance_of::<PyBytes>() {
            key
        } else {
            owned = key.str()?.into_any();
            &owned
        };
        let k = key_bytes(key)?;
        match self.locate(py, k.as_bytes()) {
            Ok(label) => Ok(Some(label)),
            Err(Error::EmptyRing | Error::NoServer) => Ok(None),
            Err(e) => Err(Ring::key_error(py, e, k.as_bytes())),
        }
    }

    /// The labels for many keys, in order. Large batches run detached from Python (GIL
    /// released).
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
        let mut batch = Batch {
            buf: Vec::new(),
            ends: Vec::new(),
        };
        for key in keys.try_iter()? {
            let key = key?;
            let k = key_bytes(&key)?;
            batch.buf.extend_from_slice(k.as_bytes());
            batch.ends.push(batch.buf.len());
        }
        let mut found = None;
        if batch.ends.len() > DETACH_THRESHOLD {
            let b = &batch;
            found = Some(py.detach(|| {
                let state = self.read();
                (state.generation, b.search(&state))
            }));
        }
        // Labels come from the same ring state as the indexes: if an update slipped in
        // between the detached search and now, search again under this lock.
        let state = self.read();
        let indexes = match found {
            Some((generation, r)) if generation == state.generation => r,
            _ => batch.search(&state),
        };
        let indexes = match indexes {
            Ok(v) => v,
            Err((n, e)) => {
                drop(state);
                return Err(Ring::key_error(py, e, batch.key(n)));
            }
        };
        let labels: Vec<Py<PyString>> = indexes
            .iter()
            .map(|&i| state.labels[i as usize].clone_ref(py))
            .collect();
        drop(state);
        PyList::new(py, labels)
    }

    /// Up to `n` distinct servers for `key`, primary first (replica / failover order, as the
    /// client walks its structure).
    fn get_n(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
        n: usize,
    ) -> PyResult<Vec<Py<PyString>>> {
        self.walk(py, key, |ring, k| {
            let mut out = Vec::new();
            ring.locate_n_into(k, n, &mut out).map(|()| out)
        })
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
        self.walk(py, key, |ring, k| ring.failover(k, n))
    }

    /// The key hash this ring computes for `key` (after the client's key rewriting).
    fn key_hash(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        let k = key_bytes(key)?;
        let r = self.read().ring.key_hash(k.as_bytes());
        r.map_err(|e| Ring::key_error(py, e, k.as_bytes()))
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
            Some(w) if !w.is_none() => weight_of(py, w, label)?,
            _ => 1,
        };
        let server = Server::parse(label, w)
            .map_err(|e| to_py(py, e, &quoted(label)))?
            .with_name(name);
        let label_obj = PyString::new(py, label).unbind();
        // Updates run detached, so readers in other threads never wait on the GIL holder.
        let r = py.detach(move || {
            let mut state = self.write();
            match state.ring.add(server) {
                Ok(()) => {
                    state.labels.push(label_obj);
                    state.generation += 1;
                    Ok(())
                }
                Err(e) => Err((e, label_obj)),
            }
        });
        r.map_err(|(e, _label_obj)| to_py(py, e, &quoted(label)))
    }

    /// Removes the server with this label (`MissingServerError`, a `KeyError`, when absent).
    fn remove(&self, py: Python<'_>, label: &str) -> PyResult<()> {
        let r = py.detach(|| {
            let mut state = self.write();
            let at = state.ring.position(label).ok_or(Error::MissingServer)?;
            state.ring.remove(label)?;
            state.generation += 1;
            // Hand the old label back so its reference is dropped while attached.
            Ok(state.labels.remove(at))
        });
        match r {
            Ok(old) => {
                drop(old);
                Ok(())
            }
            Err(e) => Err(to_py(py, e, &quoted(label))),
        }
    }

    /// Changes a server's weight in place (its place in the server order is kept).
    fn set_weight(&self, py: Python<'_>, label: &str, weight: &Bound<'_, PyAny>) -> PyResult<()> {
        let w = weight_of(py, weight, label)?;
        let r = py.detach(|| {
            let mut state = self.write();
            state.ring.set_weight(label, w)?;
            state.generation += 1;
            Ok::<(), Error>(())
        });
        r.map_err(|e| to_py(py, e, &quoted(label)))
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
        let state = self.read();
        state
            .ring
            .points()
            .filter_map(|(p, i)| state.labels.get(i).map(|l| (p, l.clone_ref(py))))
            .collect()
    }

    /// The server labels, in server order.
    #[getter]
    fn servers(&self, py: Python<'_>) -> Vec<Py<PyString>> {
        self.read().labels.iter().map(|l| l.clone_ref(py)).collect()
    }

    /// `{label: weight}`, in server order.
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let pairs: Vec<(Py<PyString>, u32)> = {
            let state = self.read();
            state
                .ring
                .servers()
                .zip(&state.labels)
                .map(|(s, l)| (l.clone_ref(py), s.weight))
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
        self.read().ring.profile().name
    }

    /// The key hash's name.
    #[getter]
    fn hash(&self) -> &'static str {
        self.read().ring.hash().name()
    }

    fn __len__(&self) -> usize {
        self.read().ring.len()
    }

    fn __contains__(&self, label: &Bound<'_, PyAny>) -> PyResult<bool> {
        match label.cast::<PyString>() {
            Ok(s) => {
                let s = s.to_cow()?;
                Ok(self.read().ring.position(&s).is_some())
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
        let state = slf.get().read();
        let ring = &state.ring;
        let mut shown: Vec<String> = ring.servers().take(3).map(|s| quoted(&s.label)).collect();
        if ring.len() > 3 {
            shown.push(format!("... {} more", ring.len() - 3));
        }
        Ok(format!(
            "<{class} profile={} hash={} servers={} [{}]>",
            quoted(ring.profile().name),
            quoted(ring.hash().name()),
            ring.len(),
            shown.join(", ")
        ))
    }

    /// Pickling and `copy`: the class, then its servers as `(label, weight, name)`, profile
    /// and hash (an equal, independent ring).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let (servers, profile, hash) = {
            let state = slf.get().read();
            let servers: Vec<(String, u32, Option<String>)> = state
                .ring
                .servers()
                .map(|s| (s.label.clone(), s.weight, s.name.clone()))
                .collect();
            (servers, state.ring.profile().name, state.ring.hash().name())
        };
        let args = PyTuple::new(
            py,
            [
                servers.into_pyobject(py)?.into_any(),
                profile.into_pyobject(py)?.into_any(),
                hash.into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((slf.get_type(), args))
    }
}

/// The key hash `algorithm` computes for `key` (a snake_case libhashkit name or a client's
/// enum name such as `KETAMA_HASH`; Java flavours hash the key's UTF-16 code units).
#[pyfunction]
#[pyo3(name = "hash")]
fn hash_key(py: Python<'_>, key: &Bound<'_, PyAny>, algorithm: &str) -> PyResult<u32> {
    let h = hash_of(py, None, algorithm)?;
    let k = key_bytes(key)?;
    Ok(h.hash(k.as_bytes()))
}

/// `{name: description}` for every profile, aliases included (marked "alias of ...").
#[pyfunction]
fn profiles(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for p in Profile::all() {
        d.set_item(p.name, p.description)?;
    }
    for p in Profile::all() {
        for a in p.aliases {
            d.set_item(*a, format!("alias of {}", p.name))?;
        }
    }
    Ok(d)
}

/// `{name: description}` for every hash (our snake_case names; the clients' own enum names
/// are listed in `hash_aliases()`).
#[pyfunction]
fn hashes(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for h in Hash::all() {
        d.set_item(h.name(), h.description())?;
    }
    Ok(d)
}

/// `{alias: name}`: the clients' own names for our hashes (`KETAMA_HASH` -> `md5`, ...).
#[pyfunction]
fn hash_aliases(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for h in Hash::all() {
        for a in h.aliases() {
            d.set_item(*a, h.name())?;
        }
    }
    Ok(d)
}

#[pymodule(gil_used = false)]
fn _ketama(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CORE_VERSION", ketama_core::VERSION)?;
    m.add("DETACH_THRESHOLD", DETACH_THRESHOLD)?;
    m.add_class::<Ring>()?;
    m.add_function(wrap_pyfunction!(hash_key, m)?)?;
    m.add_function(wrap_pyfunction!(profiles, m)?)?;
    m.add_function(wrap_pyfunction!(hashes, m)?)?;
    m.add_function(wrap_pyfunction!(hash_aliases, m)?)?;
    m.add_function(wrap_pyfunction!(bucket::bucket, m)?)?;
    m.add_function(wrap_pyfunction!(bucket::bucket_algorithms, m)?)?;
    Ok(())
}
