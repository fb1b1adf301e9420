//! What the command-line tests share: a runner of the built `slide` with a cache directory of its own, the board
//! text the tests write, a replayer of tiles, decoders of pictures, and (`serve`) a running `slide serve` with a
//! tiny HTTP client.
#![allow(dead_code)] // each test module uses its part

pub mod serve;

use std::path::Path;

use assert_cmd::Command;

/// The built `slide`, with its cache directory `cache` (`SLIDE_CACHE_DIR`, passed to the child: the tests share
/// one process and change none of its environment), away from the user's.
pub fn command(cache: &Path) -> Command {
    let mut c = Command::cargo_bin("slide").unwrap();
    c.env("SLIDE_CACHE_DIR", cache);
    c.env_remove("XDG_CACHE_HOME");
    c
}

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
        command(self.cache.path())
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

/// Plays a tile into the blank on row-major cells (0 the blank); the tile must be next to it.
pub fn play<T: Copy + PartialEq + From<u8>>(cells: &mut [T], cols: usize, tile: T) {
    let b = cells.iter().position(|&t| t == T::from(0)).unwrap();
    let p = cells.iter().position(|&t| t == tile).unwrap();
    assert_eq!(
        (b / cols).abs_diff(p / cols) + (b % cols).abs_diff(p % cols),
        1
    );
    cells.swap(b, p);
}

/// A PNG decoded: (width, height, RGBA pixels).
pub fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// A GIF decoded: (width, height, the composited frames as RGBA).
pub fn decode_gif(bytes: &[u8]) -> (u32, u32, Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut d = options.read_info(bytes).unwrap();
    let (w, h) = (usize::from(d.width()), usize::from(d.height()));
    let mut canvas = vec![0u8; 4 * w * h];
    let mut frames = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        let fw = usize::from(f.width);
        for y in 0..usize::from(f.height) {
            for x in 0..fw {
                let s = 4 * (y * fw + x);
                let t = 4 * ((usize::from(f.top) + y) * w + usize::from(f.left) + x);
                canvas[t..t + 4].copy_from_slice(&f.buffer[s..s + 4]);
            }
        }
        frames.push(canvas.clone());
    }
    (w as u32, h as u32, frames)
}
