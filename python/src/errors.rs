//! Core errors as Python exceptions. The classes are defined in `ketama/_errors.py` (they
//! inherit from both `KetamaError` and the built-in a Python user expects, which a Rust-side
//! definition cannot express); `error_classes.rs` (generated with them from
//! `spec/errors.json`) maps each core error to its class, checked for every `Error::ALL`
//! variant by the test suite.

use ketama_core::Error;
use pyo3::prelude::*;

use crate::error_classes::{specific, KetamaError};

/// Builds the Python exception for a core error, with `detail` after the core's message.
pub(crate) fn to_py(e: Error, detail: &str) -> PyErr {
    let message = if detail.is_empty() {
        e.as_str().to_owned()
    } else {
        format!("{}: {detail}", e.as_str())
    };
    specific(e, message.clone()).unwrap_or_else(|| KetamaError::new_err(message))
}

/// Whether an error of a call that took servers is that of one server (its label, weight
/// or endpoint), which the exception then names.
pub(crate) fn blames_server(e: Error) -> bool {
    matches!(
        e,
        Error::BadWeight
            | Error::DuplicateServer
            | Error::MissingServer
            | Error::BadLabel
            | Error::Unsupported
            | Error::InvalidUtf8
    )
}

/// Names the server input to blame on a `KetamaError`: `server_index` (its place in the list
/// given, when a list was given) and `server_label`, each when given. Other exceptions pass
/// unchanged.
pub(crate) fn blame(
    py: Python<'_>,
    err: PyErr,
    index: Option<usize>,
    label: Option<&str>,
) -> PyErr {
    let value = err.value(py);
    if value.is_instance_of::<KetamaError>() {
        // Setting an attribute on an exception instance does not fail for these names; if
        // it did, the exception would still say what went wrong.
        if let Some(i) = index {
            let _ = value.setattr("server_index", i);
        }
        if let Some(l) = label {
            let _ = value.setattr("server_label", l);
        }
    }
    err
}

/// `[(core variant name, exception class name)]` for every core error; a variant this
/// binding has no class for shows as `None` (the tests fail on it).
#[pyfunction]
pub(crate) fn _error_classes(py: Python<'_>) -> PyResult<Vec<(&'static str, Option<String>)>> {
    Error::ALL
        .iter()
        .map(|&e| {
            let class = match specific(e, String::new()) {
                Some(err) => Some(err.get_type(py).name()?.to_string()),
                None => None,
            };
            Ok((e.name(), class))
        })
        .collect()
}
