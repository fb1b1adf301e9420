//! The `slide` binary: a thin main over the command line of the `slide_cli` library.

fn main() -> std::process::ExitCode {
    slide_cli::main()
}
