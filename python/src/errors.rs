//! Core errors as Python exceptions. The classes are defined in `ketama/_errors.py` (they
//! inherit from both `KetamaError` and the built-in a Python user expects, which a Rust-side
//! definition cannot express) and imported here by name at compile time: one typed mapping,
//! no look-up by string, checked for every `Error::ALL` variant by the test suite.

use ketama_core::Error;
use pyo3::prelude::*;

pyo3::import_exception!(ketama._errors, KetamaError);
pyo3::import_exception!(ketama._errors, EmptyRingError);
pyo3::import_exception!(ketama._errors, NoServerError);
pyo3::import_exception!(ketama._errors, UnknownProfileError);
pyo3::import_exception!(ketama._errors, UnknownHashError);
pyo3::import_exception!(ketama._errors, AmbiguousHashError);
pyo3::import_exception!(ketama._errors, BadWeightError);
pyo3::import_exception!(ketama._errors, DuplicateServerError);
pyo3::import_exception!(ketama._errors, MissingServerError);
pyo3::import_exception!(ketama._errors, BadLabelError);
pyo3::import_exception!(ketama._errors, KeyRejectedError);
pyo3::import_exception!(ketama._errors, UnsupportedError);
pyo3::import_exception!(ketama._errors, TooManyPointsError);
pyo3::import_exception!(ketama._errors, BadFactorError);
pyo3::import_exception!(ketama._errors, FixedPointsError);
pyo3::import_exception!(ketama._errors, NotAContinuumError);
pyo3::import_exception!(ketama._errors, NeedsKeyError);
pyo3::import_exception!(ketama._errors, BadLoadsError);
pyo3::import_exception!(ketama._errors, TooManyServersError);
pyo3::import_exception!(ketama._errors, UnknownAlgorithmError);
pyo3::import_exception!(ketama._errors, ZeroBucketsError);
pyo3::import_exception!(ketama._errors, TooManyBucketsError);
pyo3::import_exception!(ketama._errors, NoBucketError);
pyo3::import_exception!(ketama._errors, BadOptionError);

/// The Python exception for a core error, with `detail` (e.g. the offending name) after the
/// core's message. `None` would mean an error this binding does not know: it becomes a plain
/// `KetamaError`, which `_error_classes()` lets the tests forbid.
fn specific(e: Error, message: String) -> Option<PyErr> {
    Some(match e {
        Error::EmptyRing => EmptyRingError::new_err(message),
        Error::NoServer => NoServerError::new_err(message),
        Error::UnknownProfile => UnknownProfileError::new_err(message),
        Error::UnknownHash => UnknownHashError::new_err(message),
        Error::AmbiguousHash => AmbiguousHashError::new_err(message),
        Error::BadWeight => BadWeightError::new_err(message),
        Error::DuplicateServer => DuplicateServerError::new_err(message),
        Error::MissingServer => MissingServerError::new_err(message),
        Error::BadLabel => BadLabelError::new_err(message),
        Error::KeyRejected => KeyRejectedError::new_err(message),
        Error::Unsupported => UnsupportedError::new_err(message),
        Error::TooManyPoints => TooManyPointsError::new_err(message),
        Error::BadFactor => BadFactorError::new_err(message),
        Error::FixedPoints => FixedPointsError::new_err(message),
        Error::NotAContinuum => NotAContinuumError::new_err(message),
        Error::NeedsKey => NeedsKeyError::new_err(message),
        Error::BadLoads => BadLoadsError::new_err(message),
        Error::TooManyServers => TooManyServersError::new_err(message),
        Error::UnknownAlgorithm => UnknownAlgorithmError::new_err(message),
        Error::ZeroBuckets => ZeroBucketsError::new_err(message),
        Error::TooManyBuckets => TooManyBucketsError::new_err(message),
        Error::NoBucket => NoBucketError::new_err(message),
        Error::BadOption => BadOptionError::new_err(message),
        _ => return None,
    })
}

/// Builds the Python exception for a core error, with `detail` after the core's message.
pub(crate) fn to_py(e: Error, detail: &str) -> PyErr {
    let message = if detail.is_empty() {
        e.as_str().to_owned()
    } else {
        format!("{}: {detail}", e.as_str())
    };
    specific(e, message.clone()).unwrap_or_else(|| KetamaError::new_err(message))
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
