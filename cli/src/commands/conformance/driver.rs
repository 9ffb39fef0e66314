//! The program under test: started in its own process group, fed every case by a writer
//! thread, read by a reader thread whose lines are bounded, and stopped with its whole group
//! (a shell's children included) when it ends, breaks the protocol or passes a bound.
//!
//! Per vector file the program may print at most [`Limits::output`] bytes, in lines of at
//! most [`Limits::line`] bytes, within [`Limits::file`] in all and never stay silent for
//! [`Limits::idle`]; past any of these it is stopped and the files it did not answer are
//! reported as disagreeing, with the reason.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::Answer;
use crate::shared::Fail;

/// How long the program may take to exit once its input is closed and answered.
const EXIT_GRACE: Duration = Duration::from_secs(5);
/// Lines waiting between the reader thread and the judge.
const QUEUE: usize = 1024;

/// The bounds the program's answers must keep, per vector file.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    /// The longest silence while answers are due.
    pub(super) idle: Duration,
    /// The longest one file's answers may take in all.
    pub(super) file: Duration,
    /// The longest answer line, bytes.
    pub(super) line: usize,
    /// The most bytes of answers to one file.
    pub(super) output: u64,
}

/// What the reader thread hands over.
enum Msg {
    Line(String),
    /// A line longer than the limit (nothing more is read).
    TooLong,
    /// The program's output ended.
    End,
}

/// A running program under test.
pub(super) struct Driver {
    child: Child,
    rx: Receiver<Msg>,
    writer: Option<JoinHandle<()>>,
    /// Whether the program ended or was stopped.
    ended: bool,
}

impl Driver {
    /// Starts `command` and feeds it `texts` (one per case).
    pub(super) fn start(
        command: &[OsString],
        texts: Vec<String>,
        limits: Limits,
    ) -> Result<Driver, Fail> {
        let (prog, args) = command
            .split_first()
            .ok_or_else(|| Fail::new("no command given after --"))?;
        let mut cmd = Command::new(prog);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| Fail::new(format!("cannot start {}: {e}", prog.to_string_lossy())))?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fail::new("cannot talk to the program"));
        };
        let writer = std::thread::spawn(move || {
            for t in texts {
                // A program that stops reading ends the stream; its answers say the rest.
                if stdin.write_all(t.as_bytes()).is_err() {
                    return;
                }
            }
            let _ = stdin.flush();
        });
        let (tx, rx) = sync_channel(QUEUE);
        let max = limits.line as u64 + 2;
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                let msg = match (&mut r).take(max).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => Msg::End,
                    Ok(_) if buf.last() != Some(&b'\n') && buf.len() as u64 >= max => Msg::TooLong,
                    Ok(_) => {
                        if buf.last() == Some(&b'\n') {
                            buf.pop();
                        }
                        Msg::Line(String::from_utf8_lossy(&buf).into_owned())
                    }
                };
                let last = !matches!(msg, Msg::Line(_));
                if tx.send(msg).is_err() || last {
                    return;
                }
            }
        });
        Ok(Driver {
            child,
            rx,
            writer: Some(writer),
            ended: false,
        })
    }

    /// Stops the program and every process of its group.
    fn stop(&mut self) {
        self.ended = true;
        #[cfg(target_os = "linux")]
        {
            let pgid = self.child.id() as libc::pid_t;
            // SAFETY: kill(2) with a negative pid signals the process group the child leads
            // (process_group(0) made it); it reads no memory of ours.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
    }

    /// Reads the answer to the next case within `limits`.
    pub(super) fn answer(&mut self, limits: Limits) -> Answer {
        if self.ended {
            return Answer::Missing("the program ended before answering".into());
        }
        let until = Instant::now() + limits.file;
        let mut got = Vec::new();
        let mut error = None;
        let mut bytes = 0u64;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let (line, why) = match self.rx.recv_timeout(left.min(limits.idle)) {
                Ok(Msg::Line(l)) => (l, None),
                Ok(Msg::End) | Err(RecvTimeoutError::Disconnected) => {
                    self.ended = true;
                    return Answer::Missing("the program ended before answering".into());
                }
                Ok(Msg::TooLong) => (
                    String::new(),
                    Some(format!("an answer line longer than {} bytes", limits.line)),
                ),
                Err(RecvTimeoutError::Timeout) if left <= limits.idle => (
                    String::new(),
                    Some(format!(
                        "the program took more than {} s to answer this file",
                        limits.file.as_secs_f64()
                    )),
                ),
                Err(RecvTimeoutError::Timeout) => (
                    String::new(),
                    Some(format!(
                        "the program gave no answer for {} s",
                        limits.idle.as_secs()
                    )),
                ),
            };
            bytes += line.len() as u64 + 1;
            let why = why.or_else(|| {
                (bytes > limits.output)
                    .then(|| format!("more than {} bytes of answers to this file", limits.output))
            });
            if let Some(why) = why {
                self.stop();
                return Answer::Missing(format!("{why}; stopped"));
            }
            let line = line.strip_suffix('\r').unwrap_or(&line).to_string();
            if line == "end" {
                return match error {
                    Some(e) if got.is_empty() => Answer::Error(e),
                    Some(_) => Answer::Missing("an error line among answers".into()),
                    None => Answer::Lines(got),
                };
            }
            match line.strip_prefix("error ") {
                Some(e) if got.is_empty() && error.is_none() => error = Some(e.to_string()),
                _ if error.is_some() => {
                    return Answer::Missing("answer lines after an error line".into())
                }
                _ => got.push(line),
            }
        }
    }

    /// Waits for the program to exit (stopping it after [`EXIT_GRACE`]); a note when it did
    /// not exit cleanly (none when it was stopped or had ended early: the files say why).
    pub(super) fn finish(mut self) -> Option<String> {
        let note = if self.ended {
            self.stop();
            let _ = self.child.wait();
            None
        } else {
            self.wait_exit()
        };
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
        note
    }

    fn wait_exit(&mut self) -> Option<String> {
        let until = Instant::now() + EXIT_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) if s.success() => return None,
                Ok(Some(s)) => return Some(format!("the program exited with {s}")),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(20)),
                _ => {
                    self.stop();
                    let _ = self.child.wait();
                    return Some(format!(
                        "the program did not exit within {} s of its input closing; stopped",
                        EXIT_GRACE.as_secs()
                    ));
                }
            }
        }
    }
}
