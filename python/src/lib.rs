//! `ketama._ketama`: the native layer of the `ketama` Python package.
//!
//! Thin on purpose: it turns Python arguments into [`ketama_core`] calls (`convert`), core
//! errors into the exception classes of `ketama/_errors.py` (`errors`), and holds the
//! [`ring::Ring`] class. Everything friendly (the pymemcache hasher, docs, `__all__`) lives in
//! Python.

mod bucket;
mod convert;
mod error_classes;
mod errors;
mod fastcall;
mod labels;
mod lookup;
mod pin;
mod raw;
mod ring;

use ketama_core::{Hash, Profile};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use convert::{hash_of, key_bytes};

/// The key hash `algorithm` computes for `key` (a snake_case libhashkit name or a client's
/// enum name such as `KETAMA_HASH`; Java flavours hash the key's UTF-16 code units).
#[pyfunction]
#[pyo3(name = "hash")]
fn hash_key(key: &Bound<'_, PyAny>, algorithm: &str) -> PyResult<u32> {
    let h = hash_of(None, algorithm)?;
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
    m.add("DETACH_THRESHOLD", ring::DETACH_THRESHOLD)?;
    pin::init(m.py())?;
    m.add_class::<ring::Ring>()?;
    m.add_class::<lookup::NodeLookup>()?;
    m.add_class::<raw::RawRing>()?;
    m.add("_LIBKETAMA_MAX_FILE_BYTES", raw::MAX_FILE_BYTES)?;
    m.add_function(wrap_pyfunction!(raw::_libketama_check, m)?)?;
    m.add_function(wrap_pyfunction!(raw::_libketama_io_error, m)?)?;
    m.add_function(wrap_pyfunction!(raw::_libketama_read, m)?)?;
    let ring = m.py().get_type::<ring::Ring>();
    fastcall::install::<ring::FastGet>(&ring)?;
    fastcall::install::<ring::FastGetNode>(&ring)?;
    fastcall::install::<ring::FastGetMany>(&ring)?;
    fastcall::install::<lookup::FastLookup>(&m.py().get_type::<lookup::NodeLookup>())?;
    m.add_function(wrap_pyfunction!(errors::_error_classes, m)?)?;
    m.add_function(wrap_pyfunction!(hash_key, m)?)?;
    m.add_function(wrap_pyfunction!(profiles, m)?)?;
    m.add_function(wrap_pyfunction!(hashes, m)?)?;
    m.add_function(wrap_pyfunction!(hash_aliases, m)?)?;
    m.add_function(wrap_pyfunction!(bucket::bucket, m)?)?;
    m.add_function(wrap_pyfunction!(bucket::bucket_algorithms, m)?)?;
    Ok(())
}
