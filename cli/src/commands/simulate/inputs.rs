//! What both `simulate` jobs start from: the keys (a text's words, a keys file or generated
//! keys), the fleet before the change, and the nodes added to it.

use ketama_core::Server;

use super::algos::KeySet;
use super::args::SimulateArgs;
use crate::keys;
use crate::servers::{self, Fleet};
use crate::shared::Fail;

/// The fleet before the change: `--servers`, or `--nodes` generated labels.
pub(crate) fn fleet(a: &SimulateArgs) -> Result<Fleet, Fail> {
    Ok(match &a.servers {
        Some(path) => servers::load(path)?,
        None => {
            if a.nodes == 0 || a.nodes > 50_000 {
                return Err(Fail::new(format!(
                    "--nodes {}: expected 1 to 50000",
                    a.nodes
                )));
            }
            let servers = (0..a.nodes)
                .map(|i| Server::parse(&format!("192.168.0.100:{}", 12000 + i), 1))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| Fail::new(format!("generated node: {e}")))?;
            Fleet::from_servers("--nodes", servers)
        }
    })
}

/// The keys and where they came from: `--key-count`, `--keys`, `--text` or the built-in
/// corpus.
pub(crate) fn load_keys(a: &SimulateArgs) -> Result<(String, Vec<Vec<u8>>), Fail> {
    if let Some(n) = a.key_count {
        let keys = KeySet::generated(n);
        return Ok((
            format!("generated key:0 .. key:{}", n.saturating_sub(1)),
            keys.iter().map(<[u8]>::to_vec).collect(),
        ));
    }
    if let Some(path) = &a.keys {
        let mut seen = std::collections::HashSet::new();
        let keys: Vec<Vec<u8>> = keys::file_keys(path)?
            .into_iter()
            .filter(|k| !k.is_empty() && seen.insert(k.clone()))
            .collect();
        return Ok((format!("distinct lines of {path}"), keys));
    }
    let (source, words) = match &a.text {
        Some(path) => {
            let f = crate::files::open(std::path::Path::new(path), "text")?;
            if f.metadata().map_or(0, |m| m.len()) > crate::files::TEXT {
                return Err(Fail::new(format!(
                    "{path}: cannot read text: it is larger than {} bytes",
                    crate::files::TEXT
                )));
            }
            let words = keys::WordCounter::default()
                .read(std::io::Read::take(f, crate::files::TEXT))
                .map_err(|e| Fail::new(format!("{path}: cannot read text: {e}")))?;
            (format!("distinct words of {path}"), words)
        }
        None => (
            format!("distinct words of the {}", keys::DEFAULT_CORPUS_NAME),
            keys::word_count(keys::DEFAULT_CORPUS),
        ),
    };
    Ok((
        source,
        words.into_iter().map(|(w, _)| w.into_bytes()).collect(),
    ))
}

/// `k` new nodes after the fleet: the last server's host, ports above the highest one.
pub(crate) fn new_nodes(old: &[Server], k: usize) -> Result<Vec<Server>, Fail> {
    let Some(last) = old.last() else {
        return Ok(Vec::new());
    };
    let top = old.iter().map(|s| u32::from(s.port)).max().unwrap_or(11211);
    if k > 65535 - top as usize {
        return Err(Fail::new(format!(
            "--add {k}: not enough ports above {top} for the new nodes"
        )));
    }
    let host = if last.host.contains(':') {
        format!("[{}]", last.host)
    } else {
        last.host.clone()
    };
    let mut out = Vec::new();
    for j in 1..=k as u32 {
        let label = format!("{host}:{}", top + j);
        if old.iter().any(|s| s.label == label) {
            return Err(Fail::new(format!(
                "new node {label} is already in the fleet"
            )));
        }
        out.push(
            Server::parse(&label, 1).map_err(|e| Fail::new(format!("new node {label}: {e}")))?,
        );
    }
    Ok(out)
}
