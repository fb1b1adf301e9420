//! The console examples of README.md and docs/guide.md, run by trycmd: every `$ slide …` line of a ```console
//! block is run with the built binary and its output (standard output and standard error, in order) compared with
//! the lines under it (`...` stands for any lines, `[..]` for the rest of a line; `? N` is the exit status).

use std::path::PathBuf;

#[test]
fn readme_and_guide_examples() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    // One document after the other, each with a cache of its own (away from the user's): trycmd runs the cases of
    // one run in parallel, and two processes building the same database at once would warn that they wait.
    for document in ["README.md", "docs/guide.md"] {
        let cache = tempfile::tempdir().unwrap();
        trycmd::TestCases::new()
            .register_bin("slide", PathBuf::from(env!("CARGO_BIN_EXE_slide")))
            .env("SLIDE_CACHE_DIR", cache.path().display().to_string())
            .case(format!("{root}/{document}"))
            .run();
    }
}
