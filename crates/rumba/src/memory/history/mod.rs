//! A memory history: every allocation, free, pool growth and trim, pinned allocation, IPC export
//! and import, out-of-memory failure and managed-memory movement, recorded in bounded buffers
//! of each thread and written to a file for `rumba memviz` to draw (PyTorch's
//! `_record_memory_history` and `memory_viz`, for rumba's resources).
//!
//! Off by default. [`start`] begins a recording (clearing the last one), [`stop`] ends it and
//! keeps what it holds, [`dump`] writes it ([`History::save`]'s JSON: the [`format`](mod@format) module and
//! `docs/memory-history.md` describe it), [`snapshot`] returns it. Setting
//! `RUMBA_MEMORY_HISTORY=path` records a whole program: the recording starts with the runtime and
//! is written to `path` by [`close`](crate::close) and when the process exits.
//!
//! Each event has its time, device, stream, size, address and the chain of resources that served
//! it (outermost first, by type name), and optionally the innermost frames of the program's call
//! stack (`backtraces`, captured with `std::backtrace`; costly, off by default). Who records what:
//!
//! | event | recorded by |
//! |-------|-------------|
//! | `alloc`, `free` | the resource that makes the block: [`DriverResource`](super::DriverResource), [`PoolResource`](super::PoolResource) |
//! | `free_queued` | [`DeferredAdaptor`](super::DeferredAdaptor) (`free_deferred` under a `defer_cleanup` guard) |
//! | `free_deferred`, `free_flushed` | the pool, for releases held back by a guard; any resource freeing inside a flush |
//! | `pool_grow`, `pool_trim` | the pool (its segments' own allocations in its upstream are not recorded again) |
//! | `pinned_alloc`, `pinned_free` | the memory manager, for every [`PinnedBuffer`](super::PinnedBuffer) |
//! | `ipc_export`, `ipc_import`, `ipc_close` | the export of a resource's block; opening and closing a handle |
//! | `oom` | a context or manager, for a failure the program sees; the failure-callback adaptor, for each one it handles |
//! | `prefetch`, `advise`, `migrate` | managed arrays, and the simulator's page table |
//!
//! The chain of an allocation made through a context (or a manager) starts at the resource the
//! buffer was allocated from, adaptors included; a resource used directly records its own chain.
//!
//! **Cost.** While off, each place that could record reads one atomic flag (a relaxed load) and
//! does nothing else. While on, an event with no detail or backtrace, of a place its writer has
//! met before, takes no lock and allocates nothing: it is written as one 32-byte slot of a chunk
//! of its writer's own (the `slot` module), with the time a ticking thread publishes every
//! millisecond (the `clock` module). The writer is the thread that notes the event (the `local`
//! module; the sequence number is one relaxed `fetch_add`), except for a pool's own events,
//! which the pool writes itself under its lock (the `pool` module; numbers come from a run the
//! pool reserves, most of them without an atomic read-modify-write). What events share — kind,
//! device, stream, resource chain, pool — is held once per recording in a table of places, and a
//! slot holds its index; the resource chain is walked once per resource (the `chain` module). A
//! writer's first event in a recording, its first event of each place, an event whose values do
//! not fit a slot, and an event with a detail or backtrace take the recording's lock (and may
//! allocate); so, once every few hundred events, does taking a fresh chunk (the `track`
//! module). [`snapshot`] and [`dump`] gather the chunks of every writer, of threads that have
//! exited and pools that were dropped too, and merge them by sequence number, keeping the newest
//! `max_entries` (the `log` module has the details). The pool benchmark (`cargo bench -p rumba
//! --bench pool -- history`) measures the cost: on the virtual machines it was developed on, the
//! pool's allocate/free workload took 1.06–1.10 times as long with a recording running as
//! without (medians of six to ten runs, on two days; the workload notes about 14,600 events a
//! run, so an event costs 7–9 ns); with none running, the pool tests a flag.
//!
//! **Order and time.** `seq` is a total order of the events of all threads, in which an event
//! that happened before another (on one thread, or through the synchronization between threads)
//! comes first; it has gaps (numbers a pool reserved and did not use). `time_ns` has a
//! resolution of about a millisecond (the ticking thread's period) and never decreases in `seq`
//! order; events within one tick share a time and are told apart by `seq`. A snapshot taken while
//! other threads record may miss the events they are writing at that instant.
//!
//! This module touches the chunks of its recordings and the file it is asked to write.

mod chain;
mod clock;
pub mod format;
mod local;
mod log;
mod pool;
mod scope;
mod slot;
mod track;

/// One recorded event (see [`format::Event`]).
pub use format::Event;
pub use format::{EventKind, FORMAT_NAME, FORMAT_VERSION, History, PoolFigures};

use std::backtrace::Backtrace;
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use chain::ChainId;
pub(crate) use chain::{ChainCell, short_name};
pub(crate) use pool::PoolHistory;
use scope::scope;
pub(crate) use scope::{flushing, quiet, serving};

use super::DeviceResource;
use crate::driver::StreamHandle;
use crate::error::{HistoryError, Result};
use crate::sync::lock;

/// How to record (see [`start`]).
///
/// ```
/// let o = rumba::memory::history::HistoryOptions::default();
/// assert_eq!((o.max_entries, o.backtraces), (100_000, false));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryOptions {
    /// Most events kept; the oldest are dropped beyond it (and counted).
    pub max_entries: usize,
    /// Capture the call stack of every event (slow: use it to find where memory comes from).
    pub backtraces: bool,
    /// Frames kept of each call stack (the innermost outside rumba's memory layer and `std`).
    pub max_frames: usize,
}

impl Default for HistoryOptions {
    fn default() -> Self {
        HistoryOptions {
            max_entries: 100_000,
            backtraces: false,
            max_frames: 8,
        }
    }
}

/// What a few events carry beyond their slot.
struct Extra {
    detail: Option<String>,
    backtrace: Option<Arc<Backtrace>>,
}

/// The one flag every recording site reads.
static ENABLED: AtomicBool = AtomicBool::new(false);
/// Whether events capture backtraces (read only while recording).
static BACKTRACES: AtomicBool = AtomicBool::new(false);

/// True while a recording runs. One relaxed atomic load: the whole cost of the history when off.
///
/// ```
/// assert!(!rumba::memory::history::is_recording() || std::env::var_os("RUMBA_MEMORY_HISTORY").is_some());
/// ```
#[inline]
pub fn is_recording() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Starts recording with `options`, dropping what an earlier recording kept.
///
/// # Errors
/// [`HistoryError::NoEntries`] for `max_entries == 0`; nothing changes then.
///
/// ```
/// use rumba::memory::history::{self, HistoryOptions};
/// history::start(HistoryOptions { max_entries: 1000, ..Default::default() }).unwrap();
/// drop(rumba::current_context().unwrap().memalloc(256).unwrap());
/// history::stop();
/// let h = history::snapshot();
/// assert!(h.events.iter().any(|e| e.kind == history::EventKind::Alloc && e.bytes == 256));
/// ```
pub fn start(options: HistoryOptions) -> Result<()> {
    if options.max_entries == 0 {
        return Err(HistoryError::NoEntries.into());
    }
    let started_unix_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    log::begin(options, started_unix_ms);
    BACKTRACES.store(options.backtraces, Ordering::Relaxed);
    ENABLED.store(true, Ordering::SeqCst);
    Ok(())
}

/// Stops recording; what was recorded stays for [`dump`] and [`snapshot`]. A no-op when not
/// recording.
///
/// ```
/// rumba::memory::history::stop();
/// assert!(!rumba::memory::history::is_recording());
/// ```
pub fn stop() {
    ENABLED.store(false, Ordering::SeqCst);
    clock::stop();
}

/// The history's unit tests that start recordings or clocks (process-wide) take turns.
#[cfg(test)]
static TEST_TURN: Mutex<()> = Mutex::new(());

/// The recording so far (or the last one, after [`stop`]); empty when none was started.
///
/// ```
/// let h = rumba::memory::history::snapshot();
/// assert_eq!(h.format, rumba::memory::history::FORMAT_NAME);
/// ```
pub fn snapshot() -> History {
    // Events are converted outside the lock: resolving backtraces is slow.
    let (options, started_unix_ms, dropped, rows, pools, extras) = {
        let r = lock(&log::RECORDING);
        let Some(rec) = r.as_ref() else {
            return History::empty(HistoryOptions::default().max_entries);
        };
        let (rows, dropped) = rec.events();
        let extras: HashMap<u64, (Option<String>, Option<Arc<Backtrace>>)> = rows
            .iter()
            .filter(|(_, e)| e.place.extra)
            .filter_map(|(seq, _)| {
                let x = rec.extras.get(seq)?;
                Some((*seq, (x.detail.clone(), x.backtrace.clone())))
            })
            .collect();
        let pools = rec.pools.clone();
        (
            rec.options,
            rec.started_unix_ms,
            dropped,
            rows,
            pools,
            extras,
        )
    };
    let chains = chain::table();
    let mut extras = extras;
    // Times never go back in sequence order (a clock read and a sequence number are not taken
    // at one instant).
    let mut last_ns = 0;
    let events = rows
        .into_iter()
        .map(|(seq, e)| {
            last_ns = e.time_ns.max(last_ns);
            let (detail, backtrace) = extras.remove(&seq).unwrap_or_default();
            Event {
                seq,
                time_ns: last_ns,
                kind: e.place.kind,
                device: e.place.device as usize,
                stream: e.place.stream,
                bytes: e.bytes as usize,
                ptr: e.ptr,
                chain: chains
                    .get(usize::from(e.place.chain))
                    .map_or_else(Vec::new, |c| c.names()),
                frames: backtrace
                    .map_or_else(Vec::new, |b| frames(&b.to_string(), options.max_frames)),
                pool: (e.place.pool as usize)
                    .checked_sub(1)
                    .and_then(|i| pools.get(i))
                    .map(|&id| PoolFigures {
                        id,
                        reserved: e.pool_reserved as usize,
                        used: e.pool_used as usize,
                    }),
                detail,
            }
        })
        .collect();
    History {
        started_unix_ms,
        max_entries: options.max_entries,
        dropped,
        backtraces: options.backtraces,
        events,
        ..History::empty(options.max_entries)
    }
}

/// Writes the recording so far (or the last one) to `path` as JSON ([`History::save`]).
///
/// # Errors
/// [`HistoryError::Io`] when the file cannot be written.
///
/// ```
/// use rumba::memory::history;
/// let path = std::env::temp_dir().join(format!("rumba-doc-dump-{}.json", std::process::id()));
/// history::dump(&path).unwrap();
/// assert_eq!(history::History::load(&path).unwrap().format, history::FORMAT_NAME);
/// std::fs::remove_file(path).unwrap();
/// ```
pub fn dump(path: impl AsRef<Path>) -> Result<()> {
    snapshot().save(path)
}

/// The frames of a rendered backtrace that belong to the program — not to `std`, the backtrace
/// machinery or rumba itself (a frame whose file is in rumba's `src/`) — innermost first, as
/// `symbol (file:line:column)`.
fn frames(text: &str, max: usize) -> Vec<String> {
    const SKIP: [&str; 5] = ["std::", "core::", "alloc::", "__rust", "backtrace"];
    let cwd = std::env::current_dir().unwrap_or_default();
    let ours = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src"));
    let mut out = Vec::new();
    let mut lines = text.lines().map(str::trim).peekable();
    while let Some(line) = lines.next() {
        let Some((num, symbol)) = line.split_once(": ") else {
            continue;
        };
        if num.parse::<usize>().is_err() {
            continue;
        }
        let at = lines
            .peek()
            .and_then(|l| l.strip_prefix("at "))
            .map(|l| l.to_string());
        if at.is_some() {
            lines.next();
        }
        let bare = symbol.trim_start_matches('<');
        let file = at.as_deref().map(|at| {
            let file = at.rsplitn(3, ':').last().unwrap_or(at);
            cwd.join(file)
        });
        let internal = file
            .as_ref()
            .is_some_and(|f| f.starts_with(ours) || f.starts_with("/rustc"));
        if internal || SKIP.iter().any(|s| bare.starts_with(s)) {
            continue;
        }
        out.push(match at {
            Some(at) => format!("{symbol} ({at})"),
            None => symbol.to_string(),
        });
        if out.len() == max {
            break;
        }
    }
    out
}

/// What a recording site reports (the chain and time are added by [`note`]).
pub(crate) struct Note {
    pub(crate) kind: EventKind,
    pub(crate) device: usize,
    pub(crate) stream: StreamHandle,
    pub(crate) bytes: usize,
    pub(crate) ptr: u64,
    pub(crate) pool: Option<PoolFigures>,
    pub(crate) detail: Option<String>,
}

impl Note {
    /// A note with no pool figures and no detail.
    pub(crate) fn new(
        kind: EventKind,
        device: usize,
        stream: StreamHandle,
        bytes: usize,
        ptr: u64,
    ) -> Self {
        Note {
            kind,
            device,
            stream,
            bytes,
            ptr,
            pool: None,
            detail: None,
        }
    }

    /// The event's values as a slot takes them (a pool's figures, 0 when not a pool's event).
    #[inline(always)]
    fn values(&self) -> slot::Values {
        let (used, reserved) = self
            .pool
            .as_ref()
            .map_or((0, 0), |p| (p.used as u64, p.reserved as u64));
        slot::Values {
            ptr: self.ptr,
            bytes: self.bytes as u64,
            used,
            reserved,
        }
    }
}

/// Records `note` (call only when [`is_recording`]); `maker` is the resource reporting it and
/// the cell keeping its chain, used when no context or manager named the resource it allocates
/// from.
///
/// Inlined: the note's fields reach the event's slot without a round trip through memory (a
/// load of two fields written one by one stalls until the writes are done).
#[inline(always)]
pub(crate) fn note(note: Note, maker: Option<(&dyn DeviceResource, &ChainCell)>) {
    let Some((kind, chain)) = scope(&note, maker) else {
        return;
    };
    if note.detail.is_none() && !BACKTRACES.load(Ordering::Relaxed) {
        local::record(&note, kind, chain);
    } else {
        note_extra(note, kind, chain);
    }
}

/// [`note`] for an event of the pool `maker`, noted while the pool holds its lock; `history` is
/// the pool's own state, kept under that lock, where the event is written (the `pool` module).
#[inline(always)]
pub(crate) fn note_pool(
    history: &mut PoolHistory,
    note: Note,
    maker: (&dyn DeviceResource, &ChainCell),
) {
    let (me, cell) = maker;
    if !history.quick(&note, cell) {
        note_pool_slowly(history, note, me, cell);
    }
}

/// [`note_pool`] when the pool's quick path could not write the event (the maker's two parts
/// apart, so that the quick path does not store them for this call).
#[cold]
#[inline(never)]
fn note_pool_slowly(
    history: &mut PoolHistory,
    note: Note,
    me: &dyn DeviceResource,
    cell: &ChainCell,
) {
    let Some((kind, chain)) = scope(&note, Some((me, cell))) else {
        return;
    };
    // A pool's history refuses the events of a recording that captures backtraces. They are
    // numbered by the recording's counter, which cuts a pool's run short: the pool's later events
    // still come after them.
    if note.detail.is_some() || !history.record(&note, kind, chain) {
        note_extra(note, kind, chain);
    }
}

/// Records `note` with its detail or a backtrace beside it.
#[cold]
#[inline(never)]
fn note_extra(mut note: Note, kind: EventKind, chain: ChainId) {
    let backtrace = BACKTRACES
        .load(Ordering::Relaxed)
        .then(|| Arc::new(Backtrace::force_capture()));
    let extra = Extra {
        detail: note.detail.take(),
        backtrace,
    };
    local::record_with(&note, kind, chain, extra);
}

/// Starts the recording `RUMBA_MEMORY_HISTORY` asks for and writes it to `path` when the process
/// exits (and at every [`close`](crate::close)).
pub(crate) fn record_program(path: &Path) -> Result<()> {
    static AT_EXIT: Mutex<Option<std::path::PathBuf>> = Mutex::new(None);
    extern "C" fn dump_at_exit() {
        let _ = std::panic::catch_unwind(|| {
            if let Some(path) = lock(&AT_EXIT).clone() {
                if let Err(e) = dump(&path) {
                    eprintln!("rumba: {e}");
                }
            }
        });
    }
    start(HistoryOptions::default())?;
    let first = lock(&AT_EXIT).replace(path.to_path_buf()).is_none();
    if first {
        // SAFETY: registers a function with no arguments that never unwinds (it catches panics);
        // it reads only a static and writes a file.
        let rc = unsafe { libc::atexit(dump_at_exit) };
        if rc != 0 {
            tracing::warn!("cannot register the memory history's dump at exit; close() writes it");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_keep_the_program_and_skip_the_machinery() {
        let ours = concat!(env!("CARGO_MANIFEST_DIR"), "/src/memory/base.rs");
        let text = format!(
            "   0: std::backtrace::Backtrace::force_capture\n             at /rustc/x/backtrace.rs:1:2\n   1: allocate\n             at {ours}:3:4\n   2: <rumba::memory::pool::PoolResource as rumba::memory::resource::DeviceResource>::allocate\n             at /rustc/y/lib.rs:1:1\n   3: my_app::load\n             at /home/me/app/src/main.rs:10:5\n   4: my_app::main\n"
        );
        assert_eq!(
            frames(&text, 8),
            [
                "my_app::load (/home/me/app/src/main.rs:10:5)",
                "my_app::main"
            ]
        );
        assert_eq!(
            frames(&text, 1),
            ["my_app::load (/home/me/app/src/main.rs:10:5)"]
        );
    }
}
