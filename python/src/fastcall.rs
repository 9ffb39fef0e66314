//! Vectorcall entry points for the one-key methods (`Ring.get`, `get_node`, `get_many`,
//! `_NodeLookup.get`).
//!
//! The wheel is abi3 for CPython 3.9, so PyO3 gives every method the tuple-and-dict calling
//! convention: each `ring.get(key)` allocates an argument tuple (a GC-tracked object, so
//! it also brings the young-generation collections on), parses it, and frees it. That was
//! about a quarter of a `Ring.get`. `METH_FASTCALL | METH_KEYWORDS` is in the stable ABI from
//! 3.10 on, so on 3.10+ [`install`] replaces these methods on the class with a method
//! descriptor of that convention: a call with exactly one positional argument (every
//! lookup) goes straight to the Rust method; any other call shape (a keyword, a missing or
//! extra argument) is handed to PyO3's own method, which keeps every message and rule as
//! they were. On 3.9 the PyO3 methods stay. Signature and docstring are copied from the
//! PyO3 method (`inspect.signature`, stubtest and `help()` see the same).

use std::ffi::{c_char, c_int, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

/// `METH_FASTCALL` (stable ABI from 3.10; pyo3-ffi only names it when built for 3.10+).
const METH_FASTCALL: c_int = 0x0080;

/// The `METH_FASTCALL | METH_KEYWORDS` function type.
type FastFn = unsafe extern "C" fn(
    *mut ffi::PyObject,
    *const *mut ffi::PyObject,
    ffi::Py_ssize_t,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;

/// A method called with one key: `call(py, receiver, key)` returns a new reference.
pub(crate) trait OneKey {
    /// The method's name on the class.
    const NAME: &'static str;
    /// PyO3's own method (kept for the other call shapes), set by [`install`].
    fn original() -> &'static OnceLock<Py<PyAny>>;
    /// The method itself.
    fn call(py: Python<'_>, slf: &Bound<'_, PyAny>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>>;
}

/// The receiver of a method installed by [`install`] on `T`'s class, as a `T`.
pub(crate) fn receiver<'a, 'py, T: pyo3::PyClass>(slf: &'a Bound<'py, PyAny>) -> &'a Bound<'py, T> {
    // SAFETY: CPython's method descriptor calls its function only with an instance of the
    // class it was made for (or a subclass) as the receiver (it raises TypeError otherwise),
    // and `install::<M>` makes the descriptor for the class whose `M::call` reads `T`.
    unsafe { slf.cast_unchecked::<T>() }
}

/// Declares a [`OneKey`] method: `one_key!(/// doc, Type, "name", Class, |py, this, key| body)`
/// makes `Type`, whose call runs `body` (a `PyResult<Py<PyAny>>`) with `this` the receiver's
/// `&Class` and `key` the one argument; [`install`]`::<Type>` puts it on `Class`.
macro_rules! one_key {
    ($(#[$doc:meta])* $ty:ident, $name:literal, $class:ty, |$py:ident, $this:ident, $key:ident| $body:expr) => {
        $(#[$doc])*
        pub(crate) struct $ty;

        impl $crate::fastcall::OneKey for $ty {
            const NAME: &'static str = $name;
            fn original() -> &'static ::std::sync::OnceLock<::pyo3::Py<::pyo3::PyAny>> {
                static M: ::std::sync::OnceLock<::pyo3::Py<::pyo3::PyAny>> = ::std::sync::OnceLock::new();
                &M
            }
            fn call(
                $py: ::pyo3::Python<'_>,
                slf: &::pyo3::Bound<'_, ::pyo3::PyAny>,
                $key: &::pyo3::Bound<'_, ::pyo3::PyAny>,
            ) -> ::pyo3::PyResult<::pyo3::Py<::pyo3::PyAny>> {
                let $this = $crate::fastcall::receiver::<$class>(slf).get();
                $body
            }
        }
    };
}
pub(crate) use one_key;

/// Replaces `cls.<M::NAME>` with a fastcall method descriptor for `M` (CPython >= 3.10 only;
/// a no-op before). Called once per method at module initialisation.
pub(crate) fn install<M: OneKey>(cls: &Bound<'_, PyType>) -> PyResult<()> {
    let py = cls.py();
    if py.version_info() < (3, 10) || M::original().get().is_some() {
        return Ok(());
    }
    let original = cls.getattr(M::NAME)?;
    let sig: Option<String> = original
        .getattr("__text_signature__")
        .ok()
        .and_then(|s| s.extract().ok());
    let doc: String = original
        .getattr("__doc__")
        .ok()
        .and_then(|s| s.extract().ok())
        .unwrap_or_default();
    // The `name(sig)\n--\n\n` header is where CPython reads `__text_signature__` from.
    let full = match sig {
        Some(sig) => format!("{}{sig}\n--\n\n{doc}", M::NAME),
        None => doc,
    };
    let to_c = |s: String| {
        CString::new(s)
            .map_err(|_| PyTypeError::new_err("method name or docstring holds a NUL"))
            .map(|c| &*Box::leak(c.into_boxed_c_str()))
    };
    let name = to_c(M::NAME.to_string())?;
    let doc = to_c(full)?;
    // The method table entry must outlive the type: one leaked entry per method per process.
    let def: &'static mut ffi::PyMethodDef = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer {
            // SAFETY: a function pointer cast to another function pointer type of the same
            // size; CPython casts it back to the fastcall type because of `ml_flags`.
            PyCFunctionWithKeywords: unsafe {
                std::mem::transmute::<FastFn, ffi::PyCFunctionWithKeywords>(entry::<M>)
            },
        },
        ml_flags: METH_FASTCALL | ffi::METH_KEYWORDS,
        ml_doc: doc.as_ptr() as *const c_char,
    }));
    // SAFETY: `cls` is a live type object and `def` lives for the rest of the process;
    // PyDescr_NewMethod returns a new reference or NULL with an exception set.
    let descr = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyDescr_NewMethod(cls.as_ptr().cast::<ffi::PyTypeObject>(), def),
        )?
    };
    let _ = M::original().set(original.unbind());
    cls.setattr(M::NAME, descr)
}

/// What CPython calls: `args[..nargs]` positional, then one value per name in `kwnames`.
unsafe extern "C" fn entry<M: OneKey>(
    slf: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls a method with the thread attached to the interpreter.
    let py = unsafe { Python::assume_attached() };
    let r = catch_unwind(AssertUnwindSafe(|| -> PyResult<Py<PyAny>> {
        // SAFETY: the method descriptor passes its receiver (checked to be an instance of
        // the class) as a borrowed reference valid for the call.
        let slf = unsafe { Bound::from_borrowed_ptr(py, slf) };
        if nargs == 1 && kwnames.is_null() {
            // SAFETY: `args` holds `nargs` borrowed references valid for the call.
            let key = unsafe { Bound::from_borrowed_ptr(py, *args) };
            return M::call(py, &slf, &key);
        }
        // SAFETY: as above; `kwnames` is NULL or a tuple of the keyword names.
        unsafe { slow::<M>(py, &slf, args, nargs, kwnames) }
    }));
    let err = match r {
        Ok(Ok(v)) => return v.into_ptr(),
        Ok(Err(e)) => e,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic in a lookup".into());
            PanicException::new_err(msg)
        }
    };
    err.restore(py);
    std::ptr::null_mut()
}

/// Any other call shape: PyO3's method with the same arguments.
///
/// # Safety
/// `args` holds `nargs` positional values then one per name of `kwnames` (NULL or a tuple).
unsafe fn slow<M: OneKey>(
    py: Python<'_>,
    slf: &Bound<'_, PyAny>,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<Py<PyAny>> {
    let nargs = usize::try_from(nargs).unwrap_or(0);
    // SAFETY: caller's contract.
    let names = unsafe { Bound::from_borrowed_ptr_or_opt(py, kwnames) };
    let names = names.map(|n| n.cast_into::<PyTuple>()).transpose()?;
    // SAFETY: caller's contract: `nargs` + one per keyword name borrowed references.
    let arg = |i: usize| unsafe { Bound::from_borrowed_ptr(py, *args.add(i)) };
    let positional = PyTuple::new(py, (0..nargs).map(arg))?;
    let kwargs = PyDict::new(py);
    if let Some(names) = &names {
        for (j, name) in names.iter().enumerate() {
            kwargs.set_item(name.cast_into::<PyString>()?, arg(nargs + j))?;
        }
    }
    let original = M::original()
        .get()
        .ok_or_else(|| PyTypeError::new_err("method not installed"))?;
    // The unbound PyO3 method, called as `Class.method(self, *args, **kwargs)`.
    let bound = original
        .bind(py)
        .call_method1("__get__", (slf, slf.get_type()))?;
    Ok(bound.call(positional, Some(&kwargs))?.unbind())
}
