//! The failure-callback adaptor (RMM's `failure_callback_resource_adaptor`): when an allocation
//! fails for lack of memory, a function of the program is told the request and the error (with
//! its figures: [`Error::OutOfMemory`], or the pool's [`OomReport`](crate::error::OomReport)) and
//! decides — after freeing or spilling what it can — whether to try again. At most
//! `max_retries` retries are made (the callback is asked before each); the failure after the
//! last one is returned. Every failure is an `oom` event in the memory history.
//!
//! The callback runs on the allocating thread with no lock of the adaptor held, so it may give
//! memory back to this very resource (dropping buffers, emptying a cache). A panic in it
//! unwinds out of the allocation, as a panic of the program does.
//!
//! This module touches only the resource it wraps and the callback.

use std::sync::Arc;

use crate::driver::StreamHandle;
use crate::error::{Error, Result};
use crate::memory::history::{self, ChainCell, EventKind, Note};
use crate::memory::{DeviceBlock, DeviceResource, ResetToken};

/// The failed request the callback is told of.
#[derive(Debug)]
pub struct FailedAllocation<'a> {
    /// Bytes asked for.
    pub bytes: usize,
    /// The stream the allocation is for.
    pub stream: StreamHandle,
    /// 1 for the first failure of this request, 2 after one retry, …
    pub attempt: usize,
    /// The upstream's error (an out-of-memory variant, with its figures).
    pub error: &'a Error,
}

/// What the callback decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnFailure {
    /// Memory was freed: try the allocation again (if retries are left).
    Retry,
    /// Give up: the allocation returns the error.
    Fail,
}

type Callback = dyn Fn(&FailedAllocation<'_>) -> OnFailure + Send + Sync;

/// Calls a function on out-of-memory and retries as it says, at most `max_retries` times per
/// allocation (see the module docs).
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use rumba::memory::{DeviceResource, FailureCallbackAdaptor, LimitingAdaptor, OnFailure};
/// let ctx = rumba::current_context().unwrap();
/// let limited = Arc::new(LimitingAdaptor::new(ctx.manager_context().device_upstream(), 0, Some(1000)));
/// let spill = Arc::new(Mutex::new(Some(limited.allocate_sync(800).unwrap())));
/// let (up, cache) = (limited.clone(), spill.clone());
/// let res = FailureCallbackAdaptor::new(limited, 3, move |failed| {
///     assert!(failed.error.is_out_of_memory());
///     match cache.lock().unwrap().take() {
///         Some(block) => { up.deallocate_sync(block).unwrap(); OnFailure::Retry } // spilled
///         None => OnFailure::Fail,
///     }
/// });
/// let b = res.allocate_sync(500).unwrap(); // failed once, spilled, then granted
/// assert!(spill.lock().unwrap().is_none());
/// res.deallocate_sync(b).unwrap();
/// ```
pub struct FailureCallbackAdaptor {
    upstream: Arc<dyn DeviceResource>,
    max_retries: usize,
    callback: Box<Callback>,
    /// Its chain in the memory history, walked once.
    history: ChainCell,
}

impl FailureCallbackAdaptor {
    /// Wraps `upstream`; on out-of-memory `callback` decides whether to retry, at most
    /// `max_retries` times per allocation (the failure after the last retry is returned without
    /// asking; 0 makes the adaptor a pass-through).
    ///
    /// ```
    /// use rumba::memory::{FailureCallbackAdaptor, OnFailure};
    /// let ctx = rumba::current_context().unwrap();
    /// let res = FailureCallbackAdaptor::new(ctx.manager_context().device_upstream(), 2, |_| OnFailure::Fail);
    /// assert_eq!(res.max_retries(), 2);
    /// ```
    pub fn new(
        upstream: Arc<dyn DeviceResource>,
        max_retries: usize,
        callback: impl Fn(&FailedAllocation<'_>) -> OnFailure + Send + Sync + 'static,
    ) -> Self {
        FailureCallbackAdaptor {
            upstream,
            max_retries,
            callback: Box::new(callback),
            history: ChainCell::new(),
        }
    }

    /// The most retries of one allocation.
    pub fn max_retries(&self) -> usize {
        self.max_retries
    }
}

impl DeviceResource for FailureCallbackAdaptor {
    /// # Errors
    /// The upstream's error: at once when it is not an out-of-memory failure; the last
    /// out-of-memory failure when the callback says [`OnFailure::Fail`] or no retry is left.
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> Result<DeviceBlock> {
        let mut attempt = 0;
        loop {
            let error = match self.upstream.allocate(bytes, stream) {
                Err(e) if e.is_out_of_memory() => e,
                other => return other,
            };
            attempt += 1;
            if history::is_recording() {
                let device = match &error {
                    Error::OutOfMemory { device, .. } => *device,
                    Error::PoolOutOfMemory(report) => report.device,
                    _ => 0,
                };
                let note = Note {
                    detail: Some(format!("failure callback, attempt {attempt}: {error}")),
                    ..Note::new(EventKind::Oom, device, stream, bytes, 0)
                };
                history::note(note, Some((self, &self.history)));
            }
            if attempt > self.max_retries {
                return Err(error);
            }
            let failed = FailedAllocation {
                bytes,
                stream,
                attempt,
                error: &error,
            };
            if (self.callback)(&failed) == OnFailure::Fail {
                return Err(error);
            }
        }
    }

    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> Result<()> {
        self.upstream.deallocate(block, stream)
    }

    fn upstream(&self) -> Option<&dyn DeviceResource> {
        Some(&*self.upstream)
    }

    fn reset(&self, token: &ResetToken) -> Result<()> {
        self.upstream.reset(token)
    }
}
