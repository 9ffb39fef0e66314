//! Looking up many keys: copied into one buffer, searched in one core batch (detached from
//! the interpreter when large), answered as one list filled in one pass.

use ketama_core::Error;
use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use pyo3::PyTypeInfo;

use super::locate::key_error;
use super::Ring;
use crate::convert::key_bytes;

/// Batches of this many keys or more release the GIL (detach from the interpreter) while
/// they are located (their keys copied to one Rust buffer first); below it the release costs
/// more than it saves (a release and re-acquire is about as dear as hashing a key or two).
pub(crate) const DETACH_THRESHOLD: usize = 64;

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
                let b = crate::convert::borrow_utf8(&s)
                    .map_err(|_| crate::convert::not_unicode("key"))?;
                if let Some(b) = b {
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

impl Ring {
    /// The body of `Ring.get_many`.
    pub(super) fn locate_many<'py>(
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
}
