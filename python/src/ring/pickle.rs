//! Pickling and `copy`: what `__reduce__` gives, and restoring an instance without calling
//! a subclass's own `__new__` or `__init__`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyTuple, PyType};

use super::args::{build, options_of, options_tuple};
use super::Ring;

impl Ring {
    /// The body of `Ring.__reduce__` (pickling and `copy`): `ketama._restore_ring(class, servers, profile, hash)` (servers as `(label,
    /// weight, name)`), then the instance `__dict__` of a subclass as the state. Unpickling
    /// calls neither the subclass `__new__` nor its `__init__`, as for plain Python objects.
    pub(super) fn reduce<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>, Bound<'py, PyAny>)> {
        let py = slf.py();
        if slf.get().shared.load().ring.is_explicit() {
            return Self::reduce_points(slf);
        }
        let (servers, profile, hash, options) = {
            let snap = slf.get().shared.load();
            let servers: Vec<(String, u32, Option<String>)> = snap
                .ring
                .servers()
                .map(|s| (s.label.clone(), s.weight, s.name.clone()))
                .collect();
            let options = options_tuple(snap.ring.options());
            (
                servers,
                snap.ring.profile().name,
                snap.ring.hash().name(),
                options,
            )
        };
        let args = PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                servers.into_pyobject(py)?.into_any(),
                profile.into_pyobject(py)?.into_any(),
                hash.into_pyobject(py)?.into_any(),
                options.into_pyobject(py)?.into_any(),
            ],
        )?;
        let state = match slf.getattr("__dict__") {
            Ok(d) if d.len()? > 0 => d,
            _ => py.None().into_bound(py),
        };
        let restore = py.import("ketama")?.getattr("_restore_ring")?;
        Ok((restore, args, state))
    }

    /// Unpickling: an instance of `cls` (a Ring or a subclass) holding this ring, made
    /// without calling `cls`'s own `__new__` or `__init__`.
    pub(super) fn restore<'py>(
        cls: &Bound<'py, PyType>,
        servers: &Bound<'py, PyAny>,
        profile: &str,
        hash: Option<&str>,
        options: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = cls.py();
        let base = py.get_type::<Ring>();
        if !cls.is_subclass(&base)? {
            return Err(PyTypeError::new_err("_restore: not a Ring class"));
        }
        // `(hash_tag, prefix_key, hash_with_prefix)`; absent in pickles made without options
        let options = match options.filter(|o| !o.is_none()) {
            Some(o) => {
                let (t, p, h): (Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>) =
                    o.extract()?;
                options_of(Some(&t), Some(&p), Some(&h))?
            }
            None => ketama_core::Options::new(),
        };
        let next = build(py, Some(servers), profile, hash, options)?;
        let obj = base.getattr("__new__")?.call1((cls,))?;
        let ring = obj.cast::<Ring>()?.get();
        ring.replace(py, next);
        ring.deferred
            .store(false, std::sync::atomic::Ordering::Release);
        Ok(obj)
    }

    /// `__reduce__` of a ring from points: `Ring.from_points(points, hash, profile, servers)`.
    fn reduce_points<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>, Bound<'py, PyAny>)> {
        let py = slf.py();
        let me = slf.get();
        let snap = me.shared.load();
        let ring = &snap.ring;
        // Signed rings store positions sign-flipped: give back what the caller gave.
        let flip = ring
            .profile()
            .placement
            .bound()
            .map_or(0, ketama_core::profile::Bound::flip);
        let labels: Vec<String> = ring.servers().map(|s| s.label.clone()).collect();
        let points: Vec<(u32, String)> = ring
            .points()
            .map(|(p, i)| (p ^ flip, labels[i].clone()))
            .collect();
        let hash = match &me.key_fn {
            Some(f) => f.clone_ref(py).into_bound(py),
            None => ring.hash().name().into_pyobject(py)?.into_any(),
        };
        let ctor = slf.get_type().getattr("from_points")?;
        let args = PyTuple::new(
            py,
            [
                points.into_pyobject(py)?.into_any(),
                hash,
                ring.profile().name.into_pyobject(py)?.into_any(),
                labels.into_pyobject(py)?.into_any(),
            ],
        )?;
        Ok((ctor, args, py.None().into_bound(py)))
    }
}
