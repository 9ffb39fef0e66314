//! What a recorded copy is now, asked of its NEW server before anything is written: the
//! tool's own copy (still at the version it recorded, or, when that version is not sure or
//! a write's outcome was not known, holding what the tool wrote: the same digest), a
//! client's (left alone and forgotten), or gone.

use super::counts::inc;
use super::job::Job;
use super::pool::{by, Pool};
use super::shared::{Ctx, Note};
use crate::backend::{Backend, Item, Reply, Request, Version};
use crate::state::{digest, Copy, Ver};

/// What a job's records need on its NEW server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    /// Nothing: no record, or a sure copy whose source changed.
    Nothing,
    /// The copy's version (a sure copy whose source is unchanged).
    Version,
    /// The copy itself (an intent to settle, or a copy whose version is not sure).
    Item,
}

fn need(j: &Job) -> Need {
    if j.intent.is_some() || j.copy.is_some_and(|c| !c.dv.sure) {
        return Need::Item;
    }
    match j.copy {
        Some(c) if c.sv.sure && j.version.is_known() && c.sv.version == j.version => Need::Version,
        _ => Need::Nothing,
    }
}

/// What the copy on the NEW server is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// The tool's copy, now recorded as this (sure).
    Ours(Copy),
    /// A client's item: not the tool's to change.
    Theirs,
    /// No item.
    Absent,
}

/// Whether `cur` (the item on the NEW server) is the tool's copy by the job's records: what
/// its intent wrote, or its recorded copy (by version when sure, else by digest).
pub fn found(j: &Job, cur: Option<&Item>) -> Found {
    let Some(cur) = cur else {
        return Found::Absent;
    };
    let d = digest(&cur.data, cur.flags);
    if let Some(i) = j.intent.filter(|i| i.digest == d) {
        return Found::Ours(Copy {
            dst: i.dst,
            sv: i.sv,
            dv: Ver::sure(cur.version),
            digest: Some(d),
        });
    }
    match j.copy {
        Some(c)
            if (c.dv.sure && c.dv.version == cur.version)
                || (!c.dv.sure && c.digest == Some(d)) =>
        {
            Found::Ours(Copy {
                dv: Ver::sure(cur.version),
                ..c
            })
        }
        _ => Found::Theirs,
    }
}

/// Drops records that name another NEW server than the key's owner now (the NEW file
/// changed): a copy there is not where clients look.
fn own_server(j: &mut Job, notes: &mut Vec<Note>) {
    let had = j.copy.is_some() || j.intent.is_some();
    j.copy = j.copy.filter(|c| c.dst == j.dst);
    j.intent = j.intent.filter(|i| i.dst == j.dst);
    if had && j.copy.is_none() && j.intent.is_none() {
        notes.push(Note::Forget(j.src, j.key.clone()));
    }
}

/// The request of a job's check.
fn request((j, n): &(Job, Need)) -> Request<'_> {
    match n {
        Need::Item => Request::Read(&j.key),
        _ => Request::Version(&j.key),
    }
}

/// A job whose key its NEW server does not hold: records forgotten, copied afresh.
fn absent(mut j: Job, notes: &mut Vec<Note>, rest: &mut Vec<Job>) {
    notes.push(Note::Forget(j.src, j.key.clone()));
    j.copy = None;
    j.intent = None;
    rest.push(j);
}

/// Checks the records of each job on its NEW server (one pipelined round): settles
/// intents, confirms copies whose version is not sure, and finds copies unchanged since
/// recorded (source unchanged too: nothing to do). Returns the jobs whose source must be
/// read, each with the copy it may update (`None`: copied afresh); `notes` get what the
/// state file must learn.
pub fn check_new<B: Backend>(
    ctx: &Ctx<B>,
    new: &mut Pool<B>,
    batch: Vec<Job>,
    notes: &mut Vec<Note>,
) -> Vec<Job> {
    let c = ctx.counts;
    let mut rest = Vec::with_capacity(batch.len());
    let mut ask = Vec::new();
    for mut j in batch {
        own_server(&mut j, notes);
        match need(&j) {
            Need::Nothing => rest.push(j),
            n => ask.push((j, n)),
        }
    }
    if ask.is_empty() {
        return rest;
    }
    for (_, asked, replies) in new.round(by(ask, |(j, _)| j.dst), request) {
        for ((mut j, _), reply) in asked.into_iter().zip(replies) {
            match reply {
                Reply::Version(Some(v)) => {
                    let want = j.copy.map_or(Version::UNKNOWN, |c| c.dv.version);
                    if v == want {
                        inc(&c.unchanged, 1);
                    } else {
                        inc(&c.client_changed, 1);
                        notes.push(Note::Forget(j.src, j.key));
                    }
                }
                Reply::Version(None) => absent(j, notes, &mut rest),
                Reply::Item(cur) => match found(&j, cur.as_ref()) {
                    Found::Ours(copy) => {
                        if j.intent.is_some() {
                            inc(&c.settled, 1);
                        } else {
                            inc(&c.verified, 1);
                        }
                        notes.push(Note::Copied(j.src, j.key.clone(), copy));
                        j.copy = Some(copy);
                        j.intent = None;
                        if copy.sv.sure && j.version.is_known() && copy.sv.version == j.version {
                            inc(&c.unchanged, 1);
                        } else {
                            rest.push(j);
                        }
                    }
                    Found::Theirs => {
                        inc(
                            if j.copy.is_some() {
                                &c.client_changed
                            } else {
                                &c.kept
                            },
                            1,
                        );
                        notes.push(Note::Forget(j.src, j.key));
                    }
                    Found::Absent => absent(j, notes, &mut rest),
                },
                _ => inc(&c.failed, 1),
            }
        }
    }
    rest
}
