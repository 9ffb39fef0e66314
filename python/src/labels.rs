//! Server labels as a ring snapshot carries them: the text (to match labels without the
//! interpreter) and one ready Python `str` per server.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyString;

/// One server's label: its text (to match labels without the interpreter) and the ready
/// Python `str` every lookup returns (one object per server, only its count changes).
pub(crate) struct Label {
    pub(crate) text: Box<str>,
    pub(crate) obj: Py<PyString>,
}

impl Label {
    /// The label `text`, with its Python `str` made now.
    pub(crate) fn new(py: Python<'_>, text: &str) -> Arc<Label> {
        Arc::new(Label {
            text: text.into(),
            obj: PyString::new(py, text).unbind(),
        })
    }
}

/// The labels of one snapshot, in server order.
pub(crate) type Labels = Vec<Arc<Label>>;
