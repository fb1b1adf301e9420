//! The console examples of README.md and docs/guide.md, run by trycmd: every `$ slide …` line of a ```console
//! block is run with the built binary and its output (standard output and standard error, in order) compared with
//! the lines under it (`...` stands for any lines, `[..]` for the rest of a line; `? N` is the exit status).

use std::path::PathBuf;

#[test]
fn readme_and_guide_examples() {
    // Tables and pattern databases the examples build go to a cache of their own, away from the user's.
    let cache = tempfile::tempdir().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    trycmd::TestCases::new()
        .register_bin("slide", PathBuf::from(env!("CARGO_BIN_EXE_slide")))
        .env("SLIDE_CACHE_DIR", cache.path().display().to_string())
        .case(format!("{root}/README.md"))
        .case(format!("{root}/docs/guide.md"))
        .run();
}
