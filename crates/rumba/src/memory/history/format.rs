//! The dump format of a memory history: plain data with serde's derives, written and read as
//! JSON (`docs/memory-history.md` describes every field).
//!
//! A dump is one JSON object:
//!
//! ```json
//! { "format": "rumba-memory-history", "version": 1, "started_unix_ms": 1700000000000,
//!   "max_entries": 100000, "dropped": 0, "backtraces": false,
//!   "events": [ { "seq": 0, "time_ns": 1200, "kind": "alloc", "device": 0, "stream": 0,
//!                 "bytes": 4096, "ptr": 81604378624,
//!                 "chain": ["DeferredAdaptor", "LimitingAdaptor", "DriverResource"] } ] }
//! ```
//!
//! Optional fields (`chain`, `frames`, `pool`, `detail`) are left out when empty. Readers ignore
//! fields they do not know, so later versions may add some without changing `version`.
//!
//! This module touches the file it is asked to read or write only.

use std::io::{BufReader, BufWriter, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{HistoryError, Result};

/// The `format` field of every dump.
pub const FORMAT_NAME: &str = "rumba-memory-history";

/// The format version this rumba writes and reads.
///
/// ```
/// assert_eq!(rumba::memory::history::FORMAT_VERSION, 1);
/// ```
pub const FORMAT_VERSION: u32 = 1;

/// What happened to memory (the `kind` field, in snake case).
///
/// ```
/// use rumba::memory::history::EventKind;
/// assert_eq!(serde_json::to_string(&EventKind::FreeQueued).unwrap(), "\"free_queued\"");
/// assert!(EventKind::Alloc.opens() && EventKind::FreeFlushed.closes());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum EventKind {
    /// A block of device memory handed out (by a driver resource or a pool).
    Alloc,
    /// A block given back and free at once (to the driver, or to the pool's cache).
    Free,
    /// A block given back into a deferred-release queue: still held, released by a later flush.
    FreeQueued,
    /// A block given back while a `defer_cleanup` guard holds releases back.
    FreeDeferred,
    /// A queued or deferred release carried out by a flush: the block is free now.
    FreeFlushed,
    /// A pool took a new segment from its upstream (`bytes`: the segment).
    PoolGrow,
    /// A pool gave a whole free segment back to its upstream.
    PoolTrim,
    /// Page-locked host memory handed out (`ptr`: its host address).
    PinnedAlloc,
    /// Page-locked host memory given back.
    PinnedFree,
    /// A device allocation exported for another process.
    IpcExport,
    /// Another process's allocation opened in this one.
    IpcImport,
    /// An opened allocation closed.
    IpcClose,
    /// An allocation failed for lack of memory (`bytes`: the request; `detail`: the report).
    Oom,
    /// Managed memory asked to move (`detail`: where to).
    Prefetch,
    /// Advice given on managed memory (`detail`: which).
    Advise,
    /// Pages of managed memory moved (`bytes`: how many bytes of pages; `detail`: from and to).
    Migrate,
}

impl EventKind {
    /// True for the kinds that start a block's life (`alloc`).
    pub fn opens(self) -> bool {
        self == EventKind::Alloc
    }

    /// True for the kinds that end it (`free`, `free_flushed`).
    pub fn closes(self) -> bool {
        matches!(self, EventKind::Free | EventKind::FreeFlushed)
    }

    /// True for a release the program made whose memory is still held (`free_queued`,
    /// `free_deferred`).
    pub fn holds(self) -> bool {
        matches!(self, EventKind::FreeQueued | EventKind::FreeDeferred)
    }
}

/// A pool's figures right after an event: its identity, the bytes it holds from its upstream
/// and the bytes of them in blocks handed out (or held back).
///
/// ```
/// let p = rumba::memory::history::PoolFigures { id: 1, reserved: 2 << 20, used: 4096 };
/// assert!(p.used <= p.reserved);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolFigures {
    /// Tells pools apart (stable for the pool's life).
    pub id: u64,
    /// Bytes of segments the pool holds.
    pub reserved: usize,
    /// Bytes of them in blocks handed out or held back.
    pub used: usize,
}

/// One recorded event.
///
/// ```
/// use rumba::memory::history::{Event, EventKind};
/// let e = Event { seq: 3, time_ns: 10, kind: EventKind::Alloc, device: 0, stream: 0,
///     bytes: 64, ptr: 0x1000, chain: vec!["PoolResource".into()], frames: vec![],
///     pool: None, detail: None };
/// let text = serde_json::to_string(&e).unwrap();
/// assert!(!text.contains("frames")); // empty optional fields are left out
/// assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), e);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Order in the whole recording, one order of the events of all threads in which an event
    /// that happened before another comes first (from 0; gaps where older events were dropped
    /// and where numbers a pool reserved went unused).
    pub seq: u64,
    /// Nanoseconds since the recording started, never decreasing in `seq` order, to about a
    /// millisecond (the monotonic clock as a thread of the recording publishes it).
    pub time_ns: u64,
    /// What happened.
    pub kind: EventKind,
    /// Device ordinal.
    pub device: usize,
    /// The stream's handle (0: the legacy default stream).
    pub stream: u64,
    /// Bytes the event concerns.
    pub bytes: usize,
    /// Device address (host address for pinned memory).
    pub ptr: u64,
    /// The resources that served it, outermost first (type names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<String>,
    /// The innermost frames of the program's call stack, when backtraces were recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<String>,
    /// The pool's figures after the event, for events of a pool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<PoolFigures>,
    /// More words: an out-of-memory report, a migration's source and destination, an advice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// A recording: its settings and its events, oldest first (see the [module docs](self)).
///
/// ```
/// use rumba::memory::history::History;
/// let h = History::empty(10);
/// let text = serde_json::to_string(&h).unwrap();
/// assert!(text.starts_with("{\"format\":\"rumba-memory-history\",\"version\":1"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct History {
    /// Always [`FORMAT_NAME`].
    pub format: String,
    /// [`FORMAT_VERSION`] when written by this rumba.
    pub version: u32,
    /// When the recording started, in milliseconds since the Unix epoch.
    pub started_unix_ms: u64,
    /// The most events kept.
    pub max_entries: usize,
    /// Events dropped (the oldest) to stay within `max_entries`.
    pub dropped: u64,
    /// Whether backtraces were captured.
    pub backtraces: bool,
    /// The events kept, oldest first.
    pub events: Vec<Event>,
}

impl History {
    /// A history with no events that keeps at most `max_entries`.
    ///
    /// ```
    /// assert!(rumba::memory::history::History::empty(1).events.is_empty());
    /// ```
    pub fn empty(max_entries: usize) -> Self {
        History {
            format: FORMAT_NAME.to_string(),
            version: FORMAT_VERSION,
            started_unix_ms: 0,
            max_entries,
            dropped: 0,
            backtraces: false,
            events: Vec::new(),
        }
    }

    /// Writes the history to `path` as JSON.
    ///
    /// # Errors
    /// [`HistoryError::Io`] when the file cannot be created or written.
    ///
    /// ```
    /// use rumba::memory::history::History;
    /// let path = std::env::temp_dir().join(format!("rumba-doc-save-{}.json", std::process::id()));
    /// History::empty(5).save(&path).unwrap();
    /// assert_eq!(History::load(&path).unwrap(), History::empty(5));
    /// std::fs::remove_file(path).unwrap();
    /// ```
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let io = |e: &dyn std::fmt::Display| HistoryError::Io {
            path: path.display().to_string(),
            action: "write",
            message: e.to_string(),
        };
        let file = std::fs::File::create(path).map_err(|e| io(&e))?;
        let mut out = BufWriter::new(file);
        serde_json::to_writer(&mut out, self).map_err(|e| io(&e))?;
        out.write_all(b"\n").map_err(|e| io(&e))?;
        out.flush().map_err(|e| io(&e))?;
        Ok(())
    }

    /// Reads a history written by [`save`](Self::save) (or [`dump`](super::dump)).
    ///
    /// # Errors
    /// [`HistoryError::Io`] when the file cannot be read; [`HistoryError::Format`] when it is not
    /// JSON of this format, or of a version this rumba does not read.
    ///
    /// ```
    /// let err = rumba::memory::history::History::load("/nonexistent/history.json").unwrap_err();
    /// assert!(matches!(err, rumba::Error::History(rumba::error::HistoryError::Io { .. })));
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let shown = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| HistoryError::Io {
            path: shown.clone(),
            action: "read",
            message: e.to_string(),
        })?;
        let history: History =
            serde_json::from_reader(BufReader::new(file)).map_err(|e| HistoryError::Format {
                path: shown.clone(),
                message: e.to_string(),
            })?;
        if history.format != FORMAT_NAME || history.version != FORMAT_VERSION {
            return Err(HistoryError::Format {
                path: shown,
                message: format!(
                    "format {:?} version {}; this rumba reads {FORMAT_NAME:?} version {FORMAT_VERSION}",
                    history.format, history.version
                ),
            }
            .into());
        }
        Ok(history)
    }
}
