//! Where tables and pattern databases are kept between runs: the [`Store`] trait, and [`FileStore`], a directory.
//!
//! The solver never touches files itself: it encodes and checks table files ([`crate::engine::cache`]) and hands
//! the bytes to the store it was given ([`crate::Solver::with_store`]), so that the faces decide where data goes
//! (the CLI: `--cache-dir`, `$SLIDE_CACHE_DIR` or the platform's cache directory) and a test or an embedding can keep
//! it in memory or nowhere.

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// A place that keeps named files whole: a reader sees a file as it was written, or no file.
pub trait Store: Send + Sync + fmt::Debug {
    /// The file `name` and its length in bytes, or `Ok(None)` when there is none.
    #[allow(clippy::type_complexity)]
    fn open(&self, name: &str) -> std::io::Result<Option<(Box<dyn Read + '_>, u64)>>;

    /// Writes the file `name` whole with what `write` produces, replacing any file of that name only once it is
    /// complete (a failed or interrupted write leaves the old file, or none).
    fn write(
        &self,
        name: &str,
        write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
    ) -> std::io::Result<()>;

    /// Where the file `name` is, for messages (a path, say).
    fn locate(&self, name: &str) -> String;

    /// The file `name` opened for reading, where this store keeps files on a file system, so that a table can be
    /// mapped into memory rather than read ([`crate::Solver::map_files`]); `None` (the default) otherwise.
    fn file(&self, name: &str) -> Option<std::fs::File> {
        let _ = name;
        None
    }
}

/// A directory of table files, written atomically: to a temporary name in the same directory, flushed to disk,
/// then renamed over the final name, so that a reader sees either no file or a whole one and two processes building
/// the same table both succeed. Temporaries of writers that were killed are swept on the next write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStore {
    dir: PathBuf,
}

impl FileStore {
    /// A store in `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> FileStore {
        FileStore { dir: dir.into() }
    }

    /// The platform's cache directory for slide (on Linux `$XDG_CACHE_HOME/slide` or `~/.cache/slide`), if one can
    /// be found. (The command line also honours `$SLIDE_CACHE_DIR`; the library reads no environment variable.)
    pub fn platform() -> Option<FileStore> {
        directories::ProjectDirs::from("", "", "slide").map(|p| FileStore::new(p.cache_dir()))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of the file `name`.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Store for FileStore {
    fn open(&self, name: &str) -> std::io::Result<Option<(Box<dyn Read + '_>, u64)>> {
        match std::fs::File::open(self.path(name)) {
            Ok(f) => {
                let len = f.metadata()?.len();
                Ok(Some((
                    Box::new(std::io::BufReader::with_capacity(1 << 16, f)),
                    len,
                )))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn write(
        &self,
        name: &str,
        write: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let path = self.path(name);
        std::fs::create_dir_all(&self.dir)?;
        remove_stale_temporaries(&self.dir, name);
        let tmp = self.dir.join(format!(
            ".{name}.tmp-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ));
        let result = (|| {
            let f = std::fs::File::create(&tmp)?;
            let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
            write(&mut w)?;
            let f = w.into_inner().map_err(|e| e.into_error())?;
            f.sync_all()?;
            std::fs::rename(&tmp, &path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }

    fn locate(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }

    fn file(&self, name: &str) -> Option<std::fs::File> {
        std::fs::File::open(self.path(name)).ok()
    }
}

/// Removes temporary files of `name` left by writers that were killed (their process is gone), so that they do
/// not pile up. Only files named like this module's temporaries are touched; failures are ignored.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let alive = pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists();
        if cfg!(target_os = "linux") && !alive {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_files_and_swept_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path().join("sub"));
        assert!(store.open("a.tbl").unwrap().is_none());
        store
            .write("a.tbl", &mut |w| w.write_all(b"hello"))
            .unwrap();
        let (mut r, len) = store.open("a.tbl").unwrap().unwrap();
        let mut text = String::new();
        r.read_to_string(&mut text).unwrap();
        assert_eq!((text.as_str(), len), ("hello", 5));
        drop(r);
        // A failed write leaves the old file and no temporary.
        let failed = store.write("a.tbl", &mut |w| {
            w.write_all(b"partial")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(store.path("a.tbl")).unwrap(), b"hello");
        assert_eq!(std::fs::read_dir(store.dir()).unwrap().count(), 1);
        // A killed writer's temporary is swept by the next write.
        let stale = store.dir().join(".a.tbl.tmp-4000000000-1");
        std::fs::write(&stale, b"partial").unwrap();
        store
            .write("a.tbl", &mut |w| w.write_all(b"again"))
            .unwrap();
        assert!(!stale.exists() || !cfg!(target_os = "linux"));
        assert!(store.locate("a.tbl").ends_with("a.tbl"));
    }
}
