//! Who answers a connection: `INFO server`, `INFO cluster` and `TIME`, read in one round
//! at connect.

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use redis::Value;

use crate::error::{Error, ErrorKind};
use crate::limits::MIN_VERSION;
use crate::reply::{bytes, unexpected};

/// What a server says about itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerInfo {
    /// `Redis 7.0.15`, `Valkey 8.0.1`.
    pub product: String,
    /// The Redis version it reports (`redis_version`; Valkey reports the Redis version it
    /// is compatible with).
    pub version: (u32, u32),
    /// `run_id`: a new one at every start.
    pub run_id: String,
    /// `process_id`.
    pub pid: u64,
    /// When the process started, Unix seconds on its own clock (`TIME` - `uptime`).
    pub started: i64,
    /// Whether it is a Redis Cluster node (`cluster_enabled:1`).
    pub cluster: bool,
    /// The server's clock minus this machine's, milliseconds, rounded down: the server's
    /// `TIME` minus the local time once its reply was read, so never more than the true
    /// difference (an expiry converted with it is never later than meant).
    pub clock_ms: i64,
}

/// Unix time on this machine, milliseconds.
pub fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The `key:value` lines of an `INFO` section.
fn fields(text: &[u8]) -> HashMap<String, String> {
    String::from_utf8_lossy(text)
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

fn version(text: &str) -> Option<(u32, u32)> {
    let mut it = text.split('.');
    Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
}

impl ServerInfo {
    /// The server's identity from the replies to `INFO server`, `INFO cluster` and `TIME`
    /// (in that order, none an error reply), `after` the local clock (ms) once they were read.
    pub(crate) fn from_replies(
        name: &str,
        replies: Vec<Value>,
        after: i64,
    ) -> Result<ServerInfo, Error> {
        let name = name.to_string();
        let mut it = replies.into_iter();
        let server =
            fields(&bytes(&name, "INFO", it.next().unwrap_or(Value::Nil))?.unwrap_or_default());
        let cluster =
            fields(&bytes(&name, "INFO", it.next().unwrap_or(Value::Nil))?.unwrap_or_default());
        let time = it.next().unwrap_or(Value::Nil);
        let now_ms = match &time {
            Value::Array(parts) if parts.len() == 2 => {
                let n = |v: &Value| match v {
                    Value::BulkString(b) => std::str::from_utf8(b).ok()?.parse::<i64>().ok(),
                    Value::Int(i) => Some(*i),
                    _ => None,
                };
                match (n(&parts[0]), n(&parts[1])) {
                    (Some(s), Some(us)) => s * 1000 + us / 1000,
                    _ => return Err(unexpected(&name, "TIME", &time)),
                }
            }
            _ => return Err(unexpected(&name, "TIME", &time)),
        };
        let redis_version = server.get("redis_version").cloned().unwrap_or_default();
        let product = match server.get("valkey_version") {
            Some(v) => format!("Valkey {v}"),
            None => format!("Redis {redis_version}"),
        };
        let uptime: i64 = server
            .get("uptime_in_seconds")
            .and_then(|u| u.parse().ok())
            .unwrap_or(0);
        Ok(ServerInfo {
            product,
            version: version(&redis_version).unwrap_or((0, 0)),
            run_id: server.get("run_id").cloned().unwrap_or_default(),
            pid: server
                .get("process_id")
                .and_then(|p| p.parse().ok())
                .unwrap_or(0),
            started: now_ms / 1000 - uptime,
            cluster: cluster.get("cluster_enabled").map(String::as_str) == Some("1"),
            clock_ms: now_ms - after,
        })
    }

    /// Refuses a cluster node and a server too old.
    pub(crate) fn check(&self, name: &str) -> Result<(), Error> {
        if self.cluster {
            return Err(Error::new(
                name,
                ErrorKind::Unsupported,
                format!(
                    "{name} is a Redis Cluster node (cluster_enabled:1): Redis Cluster \
                     places keys on its nodes itself (hash slots), so there is no client \
                     placement to migrate; use the cluster's own resharding"
                ),
            ));
        }
        if self.version < MIN_VERSION {
            return Err(Error::new(
                name,
                ErrorKind::Unsupported,
                format!(
                    "{name} runs {}: ketama needs Redis {}.{} or later (MEMORY USAGE, \
                     RESTORE ... ABSTTL)",
                    self.product, MIN_VERSION.0, MIN_VERSION.1
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_fields_and_versions() {
        let f = fields(b"# Server\r\nredis_version:7.0.15\r\nrun_id:abc\r\n\r\n");
        assert_eq!(f["redis_version"], "7.0.15");
        assert_eq!(f["run_id"], "abc");
        assert_eq!(version("7.0.15"), Some((7, 0)));
        assert_eq!(version("4.0"), Some((4, 0)));
        assert_eq!(version("x"), None);
        assert!((4, 9) < MIN_VERSION && (5, 0) >= MIN_VERSION && (7, 2) > MIN_VERSION);
    }
}
