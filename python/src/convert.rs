//! Python values to core values: keys as bytes, weights, server specs, names.

use ketama_core::{Error, Hash, Profile, Server};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};
use pyo3::PyTypeInfo;
use std::borrow::Cow;

use crate::errors::{blame, to_py};

/// A string in quotes, close to Python's `repr()`, for messages.
pub(crate) fn quoted(s: &str) -> String {
    format!("'{}'", s.escape_debug())
}

/// The refusal of a `str` that holds an unpaired surrogate: it is not Unicode and has no
/// UTF-8, so every ketama binding refuses it (`InvalidUtf8Error`) rather than replace the
/// surrogate; `what` names the argument.
pub(crate) fn not_unicode(what: &str) -> PyErr {
    to_py(
        Error::InvalidUtf8,
        &format!("{what} holds an unpaired surrogate"),
    )
}

/// The text of a `str` argument (see [`not_unicode`]).
pub(crate) fn text<'a>(s: &'a Bound<'_, PyString>, what: &str) -> PyResult<Cow<'a, str>> {
    s.to_cow().map_err(|_| not_unicode(what))
}

/// The text of a server label (see [`not_unicode`]); a label that is not Unicode is blamed
/// as the `str` it is (`server_label`).
pub(crate) fn label_text<'a>(s: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    s.to_cow().map_err(|_| {
        let err = not_unicode("a server label");
        // Setting an attribute on an exception instance does not fail for this name.
        let _ = err.value(s.py()).setattr("server_label", s);
        err
    })
}

/// The text of `v` when it is a `str`, else a `TypeError` saying `what` must be one.
pub(crate) fn str_arg(v: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let s = v.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a str, not {}",
            v.get_type().name().map_or("?".into(), |n| n.to_string())
        ))
    })?;
    Ok(text(s, what)?.into_owned())
}

/// The key's bytes: `bytes` as they are, `str` as UTF-8, `bytearray` and `memoryview`
/// copied. Anything else is a `TypeError`.
pub(crate) enum KeyBytes<'py> {
    Borrowed(Bound<'py, PyBytes>),
    Str(&'py [u8]),
    Owned(Vec<u8>),
}

impl KeyBytes<'_> {
    pub(crate) fn as_bytes(&self) -> &[u8] {
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

pub(crate) use utf8::borrow as borrow_utf8;

pub(crate) fn key_bytes<'a, 'py>(key: &'a Bound<'py, PyAny>) -> PyResult<KeyBytes<'a>> {
    // Exactly `str` (the usual key) is a pointer compare; `cast` below asks the type's flags
    // through a call (abi3) and also takes subclasses.
    if PyString::is_exact_type_of(key) {
        // SAFETY: just checked that `key` is a `str`.
        let s = unsafe { key.cast_unchecked::<PyString>() };
        if let Some(b) = utf8::borrow(s).map_err(|_| not_unicode("key"))? {
            return Ok(KeyBytes::Str(b));
        }
    }
    if let Ok(s) = key.cast::<PyString>() {
        if let Some(b) = utf8::borrow(s).map_err(|_| not_unicode("key"))? {
            return Ok(KeyBytes::Str(b));
        }
        let b = s.encode_utf8().map_err(|_| not_unicode("key"))?;
        return Ok(KeyBytes::Borrowed(b));
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
pub(crate) fn weight_of(w: &Bound<'_, PyAny>, label: &str) -> PyResult<u32> {
    if w.is_instance_of::<pyo3::types::PyBool>() || !w.is_instance_of::<pyo3::types::PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "weight of {} must be an int",
            quoted(label)
        )));
    }
    let v: i128 = w.extract()?;
    u32::try_from(v).map_err(|_| {
        let e = to_py(
            Error::BadWeight,
            &format!("{} has weight {v} (allowed: 0..=4294967295)", quoted(label)),
        );
        blame(w.py(), e, None, Some(label))
    })
}

/// One server spec: `"label"`, `(label, weight)` or `(label, weight, name)`.
pub(crate) fn server_of(
    item: &Bound<'_, PyAny>,
    weight: Option<&Bound<'_, PyAny>>,
) -> PyResult<Server> {
    let (label, weight, name): (String, u32, Option<String>) =
        if let Ok(s) = item.cast::<PyString>() {
            let label = label_text(s)?.into_owned();
            let w = match weight {
                Some(w) => weight_of(w, &label)?,
                None => 1,
            };
            (label, w, None)
        } else if let Ok(t) = item.cast::<PyTuple>() {
            if !(2..=3).contains(&t.len()) {
                return Err(PyTypeError::new_err(
                    "a server is a label, a (label, weight) or a (label, weight, name) tuple",
                ));
            }
            let label = t.get_item(0)?;
            let label = label_text(
                label
                    .cast::<PyString>()
                    .map_err(|_| PyTypeError::new_err("a server label must be a str"))?,
            )?
            .into_owned();
            let w = weight_of(&t.get_item(1)?, &label)?;
            let name = if t.len() == 3 {
                let n = t.get_item(2)?;
                if n.is_none() {
                    None
                } else {
                    let s = n
                        .cast::<PyString>()
                        .map_err(|_| PyTypeError::new_err("a server name must be a str or None"))?;
                    Some(
                        text(s, "a server name")
                            .map_err(|e| blame(item.py(), e, None, Some(&label)))?
                            .into_owned(),
                    )
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
    let server = Server::parse(&label, weight)
        .map_err(|e| blame(item.py(), to_py(e, &quoted(&label)), None, Some(&label)))?;
    Ok(server.with_name(name.as_deref()))
}

/// Servers from a dict `{label: weight}` or an iterable of specs (see [`server_of`]).
pub(crate) fn servers_of(servers: &Bound<'_, PyAny>) -> PyResult<Vec<Server>> {
    if servers.is_instance_of::<PyString>() || servers.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "servers must be an iterable of labels, not a single string",
        ));
    }
    let py = servers.py();
    let at = |i: usize| move |e: PyErr| blame(py, e, Some(i), None);
    let mut out = Vec::new();
    if let Ok(d) = servers.cast::<PyDict>() {
        for (i, (k, v)) in d.iter().enumerate() {
            out.push(server_of(&k, Some(&v)).map_err(at(i))?);
        }
    } else {
        for (i, item) in servers.try_iter()?.enumerate() {
            out.push(server_of(&item?, None).map_err(at(i))?);
        }
    }
    Ok(out)
}

pub(crate) fn profile_of(name: &str) -> PyResult<&'static Profile> {
    Profile::by_name(name)
        .map_err(|e| to_py(e, &format!("{} (see ketama.profiles())", quoted(name))))
}

pub(crate) fn hash_of(profile: Option<&Profile>, name: &str) -> PyResult<Hash> {
    let r = match profile {
        Some(p) => p.hash_from_name(name),
        None => Hash::from_name(name),
    };
    r.map_err(|e| to_py(e, &format!("{} (see ketama.hashes())", quoted(name))))
}
