//! Progress bars on stderr for work that takes more than a second (reading large keys files,
//! `simulate`). Nothing is drawn when stderr is not a terminal, so pipes, files and tests see
//! no progress output at all; on a terminal the bar appears only once the work has run for
//! [`DELAY`], and is cleared when the work is done.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long work runs before its bar appears.
pub(crate) const DELAY: Duration = Duration::from_secs(1);

/// Increments between two clock reads (keeps `inc` to a counter update on hot loops).
const CHECK_EVERY: u64 = 1 << 12;

/// A progress bar that appears on a terminal's stderr after [`DELAY`].
#[derive(Debug)]
pub(crate) struct Progress {
    bar: ProgressBar,
    start: Instant,
    delay: Duration,
    /// Whether the bar may ever be drawn (stderr is a terminal).
    enabled: bool,
    shown: bool,
    pending: u64,
}

/// What the bar counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Items (keys).
    Items,
    /// Bytes (file reads).
    Bytes,
}

impl Progress {
    /// A bar for `len` units of work described by `msg`, drawn on stderr only when stderr is a
    /// terminal.
    pub(crate) fn new(len: u64, msg: impl Into<String>, unit: Unit) -> Progress {
        Progress::with(len, msg, unit, std::io::stderr().is_terminal(), DELAY)
    }

    /// A bar that is drawn (after `delay`) only if `enabled`.
    pub(crate) fn with(
        len: u64,
        msg: impl Into<String>,
        unit: Unit,
        enabled: bool,
        delay: Duration,
    ) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        let template = match unit {
            Unit::Items => "{msg} [{bar:30}] {human_pos}/{human_len} ({percent}%, {eta} left)",
            Unit::Bytes => "{msg} [{bar:30}] {bytes}/{total_bytes} ({percent}%, {eta} left)",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message(msg.into());
        Progress {
            bar,
            start: Instant::now(),
            delay,
            enabled,
            shown: false,
            pending: 0,
        }
    }

    /// Records `n` more units done.
    pub(crate) fn inc(&mut self, n: u64) {
        if !self.enabled {
            return;
        }
        self.pending += n;
        if self.pending < CHECK_EVERY && self.shown {
            return;
        }
        if !self.shown {
            if self.pending < CHECK_EVERY && self.start.elapsed() < self.delay {
                return;
            }
            if self.start.elapsed() >= self.delay {
                self.bar.set_draw_target(ProgressDrawTarget::stderr());
                self.shown = true;
            }
        }
        self.bar.inc(self.pending);
        self.pending = 0;
    }

    /// Changes the total (work found as it goes, e.g. keys as they are listed).
    pub(crate) fn set_len(&mut self, len: u64) {
        if self.enabled {
            self.bar.set_length(len);
        }
    }

    /// Whether the bar has been drawn.
    #[cfg(test)]
    fn is_shown(&self) -> bool {
        self.shown
    }

    /// Units recorded so far (including those not yet drawn).
    #[cfg(test)]
    fn position(&self) -> u64 {
        self.bar.position() + self.pending
    }

    /// Ends the work: the bar (if shown) is removed from the terminal.
    pub(crate) fn finish(self) {
        if self.shown {
            self.bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_shown_when_disabled() {
        let mut p = Progress::with(10, "x", Unit::Items, false, Duration::ZERO);
        for _ in 0..10 {
            p.inc(CHECK_EVERY);
        }
        assert!(!p.is_shown());
        p.finish();
    }

    #[test]
    fn shown_only_after_the_delay() {
        let mut p = Progress::with(1 << 40, "x", Unit::Items, true, Duration::from_secs(3600));
        p.inc(CHECK_EVERY * 4);
        assert!(!p.is_shown(), "quick work must not draw a bar");
        let mut q = Progress::with(1 << 40, "x", Unit::Bytes, true, Duration::ZERO);
        q.inc(1);
        assert!(q.is_shown());
        q.inc(CHECK_EVERY * 3 + 5);
        assert_eq!(q.position(), CHECK_EVERY * 3 + 6);
        q.finish();
    }
}
