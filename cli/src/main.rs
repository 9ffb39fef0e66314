//! The `ketama` command (see `ketama --help`).

fn main() {
    std::process::exit(ketama_cli::main_with_args(std::env::args_os()));
}
