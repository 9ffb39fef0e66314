//! The `ketama` command (see `ketama --help` and DESIGN.md).

fn main() {
    std::process::exit(ketama_cli::main_with_args(std::env::args_os()));
}
