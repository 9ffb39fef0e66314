//! `_NodeLookup`: one ring snapshot and a value per server, called with a key. What a
//! drop-in (`ketama.uhashring.HashRing.get_node`) installs as its per-key method, so a lookup
//! is one native call with no Python frame in between.

use std::sync::Arc;

use ketama_core::{Error, Snapshot};
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use pyo3::PyTypeInfo;

use crate::convert::key_bytes;
use crate::labels::Labels;

/// Calls `key -> values[server index]` (or `None` when no server owns the key) on a fixed
/// snapshot of a ring. Keys that are not exactly `str` are hashed as `str(key)` (uhashring's
/// rule, `bytes` included), unless the ring hashes keys with a callable, which then gets the
/// key as it is. When that callable returns something other than an int in 0..=2**32-1,
/// `fallback(key)` answers instead.
#[pyclass(module = "ketama", name = "_NodeLookup", frozen)]
pub(crate) struct NodeLookup {
    snap: Arc<Snapshot<Labels>>,
    values: Vec<Py<PyAny>>,
    key_fn: Option<Py<PyAny>>,
    fallback: Option<Py<PyAny>>,
}

impl NodeLookup {
    pub(crate) fn new(
        snap: Arc<Snapshot<Labels>>,
        values: Vec<Py<PyAny>>,
        key_fn: Option<Py<PyAny>>,
        fallback: Option<Py<PyAny>>,
    ) -> PyResult<NodeLookup> {
        if values.len() != snap.ring.len() {
            return Err(PyTypeError::new_err(format!(
                "one value per server: the ring has {}, got {}",
                snap.ring.len(),
                values.len()
            )));
        }
        Ok(NodeLookup {
            snap,
            values,
            key_fn,
            fallback,
        })
    }

    fn value(&self, py: Python<'_>, found: Result<usize, Error>) -> PyResult<Option<Py<PyAny>>> {
        match found {
            Ok(i) => Ok(self.values.get(i).map(|v| v.clone_ref(py))),
            Err(Error::EmptyRing | Error::NoServer) => Ok(None),
            Err(e) => Err(crate::errors::to_py(e, "")),
        }
    }
}

#[pymethods]
impl NodeLookup {
    fn __call__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
        self.get(py, key)
    }

    /// The same as calling the lookup; as a bound method it is called through vectorcall
    /// (no argument tuple), which is what a drop-in installs as its per-key method.
    fn get(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
        if let Some(f) = &self.key_fn {
            let h = f.bind(py).call1((key,))?;
            return match h.extract::<u32>() {
                Ok(h) => self.value(py, self.snap.ring.locate_hash(h)),
                Err(e) => match &self.fallback {
                    Some(fb) => Ok(Some(fb.bind(py).call1((key,))?.unbind())),
                    None if h.is_instance_of::<pyo3::types::PyInt>() => {
                        Err(PyOverflowError::new_err(e.value(py).to_string()))
                    }
                    None => Err(e),
                },
            };
        }
        let owned;
        let key = if PyString::is_exact_type_of(key) {
            key
        } else {
            owned = key.str()?.into_any();
            &owned
        };
        let k = key_bytes(key)?;
        self.value(py, self.snap.ring.locate_index(k.as_bytes()))
    }
}

crate::fastcall::one_key!(
    /// `_NodeLookup.get` through [`crate::fastcall`].
    FastLookup, "get", NodeLookup, |py, lookup, key| Ok(lookup.get(py, key)?.unwrap_or_else(|| py.None()))
);
