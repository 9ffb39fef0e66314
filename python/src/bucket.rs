//! `ketama.bucket(algorithm, input, buckets)`: the core's bucket functions (jump, guava,
//! jumpback, fliphash, maglev-go, mpchash-go) for Python.

use ketama_core::alt::bucket::{bucket as core_bucket, Bucket, BucketError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// Python's name for a bucket error: the class in `ketama._errors`.
fn error_class(e: BucketError) -> &'static str {
    match e {
        BucketError::UnknownAlgorithm => "UnknownAlgorithmError",
        BucketError::ZeroBuckets | BucketError::TooManyBuckets => "BucketCountError",
        BucketError::NoBucket => "NoBucketError",
        // `BucketError` is non-exhaustive; every current variant is named above.
        _ => "KetamaError",
    }
}

fn to_py(py: Python<'_>, e: BucketError, detail: String) -> PyErr {
    static ERRORS: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module = match ERRORS.get_or_try_init(py, || py.import("ketama._errors").map(Bound::unbind))
    {
        Ok(m) => m.bind(py),
        Err(err) => return err,
    };
    match module
        .getattr(error_class(e))
        .and_then(|class| class.call1((format!("{}: {detail}", e.as_str()),)))
    {
        Ok(instance) => PyErr::from_value(instance),
        Err(err) => err,
    }
}

/// The bucket (0 .. buckets-1) of the unsigned 64-bit `input` under `algorithm`.
#[pyfunction]
#[pyo3(signature = (algorithm, input, buckets))]
pub fn bucket(py: Python<'_>, algorithm: &str, input: u64, buckets: i64) -> PyResult<u32> {
    let a = Bucket::from_name(algorithm)
        .map_err(|e| to_py(py, e, format!("'{}'", algorithm.escape_debug())))?;
    let n = u32::try_from(buckets).unwrap_or(if buckets <= 0 { 0 } else { u32::MAX });
    core_bucket(a, input, n).map_err(|e| {
        to_py(
            py,
            e,
            format!(
                "{algorithm} with {buckets} buckets (takes 1 to {})",
                a.max_buckets()
            ),
        )
    })
}

/// `{name: description}` of every bucket function.
#[pyfunction]
pub fn bucket_algorithms() -> Vec<(&'static str, &'static str)> {
    Bucket::ALL
        .iter()
        .map(|b| (b.name(), b.description()))
        .collect()
}
