//! When may a block freed on one stream be handed to another? Stream keys, free epochs and
//! event fences.
//!
//! A block freed on stream A may still be touched by work queued on A before the free. A itself
//! may reuse it at once (its later work runs after that work); another stream only once that work
//! has completed. Recording an event on every free would put a driver call on the hot path, so
//! fences are recorded lazily, per stream, covering *epochs*:
//!
//! - every free on A is tagged with A's current epoch (no driver call);
//! - when another stream needs memory, A's open epoch is closed: if A is idle (`stream_query`) the
//!   epoch is released at once; else an event is recorded on A and the epoch is released when
//!   `event_query` reports it complete. An event recorded after the free completes no earlier
//!   than one recorded at the free, so this is conservative, never early.
//!
//! Stream keys: handle 0 (default) and 1 (legacy default) are the same stream. The per-thread
//! default stream (handle 2) names a different stream on every host thread, and frees often run
//! on a stream's worker thread, so its frees get the key [`PER_THREAD_FREES`], which no stream
//! allocates from, fenced on the legacy default stream — which waits for every blocking stream,
//! per-thread ones included. Allocations on handle 2 use global blocks only.
//!
//! A stream whose handle became invalid (destroyed while blocks were cached), and the per-thread
//! key, are released at once when the whole device is idle
//! ([`Driver::device_idle`](crate::driver::Driver::device_idle)); else they are fenced on the
//! legacy default stream (which waits for every blocking stream), and if even that fails their
//! blocks stay owned until the device is idle.
//!
//! This module touches the driver's stream and event calls only.

use std::collections::VecDeque;
use std::sync::Arc;

use super::int_hash::IntMap;
use crate::driver::{Driver, EventHandle, StreamHandle};

/// Key of the frees made on the per-thread default stream.
pub(crate) const PER_THREAD_FREES: u64 = u64::MAX;

/// The key blocks freed on `stream` are owned by.
pub(crate) fn free_key(stream: StreamHandle) -> u64 {
    match stream {
        StreamHandle::DEFAULT => StreamHandle::LEGACY.0,
        StreamHandle::PER_THREAD => PER_THREAD_FREES,
        s => s.0,
    }
}

/// The key whose blocks an allocation on `stream` may reuse at once (`None`: global only).
pub(crate) fn alloc_key(stream: StreamHandle) -> Option<u64> {
    match stream {
        StreamHandle::DEFAULT => Some(StreamHandle::LEGACY.0),
        StreamHandle::PER_THREAD => None,
        s => Some(s.0),
    }
}

/// The stream handle a key stands for in snapshots.
pub(crate) fn key_handle(key: u64) -> StreamHandle {
    if key == PER_THREAD_FREES {
        StreamHandle::PER_THREAD
    } else {
        StreamHandle(key)
    }
}

#[derive(Default)]
struct Fences {
    /// Epoch that frees are tagged with now.
    open: u64,
    /// True when something was freed in the open epoch.
    dirty: bool,
    /// Recorded, not yet completed: (epoch covered, event).
    waiting: VecDeque<(u64, EventHandle)>,
    /// Highest released epoch.
    released: Option<u64>,
}

/// Fences of every stream of one pool.
pub(crate) struct StreamOrder {
    device: usize,
    driver: Arc<dyn Driver>,
    streams: IntMap<u64, Fences>,
    spare_events: Vec<EventHandle>,
    /// Callers waiting for fences outside the pool's lock ([`fences`](Self::fences)): while
    /// any does, completed events are not recorded again (it would wait for later work).
    lent: usize,
}

impl StreamOrder {
    pub(crate) fn new(device: usize, driver: Arc<dyn Driver>) -> Self {
        StreamOrder {
            device,
            driver,
            streams: IntMap::default(),
            spare_events: Vec::new(),
            lent: 0,
        }
    }

    /// Closes the open epochs of `keys` and lends out the fences not yet seen complete, for a
    /// caller short of memory to wait for outside the pool's lock (then [`returned`](Self::returned),
    /// and ask [`released`](Self::released) again).
    pub(crate) fn fences(&mut self, keys: &[u64]) -> Vec<EventHandle> {
        for &k in keys {
            let _ = self.released(k);
        }
        let events: Vec<EventHandle> = keys
            .iter()
            .filter_map(|k| self.streams.get(k))
            .flat_map(|f| f.waiting.iter().map(|&(_, e)| e))
            .collect();
        if !events.is_empty() {
            self.lent += 1;
        }
        events
    }

    /// Ends a loan of [`fences`](Self::fences) (of a non-empty list).
    pub(crate) fn returned(&mut self) {
        self.lent = self.lent.saturating_sub(1);
    }

    /// The epoch a free on `key` is tagged with now.
    pub(crate) fn on_free(&mut self, key: u64) -> u64 {
        let f = self.streams.entry(key).or_default();
        f.dirty = true;
        f.open
    }

    /// Closes `key`'s open epoch and reports the highest epoch whose work has completed, without
    /// waiting. `None`: nothing released yet.
    pub(crate) fn released(&mut self, key: u64) -> Option<u64> {
        let (device, driver) = (self.device, Arc::clone(&self.driver));
        let mut spare = std::mem::take(&mut self.spare_events);
        let f = self.streams.entry(key).or_default();
        let stream = key_handle(key);
        let busy = f.dirty || !f.waiting.is_empty();
        // The per-thread key stands for many streams, and a destroyed stream can no longer be
        // asked (nor fenced: its work still runs): both are idle when the whole device is.
        let idle = || match driver.stream_query(device, stream) {
            Ok(idle) if key != PER_THREAD_FREES => idle,
            _ => driver.device_idle(device).unwrap_or(false),
        };
        if busy && idle() {
            // Idle: everything queued before every free so far has completed.
            spare.extend(f.waiting.drain(..).map(|(_, e)| e));
            if f.dirty {
                f.released = Some(f.open);
                f.open += 1;
                f.dirty = false;
            } else if f.open > 0 {
                f.released = Some(f.open - 1);
            }
            self.spare_events = spare;
            return f.released;
        }
        if f.dirty {
            let mut fresh = Vec::new();
            let reuse = if self.lent == 0 {
                &mut spare
            } else {
                &mut fresh
            };
            let fence = record_fence(&*driver, device, stream, reuse);
            spare.append(&mut fresh);
            if let Some(ev) = fence {
                f.waiting.push_back((f.open, ev));
            } else {
                // No fence could be recorded: leave the epoch open and try again later.
                self.spare_events = spare;
                return f.released;
            }
            f.open += 1;
            f.dirty = false;
        }
        while let Some(&(epoch, ev)) = f.waiting.front() {
            match driver.event_query(device, ev) {
                Ok(true) => {
                    f.waiting.pop_front();
                    f.released = Some(epoch);
                    spare.push(ev);
                }
                Ok(false) => break,
                Err(_) => {
                    // The event is unusable; never treat it as complete.
                    break;
                }
            }
        }
        self.spare_events = spare;
        f.released
    }

    /// Destroys every event (for reset and drop).
    pub(crate) fn clear(&mut self) {
        let mut events = std::mem::take(&mut self.spare_events);
        for (_, f) in self.streams.drain() {
            events.extend(f.waiting.into_iter().map(|(_, e)| e));
        }
        for e in events {
            let _ = self.driver.event_destroy(self.device, e);
        }
    }
}

impl Drop for StreamOrder {
    fn drop(&mut self) {
        self.clear();
    }
}

/// Records an event on `stream` (or, if that handle is no longer valid or stands for many
/// streams, on the legacy default stream, which waits for every blocking stream).
fn record_fence(
    driver: &dyn Driver,
    device: usize,
    stream: StreamHandle,
    spare: &mut Vec<EventHandle>,
) -> Option<EventHandle> {
    let ev = match spare.pop() {
        Some(e) => e,
        None => driver.event_create(device, false).ok()?,
    };
    let on = if stream == StreamHandle::PER_THREAD {
        StreamHandle::LEGACY
    } else {
        stream
    };
    let recorded = match driver.event_record(device, ev, on) {
        Ok(()) => true,
        // A stream being captured takes no fence: the epoch stays open, tried again later.
        Err(crate::error::Error::Graph(crate::error::GraphError::Refused { .. })) => false,
        Err(_) => driver
            .event_record(device, ev, StreamHandle::LEGACY)
            .is_ok(),
    };
    if recorded {
        Some(ev)
    } else {
        spare.push(ev);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::sim::SimDriver;

    #[test]
    fn keys_fold_default_into_legacy_and_isolate_per_thread() {
        assert_eq!(free_key(StreamHandle::DEFAULT), 1);
        assert_eq!(alloc_key(StreamHandle::DEFAULT), Some(1));
        assert_eq!(free_key(StreamHandle::PER_THREAD), PER_THREAD_FREES);
        assert_eq!(alloc_key(StreamHandle::PER_THREAD), None);
        assert_eq!(free_key(StreamHandle(7)), 7);
    }

    #[test]
    fn a_busy_stream_is_fenced_and_released_when_its_work_completes() {
        let drv: Arc<dyn Driver> =
            Arc::new(SimDriver::new(&crate::config::Config::default()).unwrap());
        let s = drv.stream_create(0, false).unwrap();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        drv.stream_add_callback(
            0,
            s,
            Box::new(move |_| {
                let _ = rx.recv();
            }),
        )
        .unwrap();
        let mut order = StreamOrder::new(0, Arc::clone(&drv));
        assert_eq!(order.on_free(s.0), 0);
        assert_eq!(order.released(s.0), None, "the stream is gated");
        assert_eq!(order.on_free(s.0), 1, "the fence closed epoch 0");
        tx.send(()).unwrap();
        drv.stream_synchronize(0, s).unwrap();
        assert_eq!(order.released(s.0), Some(1));
    }
}
