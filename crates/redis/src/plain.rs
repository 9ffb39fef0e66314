//! Plain commands, pipelined: what `simulate --live` stores, reads back and deletes, and
//! how many keys a database holds.

use redis::Value;

use crate::conn::Conn;
use crate::error::Error;
use crate::limits::MAX_PAYLOAD;
use crate::reply::{bytes, int, ok, unexpected};

impl Conn {
    /// `SET` of each (key, value), in one round.
    pub fn set_many(&mut self, items: &[(&[u8], &[u8])]) -> Result<(), Error> {
        for (k, v) in items {
            self.queue("SET", redis::cmd("SET").arg(*k).arg(*v));
        }
        self.flush()?;
        let name = self.name().to_string();
        for _ in items {
            ok(&name, "SET", &self.read(MAX_PAYLOAD)?)?;
        }
        Ok(())
    }

    /// `GET` of each key, in one round: its value, `None` when absent.
    pub fn get_many(&mut self, keys: &[&[u8]]) -> Result<Vec<Option<Vec<u8>>>, Error> {
        for k in keys {
            self.queue("GET", redis::cmd("GET").arg(*k));
        }
        self.flush()?;
        let name = self.name().to_string();
        keys.iter()
            .map(|_| bytes(&name, "GET", self.read(MAX_PAYLOAD)?))
            .collect()
    }

    /// `DEL` of each key, in one round; how many were there.
    pub fn delete_many(&mut self, keys: &[&[u8]]) -> Result<u64, Error> {
        for k in keys {
            self.queue("DEL", redis::cmd("DEL").arg(*k));
        }
        self.flush()?;
        let name = self.name().to_string();
        let mut n = 0;
        for _ in keys {
            n += int(&name, "DEL", &self.read(MAX_PAYLOAD)?)?.max(0) as u64;
        }
        Ok(n)
    }

    /// `DBSIZE`: the keys of the selected database.
    pub fn dbsize(&mut self) -> Result<u64, Error> {
        let v = self.call("DBSIZE", &redis::cmd("DBSIZE"))?;
        match v {
            Value::Int(n) if n >= 0 => Ok(n as u64),
            v => Err(unexpected(self.name(), "DBSIZE", &v)),
        }
    }
}
