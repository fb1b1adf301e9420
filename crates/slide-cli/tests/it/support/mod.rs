//! What the command-line tests share: a runner of the built `slide` with a cache directory of its own, and the
//! board text the tests write.
#![allow(dead_code)] // each test file uses its part

use assert_cmd::Command;

/// Runs the built `slide` with its own temporary cache directory (`SLIDE_CACHE_DIR`), away from the user's.
pub struct Slide {
    /// The cache directory, removed when the runner is dropped.
    pub cache: tempfile::TempDir,
}

impl Slide {
    /// A runner with a fresh cache directory.
    pub fn new() -> Slide {
        Slide {
            cache: tempfile::tempdir().unwrap(),
        }
    }

    /// The command, with the cache directory set.
    pub fn cmd(&self) -> Command {
        let mut c = Command::cargo_bin("slide").unwrap();
        c.env("SLIDE_CACHE_DIR", self.cache.path());
        c.env_remove("XDG_CACHE_HOME");
        c
    }

    /// Runs with `args` and `stdin`; returns (status, stdout, stderr).
    pub fn run(&self, args: &[&str], stdin: &str) -> (i32, String, String) {
        let out = self.cmd().args(args).write_stdin(stdin).output().unwrap();
        (
            out.status.code().expect("exited"),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    /// Runs, expecting success; returns stdout.
    pub fn ok(&self, args: &[&str], stdin: &str) -> String {
        let (code, out, err) = self.run(args, stdin);
        assert_eq!(code, 0, "slide {args:?} failed: {err}");
        out
    }

    /// Runs, expecting exit status 1 and an error on standard error containing `want`.
    pub fn bad(&self, args: &[&str], stdin: &str, want: &str) {
        let (code, _, err) = self.run(args, stdin);
        assert_eq!(code, 1, "slide {args:?}: {err}");
        assert!(err.contains(want), "slide {args:?}: {err:?} lacks {want:?}");
    }
}

/// A board as rows separated by '/': `1 2 3/4 0 5`.
pub fn slash(cells: &[u8], cols: usize) -> String {
    cells
        .chunks(cols)
        .map(|r| r.iter().map(u8::to_string).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("/")
}
