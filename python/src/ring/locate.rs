//! Looking up one key: its server, the servers a walk picks, and the caller's hash callable.

use ketama_core::Error;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use pyo3::PyTypeInfo;

use super::Ring;
use crate::convert::{key_bytes, quoted};
use crate::errors::to_py;

impl Ring {
    /// The label of the server for `key`, or the core error.
    pub(super) fn locate(&self, py: Python<'_>, key: &[u8]) -> Result<Py<PyString>, Error> {
        self.with_snapshot(py, |snap| {
            let i = snap.ring.locate_index(key)?;
            snap.extra
                .get(i)
                .map(|l| l.obj.clone_ref(py))
                .ok_or(Error::NoServer)
        })
    }

    /// The label of the server for a key hash the caller's callable computed.
    pub(super) fn locate_hashed(&self, py: Python<'_>, h: u32) -> Result<Py<PyString>, Error> {
        self.with_snapshot(py, |snap| {
            let i = snap.ring.locate_hash(h)?;
            snap.extra
                .get(i)
                .map(|l| l.obj.clone_ref(py))
                .ok_or(Error::NoServer)
        })
    }

    /// The labels of the servers `walk` picks for `key` (`get_n`, `failover`).
    pub(super) fn walk(
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

    /// The body of `Ring.get_node`.
    pub(super) fn node(
        &self,
        py: Python<'_>,
        key: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Py<PyString>>> {
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
}

/// The caller's hash of `key`: an `int` in 0..=2**32-1 (else `TypeError` / `OverflowError`).
pub(super) fn call_hash(f: &Py<PyAny>, key: &Bound<'_, PyAny>) -> PyResult<u32> {
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

/// `e` about `key` (its first 60 bytes shown).
pub(super) fn key_error(e: Error, key: &[u8]) -> PyErr {
    let shown = String::from_utf8_lossy(&key[..key.len().min(60)]).into_owned();
    to_py(e, &format!("key {}", quoted(&shown)))
}
