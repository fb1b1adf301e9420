//! Where tables and pattern databases are kept between runs: the [`Store`] trait, and [`FileStore`], a directory.
//!
//! The solver never touches files itself: it encodes and checks table files ([`crate::engine::cache`]) and hands
//! the bytes to the store it was given ([`crate::SolverBuilder::store`]), so that the faces decide where data goes
//! (the CLI: `--cache-dir`, `$SLIDE_CACHE_DIR` or the platform's cache directory) and a test or an embedding can keep
//! it in memory or nowhere.

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

pub use crate::exact::packed::SharedBytes;

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

    /// The file `name` mapped read-only into memory, so that a table is used in place rather than read
    /// ([`crate::SolverBuilder::map_files`]) and every process that maps it shares one copy; `Ok(None)` when there is
    /// no such file or this store cannot map (the default: the solver then reads it with [`Store::open`]). A store
    /// may read a small file in instead ([`FileStore`] does below [`READ_BELOW`]): the bytes are then the process's
    /// own.
    fn map(&self, name: &str) -> std::io::Result<Option<Mapped>> {
        let _ = name;
        Ok(None)
    }

    /// True when [`Store::set_verified`] recorded that the file `name`, as identified by `stamp` (from
    /// [`Mapped::stamp`]), passed its checksum: the solver then skips the checksum, the pass over every byte that
    /// would read the whole file in at once. The default records nothing.
    fn verified(&self, name: &str, stamp: &str) -> bool {
        let _ = (name, stamp);
        false
    }

    /// Records that the file `name`, as identified by `stamp`, passed its checksum (a hint: failures are ignored,
    /// and the file is then verified again next time).
    fn set_verified(&self, name: &str, stamp: &str) {
        let _ = (name, stamp);
    }

    /// Waits until this process alone may build the file `name`, across every process that uses the same store:
    /// the solver takes this before it builds a missing file, looks for the file again once it holds it (another
    /// process may have written it meanwhile), and lets go once the file is written, so that a machine builds each
    /// file once however many processes ask. `keep_waiting` is asked every few milliseconds while another process
    /// holds the file: when it answers false, `Ok(None)` is returned without the lock. `Ok(None)` too where the
    /// store cannot lock (the default, and a directory the process cannot write): the caller then builds without.
    fn lock_build(
        &self,
        name: &str,
        keep_waiting: &dyn Fn() -> bool,
    ) -> std::io::Result<Option<BuildLock>> {
        let _ = (name, keep_waiting);
        Ok(None)
    }
}

/// The right to build one file of a [`Store`], held until dropped ([`Store::lock_build`]). For a [`FileStore`], an
/// advisory lock (`flock`) on a file `.NAME.lock` beside it, removed when the lock is let go; the kernel releases
/// the lock when the process ends, however it ends (a lock file left then is taken by the next build).
#[derive(Debug)]
pub struct BuildLock {
    held: Option<(std::fs::File, PathBuf)>,
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        // Removed while still held, then released: a process waiting on this file finds it gone once it gets the
        // lock and takes a new one (`lock_build` checks), so no lock file outlives its build.
        if let Some((file, path)) = self.held.take() {
            let _ = std::fs::remove_file(&path);
            drop(file);
        }
    }
}

/// True when `path` is still the file `file` has open (same device and inode).
fn same_file(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// A file mapped read-only into memory by a [`Store`] (or, when small, read into memory: [`Store::map`]).
pub struct Mapped {
    /// The file's bytes (shared with every process that maps the same file, when mapped).
    pub bytes: SharedBytes,
    /// What identifies this version of the file to its store (for [`Store::verified`]); a file written or touched
    /// since has another stamp.
    pub stamp: String,
}

impl fmt::Debug for Mapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} bytes mapped, {}",
            (*self.bytes).as_ref().len(),
            self.stamp
        )
    }
}

/// A directory of table files, written atomically: to a temporary name in the same directory, flushed to disk,
/// then renamed over the final name, so that a reader sees either no file or a whole one and two processes building
/// the same table both succeed. Temporaries of writers that were killed are swept on the next write.
///
/// Files of at least [`READ_BELOW`] bytes (16 MiB) are mapped with `mmap` (memmap2, a private read-only mapping);
/// smaller ones are read into memory of the process's own, which costs little for them (at most a few tens of
/// milliseconds), so that a file changed in place under a running process cannot bring it down (below). That a file
/// passed its checksum is recorded
/// beside it in `.NAME.verified`, which holds the file's stamp: its length, modification and status-change times
/// (nanoseconds), inode and device, all read from the descriptor that was mapped. Writing the file, touching it or
/// replacing it changes the stamp (the status-change time cannot be set back), so the record then no longer
/// matches and the file is verified again; rewriting a file through the store removes its record first. File
/// times advance in coarse steps (a few milliseconds), so a file changed within [`RECENT`] of now is never recorded
/// (as git does for its index): a second change within the same step could otherwise leave the stamp as it was.
///
/// The store itself never truncates or rewrites a file in place (files, checksum records and lock files alike), so
/// a process mapping a table keeps the version it mapped. Edits from outside are another matter: a file replaced
/// (renamed over, deleted and written anew) is read again next time and checked then; a file changed in place
/// fails its checksum on the next load and is rebuilt, but a large file (mapped) truncated in place while a running
/// process has it mapped makes that process die (SIGBUS) when it touches the pages that are gone, as for any mapped
/// file; a small one (read in) leaves the process its own copy. A
/// name that holds something else than a regular file (a directory, a FIFO) is refused without blocking, with an
/// error naming it; the solver then builds the table and saves it in its place where it can (not over a
/// directory).
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
        match open_regular(&self.path(name)) {
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
        // The old file's record of a passed checksum goes first, so no record outlives the file it was made for.
        let _ = std::fs::remove_file(self.record(name));
        if let Ok(m) = std::fs::symlink_metadata(&path) {
            if m.is_dir() {
                return Err(not_regular(&m));
            }
        }
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

    fn map(&self, name: &str) -> std::io::Result<Option<Mapped>> {
        let file = match open_regular(&self.path(name)) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let meta = file.metadata()?;
        let stamp = stamp(&meta);
        if meta.len() < READ_BELOW {
            return Ok(Some(Mapped {
                bytes: std::sync::Arc::new(ReadIn::read(file, meta.len())?),
                stamp,
            }));
        }
        if !self.verified(name, &stamp) {
            // The solver is about to read every page of this file to check it: let that read bring the file in
            // anew rather than find the pages a writer left, so that the huge-page advice below can take effect.
            drop_cached_pages(&file);
        }
        // SAFETY: the mapping is private and read-only. The store never changes a file in place (it writes a new
        // one and renames it over the old, which leaves this mapping of the old file intact); a file changed in
        // place by someone else is outside what the store promises, as it is for every reader.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        // Huge pages for the mapping where the kernel can give them (Linux with transparent huge pages for files,
        // such as ext4 since 6.x): the page cache then holds the file in 2 MiB folios mapped whole, and the random
        // lookups of a large database miss the TLB far less (Korf's 100 with 7-8: about 0.8 times the search time;
        // docs/lab has the measurement). A hint only: where it is refused, nothing changes.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Some(Mapped {
            bytes: std::sync::Arc::new(map),
            stamp,
        }))
    }

    fn lock_build(
        &self,
        name: &str,
        keep_waiting: &dyn Fn() -> bool,
    ) -> std::io::Result<Option<BuildLock>> {
        if std::fs::create_dir_all(&self.dir).is_err() {
            return Ok(None);
        }
        let path = self.dir.join(format!(".{name}.lock"));
        loop {
            let file = match std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
            {
                Ok(f) => f,
                // A directory this process cannot write: it cannot save what it builds either, nothing to share.
                Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => return Ok(None),
                Err(e) if e.raw_os_error() == Some(libc::EROFS) => return Ok(None),
                Err(e) => return Err(e),
            };
            loop {
                if try_lock(&file)? {
                    break;
                }
                if !keep_waiting() {
                    return Ok(None);
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            // The holder before us removes the lock file when it lets go: a lock on a file no longer at `path`
            // excludes nobody, so take the one that is there now.
            if same_file(&file, &path) {
                return Ok(Some(BuildLock {
                    held: Some((file, path)),
                }));
            }
        }
    }

    fn verified(&self, name: &str, stamp: &str) -> bool {
        !stamp.starts_with("recent ")
            && std::fs::read_to_string(self.record(name)).is_ok_and(|s| s.trim_end() == stamp)
    }

    fn set_verified(&self, name: &str, stamp: &str) {
        if stamp.starts_with("recent ") {
            return;
        }
        let tmp = self
            .dir
            .join(format!(".{name}.verified.tmp-{}", std::process::id()));
        if std::fs::write(&tmp, format!("{stamp}\n")).is_err()
            || std::fs::rename(&tmp, self.record(name)).is_err()
        {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

/// Table files smaller than this are read into the process's own memory by [`FileStore::map`] rather than mapped:
/// 16 MiB. Reading such a file takes a few milliseconds, a copy of it in each process costs little even with a
/// worker per core, and a copy of its own keeps the process safe from the file being truncated in place (a mapping
/// of it would die of SIGBUS). The larger ones are mapped, so that processes share them and start at once: the
/// 12-cell complete tables (60 MB each), the 15-puzzle's default pattern databases (33 MB each: `slide.ray`'s
/// workers of a node share one copy) and the 5 × 5 databases (gigabytes).
pub const READ_BELOW: u64 = 16 << 20;

/// A file's bytes read into memory of the process's own, in 8-byte words so that the tables inside are aligned as
/// they are in a mapping.
struct ReadIn {
    words: Vec<u64>,
    len: usize,
}

impl ReadIn {
    /// Reads the `len` bytes of `file`.
    fn read(mut file: std::fs::File, len: u64) -> std::io::Result<ReadIn> {
        let len = usize::try_from(len).map_err(std::io::Error::other)?;
        let mut words: Vec<u64> = crate::exact::packed::large_vec(len.div_ceil(8))
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e.to_string()))?;
        // SAFETY: any bytes are valid u64 words; the slice covers `len` bytes of the vector's initialised memory.
        let bytes = unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut u8, len) };
        file.read_exact(bytes)?;
        Ok(ReadIn { words, len })
    }
}

impl AsRef<[u8]> for ReadIn {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: the first `len` bytes of the words, initialised and alive as long as `self`.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr() as *const u8, self.len) }
    }
}

impl FileStore {
    /// The path of the record that the file `name` passed its checksum ([`Store::set_verified`]).
    fn record(&self, name: &str) -> PathBuf {
        self.dir.join(format!(".{name}.verified"))
    }
}

/// Opens a table file for reading, refusing what is not a regular file with an error that says what it is. The
/// open does not block (`O_NONBLOCK`): a FIFO put in a table's place would otherwise hang it until a writer came.
fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let m = file.metadata()?;
    if !m.is_file() {
        return Err(not_regular(&m));
    }
    Ok(file)
}

/// The error for a table's name that holds something else than a regular file (a directory, a FIFO, a device).
fn not_regular(m: &std::fs::Metadata) -> std::io::Error {
    let t = m.file_type();
    #[cfg(unix)]
    let what = {
        use std::os::unix::fs::FileTypeExt;
        if t.is_dir() {
            "a directory"
        } else if t.is_fifo() {
            "a FIFO (named pipe)"
        } else if t.is_socket() {
            "a socket"
        } else if t.is_block_device() || t.is_char_device() {
            "a device"
        } else {
            "not a regular file"
        }
    };
    #[cfg(not(unix))]
    let what = if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    };
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("this is {what}, not a table file (remove it: slide writes its tables as regular files)"),
    )
}

/// Asks the kernel to drop the file's clean pages from its page cache (Linux; a hint, elsewhere nothing). Pages that
/// a process has mapped stay. A file just written sits in the cache in the small pages (4 KiB folios) its writes
/// made, and a mapping of it then stays on small pages whatever it asks; read in anew through a mapping that asks
/// for huge pages, the file comes into the cache as 2 MiB folios, mapped whole, which makes the searches of large
/// databases faster (measured in docs/lab).
fn drop_cached_pages(file: &std::fs::File) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: posix_fadvise reads no memory of ours; on a valid descriptor it only changes what the kernel
        // caches, and an error is harmless.
        unsafe {
            libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = file;
}

/// Takes an exclusive advisory lock on `file` without waiting: true when taken, false when another open file
/// description (another process, or another build in this one) holds it. Where the platform has no `flock`, true.
fn try_lock(file: &std::fs::File) -> std::io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        loop {
            // SAFETY: flock reads no memory of ours; the descriptor is open for as long as `file` lives.
            let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if r == 0 {
                return Ok(true);
            }
            let e = std::io::Error::last_os_error();
            match e.raw_os_error() {
                Some(libc::EWOULDBLOCK) => return Ok(false),
                Some(libc::EINTR) => continue,
                // A file system without locks (some network mounts): build without sharing rather than fail.
                Some(libc::ENOLCK) | Some(libc::EOPNOTSUPP) => return Ok(true),
                _ => return Err(e),
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok(true)
    }
}

/// How long after its last change a file is verified every time it is mapped rather than recorded as verified.
pub const RECENT: std::time::Duration = std::time::Duration::from_secs(2);

/// What identifies a version of a file: length, modification and status-change times, inode and device; it starts
/// with `recent` when the file changed within [`RECENT`] (such a stamp is never recorded).
fn stamp(m: &std::fs::Metadata) -> String {
    let changed = m.modified().ok().max(changed_at(m));
    let recent = changed
        .and_then(|t| std::time::SystemTime::now().duration_since(t).ok())
        .is_none_or(|age| age < RECENT);
    let prefix = if recent { "recent " } else { "" };
    format!("{prefix}{}", identity(m))
}

/// The status-change time of a file, where the platform has one.
fn changed_at(m: &std::fs::Metadata) -> Option<std::time::SystemTime> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let since = std::time::Duration::new(
            m.ctime().max(0) as u64,
            m.ctime_nsec().clamp(0, 999_999_999) as u32,
        );
        std::time::UNIX_EPOCH.checked_add(since)
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        None
    }
}

/// Length, times, inode and device of a file, as text.
fn identity(m: &std::fs::Metadata) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        format!(
            "len {} mtime {}.{:09} ctime {}.{:09} ino {} dev {}",
            m.len(),
            m.mtime(),
            m.mtime_nsec(),
            m.ctime(),
            m.ctime_nsec(),
            m.ino(),
            m.dev()
        )
    }
    #[cfg(not(unix))]
    {
        let t = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        format!("len {} mtime {t}", m.len())
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

    /// A small file is read in, not mapped: truncated in place afterwards, its bytes are still there (a mapping
    /// would die of SIGBUS on the pages that are gone).
    #[test]
    fn small_files_are_read_in() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path());
        let data: Vec<u8> = (0..100_000u32).map(|i| (i % 251) as u8).collect();
        store.write("a.tbl", &mut |w| w.write_all(&data)).unwrap();
        let m = store.map("a.tbl").unwrap().unwrap();
        assert_eq!((*m.bytes).as_ref().as_ptr() as usize % 8, 0);
        std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .open(store.path("a.tbl"))
            .unwrap();
        assert_eq!(std::fs::metadata(store.path("a.tbl")).unwrap().len(), 0);
        assert_eq!((*m.bytes).as_ref(), &data[..]);
    }

    #[test]
    fn one_builder_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let store = FileStore::new(dir.path().join("sub"));
        let held = store.lock_build("a.tbl", &|| true).unwrap();
        assert!(held.is_some());
        // A second holder (another open file description: as another process would be) waits; told to stop
        // waiting, it gets no lock.
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let other = store
            .lock_build("a.tbl", &|| {
                asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 3
            })
            .unwrap();
        assert!(other.is_none());
        assert_eq!(asked.load(std::sync::atomic::Ordering::Relaxed), 4);
        // Another file's lock is free.
        assert!(store.lock_build("b.tbl", &|| false).unwrap().is_some());
        // Released on drop, then taken at once.
        drop(held);
        assert!(store.lock_build("a.tbl", &|| false).unwrap().is_some());
        // A thread waiting for it gets it when the holder lets go.
        let held = store.lock_build("a.tbl", &|| true).unwrap();
        std::thread::scope(|s| {
            let waiter = s.spawn(|| store.lock_build("a.tbl", &|| true).unwrap().is_some());
            std::thread::sleep(std::time::Duration::from_millis(100));
            assert!(!waiter.is_finished());
            drop(held);
            assert!(waiter.join().unwrap());
        });
    }

    /// Records the phases a solver starts (each build is one or more) and its warnings.
    #[derive(Default)]
    struct Phases(std::sync::Mutex<Vec<String>>);

    impl crate::Progress for Phases {
        fn start(&self, label: &str, _total: u64) {
            self.0.lock().unwrap().push(format!("start {label}"));
        }
        fn warn(&self, message: &str) {
            self.0.lock().unwrap().push(format!("warn {message}"));
        }
    }

    fn starts(p: &Phases) -> usize {
        p.0.lock()
            .unwrap()
            .iter()
            .filter(|l| l.starts_with("start ") && !l.starts_with("start waiting"))
            .count()
    }

    #[test]
    fn solvers_sharing_a_directory_build_each_file_once() {
        use crate::{Board, CacheDir, Shape, Solver};
        use std::sync::Arc;
        let shape = Shape::new(2, 5).unwrap();
        let goal = Board::goal(shape);
        let board = Board::new(shape, vec![0, 9, 8, 7, 6, 5, 4, 3, 2, 1]).unwrap();
        let solver = |dir: &Path, p: Arc<Phases>| {
            Solver::builder()
                .cache_dir(CacheDir::At(dir.to_path_buf()))
                .progress(p)
                .cache_from_cells(4)
                .build()
        };
        // One solver alone: the phases of one build.
        let alone = tempfile::tempdir().unwrap();
        let p = Arc::new(Phases::default());
        let want = solver(alone.path(), p.clone())
            .distance(&board, &goal)
            .unwrap();
        let one_build = starts(&p);
        assert!(one_build > 0, "{:?}", p.0.lock().unwrap());
        // Four solvers (as four processes would: each its own lock descriptor) that ask at the same moment.
        let shared = tempfile::tempdir().unwrap();
        let phases: Vec<Arc<Phases>> = (0..4).map(|_| Arc::new(Phases::default())).collect();
        let gate = std::sync::Barrier::new(4);
        std::thread::scope(|s| {
            for p in &phases {
                let (gate, board, goal) = (&gate, &board, &goal);
                let solver = solver(shared.path(), p.clone());
                s.spawn(move || {
                    gate.wait();
                    assert_eq!(solver.distance(board, goal).unwrap(), want);
                });
            }
        });
        let total: usize = phases.iter().map(|p| starts(p)).sum();
        let log: Vec<_> = phases.iter().map(|p| p.0.lock().unwrap().clone()).collect();
        assert_eq!(total, one_build, "{log:?}");
        // No lock file is left behind.
        let left: Vec<_> = std::fs::read_dir(shared.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .filter(|n| n.to_string_lossy().ends_with(".lock"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
