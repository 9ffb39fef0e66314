//! The C boundary: one macro that catches panics, and the macros that turn raw pointer
//! arguments into Rust references (NULL becomes `KETAMA_STATUS_NULL_ARGUMENT`).
//!
//! Raw pointers reach this crate only as arguments of its exported functions, or as the
//! elements of array arguments, and every exported function states in its `# Safety`
//! section what its C caller guarantees about each (live handle, `len` readable bytes,
//! writable output, NUL-terminated string). The `try_*!` macros below are the only places
//! that turn such a pointer into a reference: each checks NULL and lengths first, then makes
//! the conversion under the one SAFETY argument it carries, that contract. Call sites write
//! `let key = try_bytes!(key, key_len)?;` and need no `unsafe` block of their own.

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

/// A NUL-terminated C string's bytes, without the NUL.
///
/// # Safety
/// `ptr` is NULL or a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn c_bytes<'a>(ptr: *const c_char) -> FfiResult<&'a [u8]> {
    if ptr.is_null() {
        return Err(ketama_status::NullArgument);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    Ok(unsafe { CStr::from_ptr(ptr) }.to_bytes())
}

/// A NUL-terminated C string as UTF-8 text.
///
/// # Safety
/// `ptr` is NULL or a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn c_text<'a>(ptr: *const c_char) -> FfiResult<&'a str> {
    // SAFETY: forwarded contract.
    let b = unsafe { c_bytes(ptr) }?;
    core::str::from_utf8(b).map_err(|_| ketama_status::InvalidUtf8)
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

/// `try_handle!(Type, ptr)`: the `&Type` behind a handle argument (`FfiResult`; NULL is
/// `KETAMA_STATUS_NULL_ARGUMENT`).
macro_rules! try_handle {
    ($ty:ty, $ptr:expr) => {{
        let ptr = $ptr;
        let borrow = <$ty as $crate::boundary::Opaque>::borrow;
        // SAFETY: `ptr` is a handle argument of the exported function this expands in, whose
        // `# Safety` section requires NULL or a live handle of this type (a `Box` made by
        // `Opaque::into_raw`, not yet freed); NULL is refused by `borrow`.
        unsafe { borrow(ptr) }
    }};
}
pub(crate) use try_handle;

/// `free_handle!(Type, ptr)`: drops the value behind a handle argument; NULL is a no-op.
macro_rules! free_handle {
    ($ty:ty, $ptr:expr) => {{
        let ptr = $ptr;
        let free = <$ty as $crate::boundary::Opaque>::free;
        // SAFETY: `ptr` is the handle argument of a `_free` function, whose `# Safety` section
        // requires NULL or a live handle of this type that no other thread uses.
        unsafe { free(ptr) }
    }};
}
pub(crate) use free_handle;

/// `try_out!(ptr)`: an output argument as `&mut T` (`FfiResult`; NULL refused).
macro_rules! try_out {
    ($ptr:expr) => {{
        let ptr = $ptr;
        // SAFETY: `ptr` is an output argument of the exported function this expands in, whose
        // `# Safety` section requires it to be NULL or valid for one write; NULL is refused.
        unsafe { $crate::boundary::out(ptr) }
    }};
}
pub(crate) use try_out;

/// `try_opt_out!(ptr)`: an optional output argument as `Option<&mut T>` (NULL: `None`).
macro_rules! try_opt_out {
    ($ptr:expr) => {{
        let ptr = $ptr;
        // SAFETY: `ptr` is an optional output argument of the exported function this expands
        // in, whose `# Safety` section requires it to be NULL or valid for one write.
        unsafe { ptr.as_mut() }
    }};
}
pub(crate) use try_opt_out;

/// `try_opt_ref!(ptr)`: an input argument as `Option<&T>` (NULL: `None`).
macro_rules! try_opt_ref {
    ($ptr:expr) => {{
        let ptr = $ptr;
        // SAFETY: `ptr` is an input argument of the exported function this expands in, whose
        // `# Safety` section requires it to be NULL or valid for reads of one `T`.
        unsafe { ptr.as_ref() }
    }};
}
pub(crate) use try_opt_ref;

/// `try_bytes!(ptr, len)`: `(ptr, len)` bytes (`FfiResult`; see [`bytes`] for the checks).
macro_rules! try_bytes {
    ($ptr:expr, $len:expr) => {{
        let (ptr, len) = ($ptr, $len);
        // SAFETY: `(ptr, len)` is a byte-string argument of the exported function this expands
        // in (or an element of one of its array arguments), whose `# Safety` section requires
        // `len` readable bytes at `ptr`; NULL and impossible lengths are refused by `bytes`.
        unsafe { $crate::boundary::bytes(ptr, len) }
    }};
}
pub(crate) use try_bytes;

/// `try_text!(ptr, len)`: `(ptr, len)` UTF-8 text (`FfiResult`; see [`text`]).
macro_rules! try_text {
    ($ptr:expr, $len:expr) => {{
        let (ptr, len) = ($ptr, $len);
        // SAFETY: as `try_bytes!`: a string argument (or array element) of `len` readable
        // bytes by the exported function's `# Safety` section; checked by `text`.
        unsafe { $crate::boundary::text(ptr, len) }
    }};
}
pub(crate) use try_text;

/// `try_c_bytes!(ptr)`: a NUL-terminated string argument's bytes, without the NUL
/// (`FfiResult`; NULL refused).
macro_rules! try_c_bytes {
    ($ptr:expr) => {{
        let ptr = $ptr;
        // SAFETY: `ptr` is a string argument of the exported function this expands in, whose
        // `# Safety` section requires NULL or a NUL-terminated string; NULL is refused.
        unsafe { $crate::boundary::c_bytes(ptr) }
    }};
}
pub(crate) use try_c_bytes;

/// `try_c_text!(ptr)`: a NUL-terminated string argument as UTF-8 text (`FfiResult`).
macro_rules! try_c_text {
    ($ptr:expr) => {{
        let ptr = $ptr;
        // SAFETY: as `try_c_bytes!`: NULL or NUL-terminated by the exported function's
        // `# Safety` section; checked by `c_text`.
        unsafe { $crate::boundary::c_text(ptr) }
    }};
}
pub(crate) use try_c_text;

/// `try_slice!(ptr, len)`: an input array argument of `len` elements (`FfiResult`; see
/// [`in_slice`]).
macro_rules! try_slice {
    ($ptr:expr, $len:expr) => {{
        let (ptr, len) = ($ptr, $len);
        // SAFETY: `(ptr, len)` is an array argument of the exported function this expands
        // in, whose `# Safety` section requires `len` readable elements at `ptr`; NULL and
        // impossible lengths are refused by `in_slice`.
        unsafe { $crate::boundary::in_slice(ptr, len) }
    }};
}
pub(crate) use try_slice;

/// `try_slice_mut!(ptr, len)`: an output array argument of `len` elements (`FfiResult`; see
/// [`out_slice`]).
macro_rules! try_slice_mut {
    ($ptr:expr, $len:expr) => {{
        let (ptr, len) = ($ptr, $len);
        // SAFETY: `(ptr, len)` is an output array argument of the exported function this
        // expands in, whose `# Safety` section requires room for `len` elements at `ptr`;
        // NULL and impossible lengths are refused by `out_slice`.
        unsafe { $crate::boundary::out_slice(ptr, len) }
    }};
}
pub(crate) use try_slice_mut;
