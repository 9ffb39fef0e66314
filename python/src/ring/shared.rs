//! Publishing snapshots: building the next ring detached from the interpreter, swapping it
//! in, and pinning it for the single-key lookups.

use std::sync::Arc;

use ketama_core::{Error, Scratch, SharedRing};
use pyo3::prelude::*;

use super::Ring;
use crate::convert::quoted;
use crate::errors::{blame, blames_server, to_py};
use crate::labels::{Label, Labels};
use crate::pin::Pinned;

impl Ring {
    /// Publishes `next` in place of the current ring (construction and unpickling).
    pub(super) fn replace(&self, py: Python<'_>, next: (ketama_core::Ring, Labels)) {
        let r: Result<(), std::convert::Infallible> = self.shared.update(|_, _| Ok(next));
        let Ok(()) = r;
        self.publish(py);
    }

    /// The two published copies of a new ring (`shared` and `pin`).
    pub(super) fn new_shared(
        ring: ketama_core::Ring,
        labels: Labels,
    ) -> (SharedRing<Labels>, Pinned<Labels>) {
        let shared = SharedRing::new(ring, labels);
        let pin = Pinned::new(shared.load_full());
        (shared, pin)
    }

    /// After a change of `shared`: pins its snapshot for the single-key lookups.
    pub(super) fn publish(&self, py: Python<'_>) {
        self.pin.set(py, self.shared.load_full());
    }

    /// `f` on the current snapshot: the pinned one on GIL builds, else a load. `f` must
    /// not run Python code (see [`Pinned::with`]).
    #[inline]
    pub(super) fn with_snapshot<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&ketama_core::Snapshot<Labels>) -> R,
    ) -> R {
        if crate::pin::gil_exclusive() {
            self.pin.with(py, f)
        } else {
            f(&self.shared.load())
        }
    }

    /// The current snapshot, kept whole (a `_NodeLookup` holds it).
    pub(crate) fn snapshot(&self) -> Arc<ketama_core::Snapshot<Labels>> {
        self.shared.load_full()
    }

    /// Applies a change detached from the interpreter; `fresh` is the label a change adds.
    pub(super) fn change(
        &self,
        py: Python<'_>,
        label: &str,
        fresh: Option<Arc<Label>>,
        f: impl FnOnce(&ketama_core::Ring, &mut Scratch) -> Result<ketama_core::Ring, Error> + Send,
    ) -> PyResult<()> {
        // Labels are carried over from the current snapshot by core; a server it did not
        // have is the one added now (`fresh`), else its label is made here.
        let r = py.detach(|| {
            self.shared.update_servers(f, |s| match &fresh {
                Some(l) if *l.text == *s.label => Arc::clone(l),
                _ => Python::attach(|py| Label::new(py, &s.label)),
            })
        });
        self.publish(py);
        r.map_err(|e| {
            let err = to_py(e, &quoted(label));
            if blames_server(e) {
                blame(py, err, None, Some(label))
            } else {
                err
            }
        })
    }
}
