//! `ketama conformance-driver` (hidden): the conformance protocol answered by our own core,
//! the reference a port's driver is compared with (`docs/conformance.md`).

use std::io::{BufRead, Write};

use ketama_core::{Error, Hash, Options, Profile, Ring, Server};

use super::conformance::{unhex, Case, CaseServer, Kind, OPTIONS};

/// A protocol fault in the input: the line and what is wrong.
#[derive(Debug, PartialEq, Eq)]
pub struct Fault(pub String);

/// Reads cases from `input` and writes their answers to `out`, flushing after each case.
pub fn serve(input: impl BufRead, out: &mut impl Write) -> Result<(), Fault> {
    let mut case: Option<Case> = None;
    for (no, line) in input.lines().enumerate() {
        let line = line.map_err(|e| Fault(format!("cannot read input: {e}")))?;
        let fault = |what: &str| Fault(format!("line {}: {what}: {line:?}", no + 1));
        let (word, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        if word == "case" {
            case = Some(Case {
                file: rest.to_string(),
                kind: Kind::Locate,
                profile: None,
                hash: None,
                n: 1,
                options: Vec::new(),
                servers: Vec::new(),
                keys: Vec::new(),
            });
            continue;
        }
        let c = case.as_mut().ok_or_else(|| fault("outside a case"))?;
        let opt = |v: &str| (v != "-").then(|| v.to_string());
        match word {
            "kind" => {
                c.kind = match rest {
                    "locate" => Kind::Locate,
                    "hash" => Kind::Hash,
                    "failover" => Kind::Failover,
                    _ => return Err(fault("unknown kind")),
                }
            }
            "profile" => c.profile = opt(rest),
            "hash" => c.hash = opt(rest),
            "n" => c.n = rest.parse().map_err(|_| fault("bad n"))?,
            "option" => {
                let (name, value) = rest
                    .split_once(' ')
                    .ok_or_else(|| fault("an option line has 2 fields"))?;
                let name = OPTIONS
                    .into_iter()
                    .find(|&o| o == name)
                    .ok_or_else(|| fault("unknown option"))?;
                let value = match (name, value) {
                    ("hash_with_prefix", "0" | "1") => value.as_bytes().to_vec(),
                    ("hash_with_prefix", _) => return Err(fault("hash_with_prefix is 0 or 1")),
                    _ => unhex(value).ok_or_else(|| fault("bad option hex"))?,
                };
                c.options.push((name, value));
            }
            "server" => {
                let f: Vec<&str> = rest.split(' ').collect();
                let [label, weight, name] = f[..] else {
                    return Err(fault("a server line has 3 fields"));
                };
                c.servers.push(CaseServer {
                    label: label.to_string(),
                    weight: weight.parse().map_err(|_| fault("bad weight"))?,
                    name: match name {
                        "-" => None,
                        h => Some(unhex(h).ok_or_else(|| fault("bad name hex"))?),
                    },
                });
            }
            "key" => c
                .keys
                .push(unhex(rest).ok_or_else(|| fault("bad key hex"))?),
            "end" => {
                let done = case.take().ok_or_else(|| fault("end outside a case"))?;
                let text = answer(&done);
                out.write_all(text.as_bytes())
                    .and_then(|_| out.flush())
                    .map_err(|e| Fault(format!("cannot write: {e}")))?;
            }
            _ => return Err(fault("unknown line")),
        }
    }
    Ok(())
}

/// `error <Name> <message>` for a ring that cannot be built.
fn error_line(e: Error) -> String {
    format!("error {} {}\nend\n", e.name(), e.as_str())
}

/// A case's answer lines, `end` included.
pub fn answer(c: &Case) -> String {
    let profile = match c.profile.as_deref().map(Profile::by_name).transpose() {
        Ok(p) => p,
        Err(e) => return error_line(e),
    };
    let hash = match (c.hash.as_deref(), profile) {
        (Some(h), Some(p)) => p.hash_from_name(h).map(Some),
        (Some(h), None) => Hash::from_name(h).map(Some),
        (None, _) => Ok(None),
    };
    let hash = match hash {
        Ok(h) => h,
        Err(e) => return error_line(e),
    };
    let mut s = String::new();
    let Some(profile) = profile else {
        // A hash case without a profile: the bare function.
        let Some(h) = hash.filter(|_| c.kind == Kind::Hash) else {
            return error_line(Error::UnknownProfile);
        };
        for k in &c.keys {
            s += &format!("{}\n", h.hash(k));
        }
        return s + "end\n";
    };
    let servers: Result<Vec<Server>, Error> = c
        .servers
        .iter()
        .map(|sv| {
            let weight = u32::try_from(sv.weight).map_err(|_| Error::BadWeight)?;
            let name = sv
                .name
                .as_deref()
                .map(|n| std::str::from_utf8(n).map_err(|_| Error::InvalidUtf8))
                .transpose()?;
            Server::parse(&sv.label, weight).map(|x| x.with_name(name))
        })
        .collect();
    let ring = match servers.and_then(|list| {
        let ring = if c.kind == Kind::Hash {
            Ring::new(profile, hash)
        } else {
            Ring::with_servers(profile, hash, list)?
        };
        ring.with_options(options(c)?)
    }) {
        Ok(r) => r,
        Err(e) => return error_line(e),
    };
    for k in &c.keys {
        let line = match c.kind {
            Kind::Hash => ring.key_hash(k).map(|h| h.to_string()),
            Kind::Locate => ring.locate(k).map(|sv| sv.label.clone()),
            Kind::Failover => ring.failover(k, c.n).map(|list| {
                list.iter()
                    .filter_map(|&i| ring.server(i))
                    .map(|sv| sv.label.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            }),
        };
        s += line.as_deref().unwrap_or("null");
        s.push('\n');
    }
    s + "end\n"
}

/// The case's placement options (the client's value rules apply: [`Error::BadOption`]).
fn options(c: &Case) -> Result<Options, Error> {
    let mut o = Options::new();
    for (name, value) in &c.options {
        o = match *name {
            "hash_tag" => o.with_hash_tag(value)?,
            "prefix_key" => o.with_prefix_key(value)?,
            _ => o.with_hash_with_prefix(value == b"1"),
        };
    }
    Ok(o)
}

/// Runs the driver on stdin and stdout; returns the exit status (2 on a protocol fault).
pub fn main() -> i32 {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match serve(stdin, &mut stdout) {
        Ok(()) => 0,
        Err(Fault(msg)) => {
            eprintln!("ketama conformance-driver: {msg}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> Result<String, Fault> {
        let mut out = Vec::new();
        serve(input.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn answers_each_case() {
        let input = "case a.json\nkind locate\nprofile libketama\nhash -\n\
            server 10.0.0.1:11211 1 -\nserver 10.0.0.2:11211 1 -\nkey 6170706c65\nkey 00ff\nend\n\
            case b.json\nkind hash\nprofile -\nhash md5\nkey 6170706c65\nend\n";
        let out = run(input).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5, "{out}");
        assert_eq!(lines[2], "end");
        assert_eq!(lines[3..], ["3195025439", "end"][..]);
        assert!(lines[0].starts_with("10.0.0."));
    }

    #[test]
    fn an_unbuildable_ring_is_one_error_line() {
        let out =
            run("case x\nkind locate\nprofile libketama\nhash -\nserver a:1 0 -\nkey 61\nend\n")
                .unwrap();
        assert_eq!(
            out,
            "error BadWeight weight not accepted by this profile\nend\n"
        );
        let out = run("case x\nkind locate\nprofile nope\nhash -\nkey 61\nend\n").unwrap();
        assert!(out.starts_with("error UnknownProfile "), "{out}");
    }

    #[test]
    fn option_lines_set_the_ring_options() {
        let case = |opts: &str| {
            format!(
                "case o\nkind hash\nprofile {opts}\nkey 7b757365727d3a63617274\nkey 75736572\nend\n"
            )
        };
        // twemproxy hash_tag {} : only `user` of `{user}:cart` is hashed
        let out = run(&case("twemproxy\nhash -\noption hash_tag 7b7d")).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        assert_eq!(lines[0], lines[1]);
        let plain = run(&case("twemproxy\nhash -")).unwrap();
        assert_ne!(plain.lines().next(), Some(lines[0]));
        // a refused value or an option the client lacks: one error line
        let out = run(&case("twemproxy\nhash -\noption hash_tag 7b")).unwrap();
        assert!(out.starts_with("error BadOption "), "{out}");
        let out = run(&case(
            "libketama\nhash -\noption prefix_key 703a\noption hash_with_prefix 1",
        ))
        .unwrap();
        assert!(out.starts_with("error BadOption "), "{out}");
        assert!(run("case x\noption hash_with_prefix yes\nend\n").is_err());
        assert!(run("case x\noption bogus 00\nend\n").is_err());
    }

    #[test]
    fn protocol_faults_are_reported() {
        assert!(run("key 61\n").is_err());
        assert!(run("case x\nkey 6\nend\n").is_err());
        assert!(run("case x\nserver a:1 1\nend\n").is_err());
        assert!(run("case x\nbogus\n").is_err());
    }
}
