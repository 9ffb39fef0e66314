//! The C boundary: one macro that catches panics, and helpers that turn raw pointers into
//! Rust references (NULL becomes `KETAMA_STATUS_NULL_ARGUMENT`).

use core::ffi::{c_char, CStr};

use crate::status::ketama_status;

/// Wraps the body of every `extern "C"` function.
///
/// `ffi_boundary! { ...body returning Result<(), ketama_status>... }` evaluates to a
/// `ketama_status`: `Ok` on `Ok(())`, the error otherwise, and `KETAMA_STATUS_PANIC` when the
/// body panics (the panic never crosses into C).
///
/// `ffi_boundary!(fallback => { ...body returning T... })` is the form for functions that do
/// not return a status (the libketama-compatible API): a panic yields `fallback`.
macro_rules! ffi_boundary {
    ($fallback:expr => $body:block) => {{
        match ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| $body)) {
            Ok(value) => value,
            Err(_) => $fallback,
        }
    }};
    ($($body:tt)*) => {{
        let run = || -> ::core::result::Result<(), $crate::status::ketama_status> { $($body)* };
        match ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(run)) {
            Ok(Ok(())) => $crate::status::ketama_status::Ok,
            Ok(Err(status)) => status,
            Err(_) => $crate::status::ketama_status::Panic,
        }
    }};
}
pub(crate) use ffi_boundary;

/// Result alias used inside boundary bodies.
pub(crate) type FfiResult<T> = Result<T, ketama_status>;

/// Ownership of a Rust value behind an opaque C handle: `Box` in, raw pointer out, and back.
pub(crate) trait Opaque: Sized {
    /// The opaque C type (`struct { _private: [u8; 0] }`).
    type C;

    /// Gives the value to C.
    fn into_raw(self) -> *mut Self::C {
        Box::into_raw(Box::new(self)).cast()
    }

    /// Borrows the value behind a handle.
    ///
    /// # Safety
    /// `ptr` is NULL or came from [`Opaque::into_raw`] and was not freed.
    unsafe fn borrow<'a>(ptr: *const Self::C) -> FfiResult<&'a Self> {
        // SAFETY: by the caller's contract the pointer is NULL or a live Box<Self>.
        unsafe { ptr.cast::<Self>().as_ref() }.ok_or(ketama_status::NullArgument)
    }

    /// Takes the value back and drops it; NULL is a no-op.
    ///
    /// # Safety
    /// `ptr` is NULL or came from [`Opaque::into_raw`] and was not freed.
    unsafe fn free(ptr: *mut Self::C) {
        if !ptr.is_null() {
            // SAFETY: by the caller's contract this is a live Box<Self>, freed only here.
            drop(unsafe { Box::from_raw(ptr.cast::<Self>()) });
        }
    }
}

/// `(ptr, len)` as bytes; NULL is allowed when `len` is 0.
///
/// A length above `isize::MAX` (e.g. `SIZE_MAX`, or `-1` passed as a length) can describe no
/// object in memory: it is refused with `KETAMA_STATUS_KEY_REJECTED` before any byte is read
/// (a key can be that long for no client), never turned into a slice.
///
/// # Safety
/// When `0 < len <= isize::MAX`, `ptr` points to `len` readable bytes that outlive `'a`.
pub(crate) unsafe fn bytes<'a>(ptr: *const c_char, len: usize) -> FfiResult<&'a [u8]> {
    if len == 0 {
        return Ok(&[]);
    }
    if len > isize::MAX as usize {
        return Err(ketama_status::KeyRejected);
    }
    if ptr.is_null() {
        return Err(ketama_status::NullArgument);
    }
    // SAFETY: non-NULL and `len` readable bytes by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// `(ptr, len)` as UTF-8 text (a label or a name): a length above `isize::MAX` is refused
/// with `KETAMA_STATUS_BAD_LABEL` before any byte is read.
///
/// # Safety
/// As [`bytes`].
pub(crate) unsafe fn text<'a>(ptr: *const c_char, len: usize) -> FfiResult<&'a str> {
    if len > isize::MAX as usize {
        return Err(ketama_status::BadLabel);
    }
    // SAFETY: forwarded contract.
    let b = unsafe { bytes(ptr, len) }?;
    core::str::from_utf8(b).map_err(|_| ketama_status::InvalidUtf8)
}

/// A NUL-terminated C string as UTF-8 text.
///
/// # Safety
/// `ptr` is NULL or a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn c_text<'a>(ptr: *const c_char) -> FfiResult<&'a str> {
    if ptr.is_null() {
        return Err(ketama_status::NullArgument);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let s = unsafe { CStr::from_ptr(ptr) };
    s.to_str().map_err(|_| ketama_status::InvalidUtf8)
}

/// An output pointer as a mutable reference (written only once the call has succeeded).
///
/// # Safety
/// `ptr` is NULL or valid for writes of one `T` during `'a`.
pub(crate) unsafe fn out<'a, T>(ptr: *mut T) -> FfiResult<&'a mut T> {
    // SAFETY: by the caller's contract.
    unsafe { ptr.as_mut() }.ok_or(ketama_status::NullArgument)
}

/// An output array of `len` elements (NULL allowed when `len` is 0).
///
/// # Safety
/// When `len > 0`, `ptr` is valid for writes of `len` elements during `'a`.
pub(crate) unsafe fn out_slice<'a, T>(ptr: *mut T, len: usize) -> FfiResult<&'a mut [T]> {
    // More elements than any array can hold (e.g. a count of SIZE_MAX): refused, never
    // turned into a slice.
    if len > isize::MAX as usize / core::mem::size_of::<T>().max(1) {
        return Err(ketama_status::IndexOutOfRange);
    }
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(ketama_status::NullArgument);
    }
    // SAFETY: by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}

/// An input array of `len` elements (NULL allowed when `len` is 0).
///
/// # Safety
/// When `len > 0`, `ptr` points to `len` readable elements that outlive `'a`.
pub(crate) unsafe fn in_slice<'a, T>(ptr: *const T, len: usize) -> FfiResult<&'a [T]> {
    // More elements than any array can hold (e.g. a count of SIZE_MAX): refused, never
    // turned into a slice.
    if len > isize::MAX as usize / core::mem::size_of::<T>().max(1) {
        return Err(ketama_status::IndexOutOfRange);
    }
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(ketama_status::NullArgument);
    }
    // SAFETY: by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}
