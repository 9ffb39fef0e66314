//! `ketama simulate` options.

use clap::Args;

/// The hash functions of the 10 -> 12 nodes experiment, in its table's column order.
pub(crate) const DEFAULT_HASHES: &[&str] = &[
    "CRC32_HASH",
    "KETAMA_HASH",
    "FNV1_32_HASH",
    "NATIVE_HASH",
    "MYSQL_HASH",
];

/// `ketama simulate` options.
#[derive(Debug, Args)]
pub(crate) struct SimulateArgs {
    /// Text to word-count: its distinct words are the keys (default: the built-in corpus).
    #[arg(long, conflicts_with = "keys", value_parser = crate::args::path_arg())]
    pub(crate) text: Option<String>,
    /// Keys file, one key per line (distinct non-empty lines are used).
    #[arg(long, value_parser = crate::args::path_arg())]
    pub(crate) keys: Option<String>,
    /// Client profile of the hash experiment (see `ketama profiles`).
    #[arg(long, short = 'p', default_value = "xmemcached")]
    pub(crate) profile: String,
    /// Compare these placement algorithms instead of the hash experiment, on the same keys
    /// and fleet changes (add, remove, one server failing, a weighted fleet): a
    /// comma-separated list of profiles, bucket functions (jump, guava, jumpback, fliphash,
    /// maglev-go, mpchash-go), anchor, memento, jumpback-anchor. E.g.
    /// jump,guava,jumpback,fliphash,maglev,rendezvous,anchor,memento,libketama.
    #[arg(
        long,
        value_name = "A,B,...",
        value_delimiter = ',',
        conflicts_with = "profile"
    )]
    pub(crate) algorithms: Vec<String>,
    /// Use the generated keys `key:0` .. `key:<N-1>` (when comparing algorithms, the default
    /// is 100000 of them).
    #[arg(long, value_name = "N", conflicts_with_all = ["text", "keys"])]
    pub(crate) key_count: Option<usize>,
    /// Draw the figures into this SVG file: the hit rate per hash beside the ideal, and the
    /// keys per node before and after the change; with --algorithms, the load per server and
    /// the keys moved per change of each algorithm.
    #[arg(long, value_name = "FILE.svg", value_parser = crate::args::path_arg())]
    pub(crate) plot: Option<String>,
    /// Hashes to compare: a comma-separated list, or `all` for every hash
    /// [default: CRC32_HASH,KETAMA_HASH,FNV1_32_HASH,NATIVE_HASH,MYSQL_HASH].
    #[arg(long = "hash", short = 'H')]
    pub(crate) hash: Option<String>,
    /// Placement options of --profile's client.
    #[command(flatten)]
    pub(crate) options: crate::args::OptionArgs,
    /// Nodes before the change: 192.168.0.100:12000 and up.
    #[arg(long, default_value_t = 10, conflicts_with = "servers")]
    pub(crate) nodes: usize,
    /// Nodes to add (default 2, or 0 when --remove is given; comparing algorithms: default 2).
    #[arg(long)]
    pub(crate) add: Option<usize>,
    /// Nodes to remove (the last ones of the original fleet; comparing algorithms, 0 means as
    /// many as added).
    #[arg(long, default_value_t = 0)]
    pub(crate) remove: usize,
    /// Servers file for the original fleet instead of --nodes; added nodes take the next
    /// ports after the highest one, on the last server's host.
    #[arg(long, short = 's', value_parser = crate::args::path_arg())]
    pub(crate) servers: Option<String>,
    /// Also run the experiment on real memcached processes started on 127.0.0.1 (one per
    /// node, free ports; the node labels are still what is hashed) and print the live hit
    /// rates and item counts beside the simulated ones.
    #[arg(long)]
    pub(crate) live: bool,
    /// --live: between storing and reading, copy the moving keys with `ketama migrate run`
    /// and read again ("hit rate after migrating", expected 100%).
    #[arg(long, requires = "live")]
    pub(crate) migrate: bool,
    /// --live: start the memcached processes with TLS (`-Z`) on a CA and a certificate for
    /// 127.0.0.1 made for this run (in a private temporary directory, removed afterwards),
    /// and speak TLS to them, verifying that certificate; with --migrate, the copy runs over
    /// TLS too. Needs a memcached built with TLS support (Debian's is).
    #[arg(long, requires = "live")]
    pub(crate) tls: bool,
    /// --live: the kind of server processes: memcached, or redis (redis-server processes;
    /// --migrate then copies with `migrate run --backend redis`).
    #[arg(long, value_enum, default_value_t, requires = "live")]
    pub(crate) backend: crate::backend_args::BackendKind,
    /// The redis-server binary for --live --backend redis [default: redis-server on the
    /// PATH].
    #[arg(long, requires = "live", value_name = "PATH", value_parser = crate::args::path_arg())]
    pub(crate) redis_server: Option<String>,
    /// The memcached binary for --live [default: memcached on the PATH].
    #[arg(long, requires = "live", value_name = "PATH", value_parser = crate::args::path_arg())]
    pub(crate) memcached: Option<String>,
    /// --live: the longest any one step may wait on a server, in seconds (a step is the
    /// connect, a `stats`, or one batch of up to 1000 keys); a server that takes longer fails
    /// the run, naming the server and the command.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = crate::args::seconds, requires = "live")]
    pub(crate) timeout: std::time::Duration,
}
