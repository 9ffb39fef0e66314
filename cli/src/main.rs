//! The `ketama` command (see `ketama --help`).

/// Counts live heap bytes for `simulate`'s memory per server.
#[global_allocator]
static ALLOC: ketama_cli::alloc_count::Counting = ketama_cli::alloc_count::Counting;

fn main() {
    std::process::exit(ketama_cli::main_with_args(std::env::args_os()));
}
