//! `RawRing`: core's continuum over raw node names ([`RawContinuum`]) for Python, and the
//! libketama servers file read by core's parser ([`ketama_core::servers_file`]), for the
//! libketama drop-in (`ketama.Continuum`) and the uhashring drop-in's names a `Ring` cannot
//! take as labels.

use ketama_core::ring::{RawContinuum, RawCount};
use ketama_core::servers_file::{
    self, check_file, FileError, FileKind, MAX_FILE_BYTES as FILE_CAP,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::{hash_of, key_bytes, profile_of};
use crate::errors::to_py;

pyo3::import_exception!(ketama._errors, KetamaError);

/// The largest libketama servers file read, in bytes (core's rule).
pub(crate) const MAX_FILE_BYTES: u64 = FILE_CAP;

/// A continuum over raw node names: each `(name, count)` is a server known by its index in
/// the list, hashed exactly as given (any bytes; the same name twice is two servers, each with
/// its own points), by a profile's rules (`libketama`, `flexihash`, `uhashring`,
/// `uhashring-ketama`, `hash_ring`, ...). `strings=True` reads each count as the number of
/// point strings itself rather than as a weight.
#[pyclass(module = "ketama", name = "RawRing", frozen)]
pub(crate) struct RawRing {
    ring: RawContinuum,
}

#[pymethods]
impl RawRing {
    #[new]
    #[pyo3(signature = (servers, profile = "libketama", hash = None, strings = false))]
    fn new(
        py: Python<'_>,
        servers: Vec<(Vec<u8>, u32)>,
        profile: &str,
        hash: Option<&str>,
        strings: bool,
    ) -> PyResult<Self> {
        let profile = profile_of(profile)?;
        let hash = hash.map(|h| hash_of(Some(profile), h)).transpose()?;
        let kind = if strings {
            RawCount::Strings
        } else {
            RawCount::Weight
        };
        let list: Vec<(&[u8], u32)> = servers.iter().map(|(n, c)| (n.as_slice(), *c)).collect();
        let ring = py
            .detach(|| RawContinuum::build_with(profile, hash, kind, &list))
            .map_err(|e| match e.server {
                Some(i) => to_py(e.error, &format!("server {i}")),
                None => to_py(e.error, ""),
            })?;
        Ok(RawRing { ring })
    }

    /// Number of points.
    fn __len__(&self) -> usize {
        self.ring.len()
    }

    /// Number of servers (entries of the list, points or not).
    #[getter]
    fn server_count(&self) -> usize {
        self.ring.server_count()
    }

    /// The index of the server `key` goes to (`NoServerError` when no server has a point).
    fn locate(&self, key: &Bound<'_, PyAny>) -> PyResult<usize> {
        let k = key_bytes(key)?;
        self.ring.locate(k.as_bytes()).map_err(|e| to_py(e, ""))
    }

    /// The index (into `points()`) of the point `key` lands on.
    fn position(&self, key: &Bound<'_, PyAny>) -> PyResult<usize> {
        let k = key_bytes(key)?;
        self.ring
            .key_position(k.as_bytes())
            .map_err(|e| to_py(e, ""))
    }

    /// Up to `n` distinct server indexes for `key`: its own, then the next owners walking the
    /// continuum the way the profile's search goes.
    fn locate_n(&self, key: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<usize>> {
        let k = key_bytes(key)?;
        let mut out = Vec::new();
        self.ring
            .locate_n_into(k.as_bytes(), n, &mut out)
            .map_err(|e| to_py(e, ""))?;
        Ok(out)
    }

    /// Every `(point, server index)`, ascending (the tie rule's winner first among equal
    /// points); on uhashring's 128-bit continuum the points are the whole 128-bit values.
    fn points(&self, py: Python<'_>) -> PyResult<Vec<(Py<PyAny>, u32)>> {
        let owners = self.ring.owners();
        let wide = self.ring.wide_points();
        if wide.is_empty() {
            self.ring
                .points()
                .iter()
                .zip(owners)
                .map(|(&p, &o)| Ok((p.into_pyobject(py)?.into_any().unbind(), o)))
                .collect()
        } else {
            wide.iter()
                .zip(owners)
                .map(|(&p, &o)| Ok((p.into_pyobject(py)?.into_any().unbind(), o)))
                .collect()
        }
    }
}

/// Core's message for a refused servers file, as a `KetamaError`.
fn refused(e: &FileError, file: &str) -> PyErr {
    KetamaError::new_err(e.in_file(file).to_string())
}

/// Checks what `os.stat` found (`kind`: `regular`, `directory`, `fifo`, `device`, `socket` or
/// `other`; `size` in bytes) against core's rule for a servers file.
#[pyfunction]
pub(crate) fn _libketama_check(file: &str, kind: &str, size: u64) -> PyResult<()> {
    let kind = match kind {
        "regular" => FileKind::Regular,
        "directory" => FileKind::Directory,
        "fifo" => FileKind::Fifo,
        "device" => FileKind::Device,
        "socket" => FileKind::Socket,
        "other" => FileKind::Other,
        _ => return Err(PyValueError::new_err(format!("unknown file kind {kind:?}"))),
    };
    check_file(kind, size).map_err(|e| refused(&e, file))
}

/// The `KetamaError` for a servers file that could not be seen (`missing`), opened or read
/// (`unreadable`, with the system's error number), or grew past the cap while read (`grew`).
#[pyfunction]
pub(crate) fn _libketama_io_error(file: &str, problem: &str, errno: i32) -> PyResult<PyErr> {
    let e = match problem {
        "missing" => servers_file::missing(),
        "unreadable" => servers_file::unreadable(errno),
        "grew" => servers_file::grew_too_large(),
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown problem {problem:?}"
            )))
        }
    };
    Ok(refused(&e, file))
}

/// The servers of a servers file, `(address, memory)`, and their continuum.
type Read<'py> = (Vec<(Bound<'py, PyBytes>, u32)>, RawRing);

/// A servers file's bytes read as libketama reads them (core's parser): the servers,
/// `[(address, memory)]` in file order, and their continuum; a refusal is a `KetamaError`
/// with core's message, naming the line.
#[pyfunction]
pub(crate) fn _libketama_read<'py>(
    py: Python<'py>,
    data: &[u8],
    file: &str,
) -> PyResult<Read<'py>> {
    let servers = servers_file::parse(data).map_err(|e| refused(&e, file))?;
    let ring = servers_file::continuum(&servers).map_err(|e| refused(&e, file))?;
    let list = servers
        .iter()
        .map(|&(a, m)| (PyBytes::new(py, a), m))
        .collect();
    Ok((list, RawRing { ring }))
}
