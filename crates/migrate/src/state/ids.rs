//! Which server process gave a recorded version: the identities the file records (its
//! server lines) against those this run found, deciding which versions stay sure.

use std::collections::HashMap;

use super::line::{same_process, Fleet};

/// What this run knows of one server's process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    /// Not asked (an OLD server of another shard): its records are left as they are.
    NotAsked,
    /// Asked, but the server did not say (or did not answer).
    Unknown,
    /// This process (`<started> <process>`).
    Is(String),
}

impl Seen {
    fn text(&self) -> Option<&str> {
        match self {
            Seen::Is(s) => Some(s),
            _ => None,
        }
    }
}

/// The servers of both files with what this run knows of each, and what the file recorded.
#[derive(Clone, Debug, Default)]
pub struct Ids {
    old: Vec<(String, Seen)>,
    new: Vec<(String, Seen)>,
    recorded: HashMap<(Fleet, String), Option<String>>,
}

impl Ids {
    /// The servers (labels in file order) and what this run found of each.
    pub fn new(old: Vec<(String, Seen)>, new: Vec<(String, Seen)>) -> Ids {
        Ids {
            old,
            new,
            recorded: HashMap::new(),
        }
    }

    /// Sets what the file records (its server lines).
    pub fn set_recorded(&mut self, lines: &[(Fleet, String, Option<String>)]) {
        self.recorded = lines
            .iter()
            .map(|(f, l, i)| ((*f, l.clone()), i.clone()))
            .collect();
    }

    fn list(&self, fleet: Fleet) -> &[(String, Seen)] {
        match fleet {
            Fleet::Old => &self.old,
            Fleet::New => &self.new,
        }
    }

    fn seen(&self, fleet: Fleet, label: &str) -> Option<&Seen> {
        self.list(fleet)
            .iter()
            .find(|(l, _)| l == label)
            .map(|(_, s)| s)
    }

    fn recorded(&self, fleet: Fleet, label: &str) -> Option<&str> {
        self.recorded
            .get(&(fleet, label.to_string()))
            .and_then(|i| i.as_deref())
    }

    /// Whether `label` is a server of that file.
    pub fn has(&self, fleet: Fleet, label: &str) -> bool {
        self.seen(fleet, label).is_some()
    }

    /// Whether the versions recorded for `label` stay sure: it was not asked, or it is the
    /// process the file records.
    pub fn unchanged(&self, fleet: Fleet, label: &str) -> bool {
        match self.seen(fleet, label) {
            Some(Seen::NotAsked) => true,
            Some(s) => same_process(self.recorded(fleet, label), s.text()),
            None => false,
        }
    }

    /// Whether the file's server line for `label` must change (the run found another
    /// process, or the file has none for it).
    pub fn differs(&self, fleet: Fleet, label: &str) -> bool {
        match self.seen(fleet, label) {
            None | Some(Seen::NotAsked) => false,
            Some(s) => {
                let rec = self.recorded(fleet, label);
                !self.recorded.contains_key(&(fleet, label.to_string()))
                    || !(same_process(rec, s.text()) || rec.is_none() && s.text().is_none())
            }
        }
    }

    /// Whether some server line must change.
    pub fn any_differs(&self) -> bool {
        self.old.iter().any(|(l, _)| self.differs(Fleet::Old, l))
            || self.new.iter().any(|(l, _)| self.differs(Fleet::New, l))
    }

    /// Whether versions this run gets from `label` are sure (its process is known).
    pub fn sure_now(&self, fleet: Fleet, label: &str) -> bool {
        matches!(self.seen(fleet, label), Some(Seen::Is(_)))
    }

    /// The server lines of a file written now: each server of the files with the process
    /// this run found (the recorded one when not asked).
    pub fn header(&self) -> Vec<(Fleet, String, Option<String>)> {
        let mut v = Vec::new();
        for fleet in [Fleet::Old, Fleet::New] {
            for (label, s) in self.list(fleet) {
                let ident = match s {
                    Seen::NotAsked => self.recorded(fleet, label).map(str::to_string),
                    Seen::Unknown => None,
                    Seen::Is(i) => Some(i.clone()),
                };
                v.push((fleet, label.clone(), ident));
            }
        }
        v
    }

    /// The same servers, recording what this run found: records written under it are sure
    /// as far as the run knows the processes.
    pub fn as_recorded_now(&self) -> Ids {
        let mut ids = self.clone();
        let header = self.header();
        ids.set_recorded(&header);
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_stay_sure_only_under_the_same_process() {
        let mut ids = Ids::new(
            vec![
                ("a".into(), Seen::Is("100 pid 1".into())),
                ("b".into(), Seen::NotAsked),
            ],
            vec![
                ("n".into(), Seen::Is("200 pid 2".into())),
                ("u".into(), Seen::Unknown),
            ],
        );
        ids.set_recorded(&[
            (Fleet::Old, "a".into(), Some("100 pid 1".into())),
            (Fleet::Old, "b".into(), Some("5 pid 9".into())),
            (Fleet::New, "n".into(), Some("150 pid 2".into())),
            (Fleet::New, "u".into(), None),
        ]);
        assert!(ids.unchanged(Fleet::Old, "a"));
        assert!(ids.unchanged(Fleet::Old, "b"));
        assert!(!ids.unchanged(Fleet::New, "n"));
        assert!(!ids.unchanged(Fleet::New, "u"));
        assert!(!ids.differs(Fleet::Old, "a") && !ids.differs(Fleet::New, "u"));
        assert!(ids.differs(Fleet::New, "n") && ids.any_differs());
        assert!(!ids.has(Fleet::New, "gone"));
        let h = ids.header();
        assert!(h.contains(&(Fleet::Old, "b".into(), Some("5 pid 9".into()))));
        assert!(h.contains(&(Fleet::New, "n".into(), Some("200 pid 2".into()))));
        let now = ids.as_recorded_now();
        assert!(now.unchanged(Fleet::New, "n") && !now.unchanged(Fleet::New, "u"));
        assert!(!now.any_differs());
    }
}
