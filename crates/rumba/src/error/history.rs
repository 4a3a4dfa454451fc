//! Errors of the memory history ([`HistoryError`]) and of resources whose memory is not
//! accessible where a caller needs it ([`Access`]).

use std::fmt;

/// A memory history that cannot be started, written or read.
///
/// ```
/// use rumba::error::{Error, HistoryError};
/// let e = Error::History(HistoryError::NoEntries);
/// assert_eq!(e.to_string(), "a memory history needs room for at least one entry (max_entries 0)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HistoryError {
    /// `max_entries` of 0: the history could keep nothing.
    #[error("a memory history needs room for at least one entry (max_entries 0)")]
    NoEntries,
    /// The dump file could not be written or read.
    #[error("cannot {action} memory history file {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// `write` or `read`.
        action: &'static str,
        /// The operating system's words.
        message: String,
    },
    /// The file is not a memory history of a format version this rumba reads.
    #[error("{path} is not a rumba memory history: {message}")]
    Format {
        /// The file.
        path: String,
        /// What the parser found (line and column where known), or the version found.
        message: String,
    },
}

/// Where a resource's memory can be used from (its
/// [`properties`](crate::memory::DeviceResource::properties)), as a requirement.
///
/// ```
/// assert_eq!(rumba::error::Access::Device.to_string(), "device-accessible");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Access {
    /// Kernels and device copies can use it.
    Device,
    /// Host code can read and write it.
    Host,
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Access::Device => "device-accessible",
            Access::Host => "host-accessible",
        })
    }
}
