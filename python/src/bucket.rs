//! `ketama.bucket(algorithm, input, buckets)`: the core's bucket functions (jump, guava,
//! jumpback, fliphash, maglev-go, mpchash-go) for Python.

use ketama_core::alt::bucket::{bucket as core_bucket, Bucket};
use pyo3::prelude::*;

use crate::errors::to_py;

/// The bucket (0 .. buckets-1) of the unsigned 64-bit `input` under `algorithm`.
#[pyfunction]
#[pyo3(signature = (algorithm, input, buckets))]
pub fn bucket(algorithm: &str, input: u64, buckets: i64) -> PyResult<u32> {
    let a = Bucket::from_name(algorithm)
        .map_err(|e| to_py(e, &format!("'{}'", algorithm.escape_debug())))?;
    let n = u32::try_from(buckets).unwrap_or(if buckets <= 0 { 0 } else { u32::MAX });
    core_bucket(a, input, n).map_err(|e| {
        to_py(
            e,
            &format!(
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
