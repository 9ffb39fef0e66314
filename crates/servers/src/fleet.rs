//! A parsed servers file: its servers, each with the line it came from.

use ketama_core::Server;

/// One server and the line it came from.
#[derive(Clone, Debug)]
pub struct Line {
    /// The parsed server.
    pub server: Server,
    /// 1-based line number in the file.
    pub line: usize,
}

/// A parsed servers file.
#[derive(Clone, Debug)]
pub struct Fleet {
    /// The file name as given (used in messages).
    pub path: String,
    /// The servers in file order.
    pub lines: Vec<Line>,
}

impl Fleet {
    /// A fleet made in memory (no file): `origin` names it in messages, server `i` (from 0)
    /// is its line `i + 1`.
    pub fn from_servers(origin: &str, servers: Vec<Server>) -> Fleet {
        Fleet {
            path: origin.to_string(),
            lines: servers
                .into_iter()
                .enumerate()
                .map(|(i, server)| Line {
                    server,
                    line: i + 1,
                })
                .collect(),
        }
    }

    /// The servers, in order.
    pub fn servers(&self) -> Vec<Server> {
        self.lines.iter().map(|l| l.server.clone()).collect()
    }
}
