//! `--backend` and the Redis login options, shared by the commands that talk to a fleet
//! (`#[command(flatten)] servers: BackendArgs`): which kind of server, and for Redis the
//! database, the ACL user and the password. The password never comes from the command line
//! (where `ps` and `/proc/<pid>/cmdline` show it to every user of the machine): it is read
//! from `--password-file` or the environment variable [`PASSWORD_ENV`].

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::shared::Fail;

/// The environment variable holding the Redis password when no `--password-file` is given.
pub(crate) const PASSWORD_ENV: &str = "KETAMA_PASSWORD";

/// The kind of servers a fleet is made of.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub(crate) enum BackendKind {
    /// memcached (the meta protocol for copies, 1.6 or later).
    #[default]
    Memcached,
    /// Redis 5.0 or later, or Valkey (not Redis Cluster, which places keys itself).
    Redis,
}

/// Which servers, and how to log in to Redis.
#[derive(Debug, Args, Clone, Default)]
pub(crate) struct BackendArgs {
    /// The kind of every server of the fleet(s): memcached, or redis (Redis or Valkey).
    #[arg(long, value_enum, default_value_t, help_heading = "Servers")]
    pub(crate) backend: BackendKind,
    /// --backend redis: the logical database (SELECT) [default: 0].
    #[arg(long, value_name = "N", help_heading = "Servers")]
    pub(crate) db: Option<u32>,
    /// --backend redis: the ACL user (AUTH user password; without it, AUTH password logs in
    /// as the default user).
    #[arg(long, value_name = "NAME", help_heading = "Servers")]
    pub(crate) user: Option<String>,
    /// --backend redis: a file whose first line is the password (else the environment
    /// variable KETAMA_PASSWORD; never on the command line).
    #[arg(long, value_name = "FILE", help_heading = "Servers")]
    pub(crate) password_file: Option<PathBuf>,
}

impl BackendArgs {
    /// Whether the servers are Redis.
    pub(crate) fn is_redis(&self) -> bool {
        self.backend == BackendKind::Redis
    }

    /// The Redis options over the byte stream's `net`: database, user, password. Fails on
    /// a Redis option given for memcached, an unreadable password file, or a user without
    /// a password.
    pub(crate) fn redis(
        &self,
        net: ketama_memcache::Options,
    ) -> Result<ketama_redis::Options, Fail> {
        let mut o = ketama_redis::Options::new(net);
        o.db = self.db.unwrap_or(0);
        o.user = self.user.clone();
        o.password = self.password()?;
        if o.user.is_some() && o.password.is_none() {
            return Err(Fail::new(format!(
                "--user {} needs a password: --password-file FILE or the environment \
                 variable {PASSWORD_ENV}",
                o.user.as_deref().unwrap_or_default()
            )));
        }
        Ok(o)
    }

    /// Refuses Redis options for memcached servers.
    pub(crate) fn check(&self) -> Result<(), Fail> {
        if self.is_redis() {
            return Ok(());
        }
        for (given, name) in [
            (self.db.is_some(), "--db"),
            (self.user.is_some(), "--user"),
            (self.password_file.is_some(), "--password-file"),
        ] {
            if given {
                return Err(Fail::new(format!("{name} needs --backend redis")));
            }
        }
        Ok(())
    }

    /// The password: the first line of `--password-file`, else `KETAMA_PASSWORD`.
    fn password(&self) -> Result<Option<ketama_redis::Password>, Fail> {
        if let Some(path) = &self.password_file {
            let data = crate::files::read(path, "password file", crate::files::PASSWORD_FILE)?;
            let text = String::from_utf8(data).map_err(|_| {
                Fail::new(format!(
                    "--password-file {}: it is not UTF-8 text",
                    path.display()
                ))
            })?;
            let line = text.lines().next().unwrap_or_default();
            if line.is_empty() {
                return Err(Fail::new(format!(
                    "--password-file {}: its first line is empty",
                    path.display()
                )));
            }
            return Ok(Some(ketama_redis::Password::new(line)));
        }
        Ok(std::env::var(PASSWORD_ENV)
            .ok()
            .filter(|p| !p.is_empty())
            .map(ketama_redis::Password::new))
    }
}
