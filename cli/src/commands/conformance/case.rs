//! The cases of the conformance line protocol (`docs/conformance.md`): what a case asks,
//! its servers and keys, and how it is written to the program under test.

/// What a case asks for, as the protocol names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The server each key goes to.
    Locate,
    /// Each key's 32-bit hash.
    Hash,
    /// The first `n` entries of each key's failover sequence.
    Failover,
}

impl Kind {
    /// The protocol's name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Locate => "locate",
            Kind::Hash => "hash",
            Kind::Failover => "failover",
        }
    }

    /// The kind of a vector file (`kind` absent = locate), or `None` for other shapes.
    pub(super) fn of_file(kind: Option<&str>) -> Option<Kind> {
        match kind.unwrap_or("locate") {
            "locate" => Some(Kind::Locate),
            "hash" => Some(Kind::Hash),
            "sequence" => Some(Kind::Failover),
            _ => None,
        }
    }
}

/// One server line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CaseServer {
    /// `host:port` (no blanks).
    pub(crate) label: String,
    /// The weight.
    pub(crate) weight: u64,
    /// The explicit name's bytes, if any.
    pub(crate) name: Option<Vec<u8>>,
}

/// One case: a vector file as the protocol sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Case {
    /// The vector file's name.
    pub(crate) file: String,
    /// What is asked.
    pub(crate) kind: Kind,
    /// The profile, if any.
    pub(crate) profile: Option<String>,
    /// The hash name, if any (`None` = the profile's default).
    pub(crate) hash: Option<String>,
    /// Failover entries per key.
    pub(crate) n: usize,
    /// The file's placement options, in the protocol's order: `hash_tag`, `prefix_key`
    /// (bytes) and `hash_with_prefix` (`0` / `1`), each only when the file sets it.
    pub(crate) options: Vec<(&'static str, Vec<u8>)>,
    /// The servers, in the file's order.
    pub(crate) servers: Vec<CaseServer>,
    /// The keys' bytes.
    pub(crate) keys: Vec<Vec<u8>>,
}

/// The placement options a case may carry (`option <name> <value>` lines), in their order.
pub(crate) const OPTIONS: [&str; 3] = ["hash_tag", "prefix_key", "hash_with_prefix"];

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes of lowercase or uppercase hex, or `None` when it is not hex.
pub(crate) fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|d| u8::from_str_radix(d, 16).ok())
        })
        .collect()
}

impl Case {
    /// The case's lines, from `case` to `end`.
    pub(crate) fn text(&self) -> String {
        let mut s = format!("case {}\nkind {}\n", self.file, self.kind.name());
        s += &format!("profile {}\n", self.profile.as_deref().unwrap_or("-"));
        s += &format!("hash {}\n", self.hash.as_deref().unwrap_or("-"));
        if self.kind == Kind::Failover {
            s += &format!("n {}\n", self.n);
        }
        for (name, value) in &self.options {
            let value = match *name {
                "hash_with_prefix" => String::from_utf8_lossy(value).into_owned(),
                _ => hex(value),
            };
            s += &format!("option {name} {value}\n");
        }
        for sv in &self.servers {
            let name = sv.name.as_deref().map_or("-".to_string(), hex);
            s += &format!("server {} {} {name}\n", sv.label, sv.weight);
        }
        for k in &self.keys {
            s += &format!("key {}\n", hex(k));
        }
        s + "end\n"
    }
}
