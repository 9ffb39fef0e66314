//! The constructors' arguments: `Ring(servers, profile, hash)` as a `def` would check them,
//! and `Ring.from_points(points, hash, profile, servers)`.

use ketama_core::{Error, Options, Server};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple, PyType};

use super::Ring;
use crate::convert::{hash_of, profile_of, quoted, servers_of, str_arg, text};
use crate::errors::{blame, to_py};
use crate::labels::{Label, Labels};

/// A ring and its labels from `(servers, profile, hash)` and the placement options, the
/// constructor's arguments.
pub(super) fn build(
    py: Python<'_>,
    servers: Option<&Bound<'_, PyAny>>,
    profile: &str,
    hash: Option<&str>,
    options: Options,
) -> PyResult<(ketama_core::Ring, Labels)> {
    let p = profile_of(profile)?;
    let h = hash.map(|name| hash_of(Some(p), name)).transpose()?;
    let servers = match servers {
        Some(s) if !s.is_none() => servers_of(s)?,
        _ => Vec::new(),
    };
    let labels: Labels = servers.iter().map(|s| Label::new(py, &s.label)).collect();
    // Core names the server to blame by its place in the list.
    let blamed: Vec<String> = servers.iter().map(|s| s.label.clone()).collect();
    let ring = ketama_core::Ring::build(p, h, servers).map_err(|e| {
        let label = e.server.and_then(|i| blamed.get(i));
        let err = to_py(e.error, &label.map_or(String::new(), |l| quoted(l)));
        match label {
            Some(l) => blame(py, err, e.server, Some(l)),
            None => err,
        }
    })?;
    let ring = ring
        .with_options(options)
        .map_err(|e| to_py(e, &format!("profile {}", p.name)))?;
    Ok((ring, labels))
}

/// An option's bytes: a `str` (its UTF-8) or `bytes`.
fn option_bytes(name: &str, v: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = v.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    match v.cast::<PyString>() {
        Ok(s) => Ok(text(s, name)?.as_bytes().to_vec()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{name} must be a str or bytes, not {}",
            v.get_type().name().map_or("?".into(), |n| n.to_string())
        ))),
    }
}

/// The placement options from the keyword arguments `hash_tag`, `prefix_key`,
/// `hash_with_prefix` (each `None` or absent: not set), checked by core's rules.
pub(super) fn options_of(
    hash_tag: Option<&Bound<'_, PyAny>>,
    prefix_key: Option<&Bound<'_, PyAny>>,
    hash_with_prefix: Option<&Bound<'_, PyAny>>,
) -> PyResult<Options> {
    let mut o = Options::new();
    if let Some(t) = hash_tag.filter(|t| !t.is_none()) {
        let t = option_bytes("hash_tag", t)?;
        o = o
            .with_hash_tag(&t)
            .map_err(|e| to_py(e, &format!("hash_tag is {} bytes", t.len())))?;
    }
    if let Some(p) = prefix_key.filter(|p| !p.is_none()) {
        let p = option_bytes("prefix_key", p)?;
        o = o
            .with_prefix_key(&p)
            .map_err(|e| to_py(e, &format!("prefix_key is {} bytes", p.len())))?;
    }
    if let Some(h) = hash_with_prefix.filter(|h| !h.is_none()) {
        o = o.with_hash_with_prefix(h.is_truthy()?);
    }
    Ok(o)
}

/// The options as `(hash_tag, prefix_key, hash_with_prefix)` (bytes or None, bool), what
/// pickling stores.
pub(super) fn options_tuple(o: &Options) -> (Option<Vec<u8>>, Option<Vec<u8>>, bool) {
    let prefix = o.prefix_key();
    (
        o.hash_tag().map(|t| t.to_vec()),
        (!prefix.is_empty()).then(|| prefix.to_vec()),
        o.hash_with_prefix(),
    )
}

/// The constructor's arguments `(servers=None, profile="libketama", hash=None, *,
/// hash_tag=None, prefix_key=None, hash_with_prefix=False)` from a call's `*args, **kwargs`,
/// checked as a `def` with that signature would check them.
type Args<'py> = (Option<Bound<'py, PyAny>>, String, Option<String>, Options);

pub(super) fn constructor_args<'py>(
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
) -> PyResult<Args<'py>> {
    const NAMES: [&str; 6] = [
        "servers",
        "profile",
        "hash",
        "hash_tag",
        "prefix_key",
        "hash_with_prefix",
    ];
    if args.len() > 3 {
        return Err(PyTypeError::new_err(format!(
            "Ring() takes at most 3 positional arguments ({} given)",
            args.len()
        )));
    }
    let mut slots: [Option<Bound<'py, PyAny>>; 6] = Default::default();
    for (i, a) in args.iter().enumerate() {
        slots[i] = Some(a);
    }
    if let Some(kw) = kwargs {
        for (k, v) in kw.iter() {
            let k: String = k.extract()?;
            let Some(i) = NAMES.iter().position(|n| *n == k) else {
                return Err(PyTypeError::new_err(format!(
                    "Ring() got an unexpected keyword argument '{k}'"
                )));
            };
            if slots[i].is_some() {
                return Err(PyTypeError::new_err(format!(
                    "Ring() got multiple values for argument '{k}'"
                )));
            }
            slots[i] = Some(v);
        }
    }
    let [servers, profile, hash, hash_tag, prefix_key, hash_with_prefix] = slots;
    let options = options_of(
        hash_tag.as_ref(),
        prefix_key.as_ref(),
        hash_with_prefix.as_ref(),
    )?;
    let profile = match profile {
        Some(p) if !p.is_none() => str_arg(&p, "profile")?,
        _ => "libketama".to_string(),
    };
    let hash = match hash {
        Some(h) if !h.is_none() => Some(str_arg(&h, "hash").map_err(|e| {
            if e.is_instance_of::<PyTypeError>(h.py()) {
                PyTypeError::new_err(format!(
                    "hash must be a str or None, not {}",
                    h.get_type().name().map_or("?".into(), |n| n.to_string())
                ))
            } else {
                e
            }
        })?),
        _ => None,
    };
    Ok((servers, profile, hash, options))
}

/// Whether `cls` (a subclass of Ring) defines its own `__init__`: then the constructor's
/// arguments are that `__init__`'s, and `__new__` must not read them.
pub(super) fn overrides_init(cls: &Bound<'_, PyType>) -> PyResult<bool> {
    let base = cls.py().get_type::<Ring>();
    if cls.is(&base) {
        return Ok(false);
    }
    Ok(!cls.getattr("__init__")?.is(&base.getattr("__init__")?))
}

impl Ring {
    /// A ring whose continuum is exactly `points`, `(position, label)` pairs (positions
    /// ints in 0..=2**32-1), for a client whose points ketama does not generate. `hash`: a hash
    /// name, `None` for the profile's, or a callable taking the key as given and returning an
    /// int in 0..=2**32-1 (the key is hashed in Python, the search is ours). `profile` gives
    /// the search, tie and key rules. `servers`: the labels in server order (default: in
    /// order of first appearance in `points`); a label in `points` must be among them.
    /// The ring refuses changes (`add`, `remove`, `set_weight`: `FixedPointsError`).
    pub(super) fn from_points_in(
        py: Python<'_>,
        points: &Bound<'_, PyAny>,
        hash: Option<&Bound<'_, PyAny>>,
        profile: &str,
        servers: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let p = profile_of(profile)?;
        let (h, key_fn) = match hash {
            None => (None, None),
            Some(x) if x.is_none() => (None, None),
            Some(x) => match x.cast::<PyString>() {
                Ok(name) => (Some(hash_of(Some(p), &text(name, "hash")?)?), None),
                Err(_) if x.is_callable() => (None, Some(x.clone().unbind())),
                Err(_) => {
                    return Err(PyTypeError::new_err(
                        "hash must be a hash name, a callable or None",
                    ))
                }
            },
        };
        let mut order: Vec<String> = Vec::new();
        let mut index: std::collections::HashMap<String, usize> = Default::default();
        let fixed = match servers {
            Some(s) if !s.is_none() => {
                if s.is_instance_of::<PyString>() {
                    return Err(PyTypeError::new_err(
                        "servers must be an iterable of labels, not a single string",
                    ));
                }
                for (i, label) in s.try_iter()?.enumerate() {
                    let label = label?;
                    let label = text(
                        label
                            .cast::<PyString>()
                            .map_err(|_| PyTypeError::new_err("a server label must be a str"))?,
                        "a server label",
                    )?
                    .into_owned();
                    if index.insert(label.clone(), order.len()).is_some() {
                        let err = to_py(Error::DuplicateServer, &quoted(&label));
                        return Err(blame(py, err, Some(i), Some(&label)));
                    }
                    order.push(label);
                }
                true
            }
            _ => false,
        };
        let mut pairs: Vec<(u32, usize)> = Vec::new();
        for item in points.try_iter()? {
            let item = item?;
            let (pos, label): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item
                .extract()
                .map_err(|_| PyTypeError::new_err("a point is a (position, label) pair"))?;
            let pos: u32 = pos.extract().map_err(|_| {
                pyo3::exceptions::PyValueError::new_err(
                    "a point's position must be an int in 0..=4294967295",
                )
            })?;
            let label = text(
                label
                    .cast::<PyString>()
                    .map_err(|_| PyTypeError::new_err("a point's label must be a str"))?,
                "a point's label",
            )?;
            let owner = match index.get(label.as_ref()) {
                Some(&i) => i,
                None if fixed => {
                    let err = to_py(Error::MissingServer, &quoted(&label));
                    return Err(blame(py, err, None, Some(&label)));
                }
                None => {
                    index.insert(label.to_string(), order.len());
                    order.push(label.into_owned());
                    order.len() - 1
                }
            };
            pairs.push((pos, owner));
        }
        let mut list = Vec::with_capacity(order.len());
        for (i, label) in order.iter().enumerate() {
            let server = Server::parse(label, 1)
                .map_err(|e| blame(py, to_py(e, &quoted(label)), Some(i), Some(label)))?;
            list.push(server);
        }
        let labels: Labels = order.iter().map(|l| Label::new(py, l)).collect();
        let ring = ketama_core::Ring::from_points(p, h, list, &pairs).map_err(|e| {
            let label = e.server.and_then(|i| order.get(i));
            let err = to_py(e.error, &label.map_or(String::new(), |l| quoted(l)));
            match label {
                Some(l) => blame(py, err, e.server, Some(l)),
                None => err,
            }
        })?;
        let (shared, pin) = Ring::new_shared(ring, labels);
        Ok(Ring {
            shared,
            pin,
            key_fn,
            deferred: false.into(),
        })
    }
}
