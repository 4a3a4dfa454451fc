//! The bookkeeping of stream capture that the simulator and OpenCL share: which streams are being
//! captured into which recording (the origin and the streams that joined it through events),
//! which events were recorded inside a capture, and the nodes and kept values recorded so far.
//! The node type is the backend's own.
//!
//! While no capture is active, asking costs one atomic load: the queueing paths of the drivers
//! stay as fast as they were.
//!
//! This module touches only its own table.

use std::any::Any;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::graph::{WAITS, callback_outside_capture, external_event, refused};
use super::{EventHandle, StreamHandle};
use crate::error::{GraphError, Result};
use crate::sync::lock;

/// What one capture recorded so far.
pub(crate) struct Recording<N> {
    /// The stream that began the capture.
    pub(crate) origin: StreamHandle,
    /// The nodes, in the order they were queued.
    pub(crate) nodes: Vec<N>,
    /// Values the captured work keeps alive ([`Driver::stream_keepalive`](super::Driver::stream_keepalive)).
    pub(crate) keep: Vec<Box<dyn Any + Send>>,
    /// Events recorded inside the capture, each once, in the order first recorded.
    pub(crate) events: Vec<EventHandle>,
}

struct Table<N> {
    /// `(device, stream)` → capture id.
    streams: HashMap<(usize, u64), u64>,
    /// `(device, event)` → the capture that recorded it last.
    events: HashMap<(usize, u64), u64>,
    captures: HashMap<u64, Recording<N>>,
    next: u64,
}

/// The captures of one driver.
pub(crate) struct Captures<N> {
    /// Streams being captured (origins and joined): zero means nothing to look up.
    active: AtomicUsize,
    table: Mutex<Table<N>>,
}

impl<N> Default for Captures<N> {
    fn default() -> Self {
        Captures {
            active: AtomicUsize::new(0),
            table: Mutex::new(Table {
                streams: HashMap::new(),
                events: HashMap::new(),
                captures: HashMap::new(),
                next: 1,
            }),
        }
    }
}

impl<N> Captures<N> {
    /// Starts a capture with `stream` as its origin.
    pub(crate) fn begin(&self, device: usize, stream: StreamHandle) -> Result<()> {
        if stream.0 <= StreamHandle::PER_THREAD.0 {
            return Err(refused(
                "capturing a default stream",
                stream,
                "only created streams can be captured",
            ));
        }
        let mut t = lock(&self.table);
        if t.streams.contains_key(&(device, stream.0)) {
            return Err(GraphError::AlreadyCapturing { stream: stream.0 }.into());
        }
        let id = t.next;
        t.next += 1;
        t.streams.insert((device, stream.0), id);
        t.captures.insert(
            id,
            Recording {
                origin: stream,
                nodes: Vec::new(),
                keep: Vec::new(),
                events: Vec::new(),
            },
        );
        self.active.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// Ends the capture `stream` began; every stream of it leaves it.
    pub(crate) fn end(&self, device: usize, stream: StreamHandle) -> Result<Recording<N>> {
        self.end_with(device, stream, |_| Ok(())).map(|(r, ())| r)
    }

    /// [`end`](Self::end), once `prepare` has made from the recording what its graph needs: when
    /// `prepare` fails, the capture goes on as it was (nothing recorded is lost) and its error is
    /// returned. `prepare` runs with the table locked: it must not call back into it.
    ///
    /// # Errors
    /// [`GraphError::NotCapturing`] when `stream` did not begin a capture; `prepare`'s error.
    pub(crate) fn end_with<T>(
        &self,
        device: usize,
        stream: StreamHandle,
        prepare: impl FnOnce(&Recording<N>) -> Result<T>,
    ) -> Result<(Recording<N>, T)> {
        let mut t = lock(&self.table);
        let id = match t.streams.get(&(device, stream.0)) {
            Some(&id) if t.captures[&id].origin == stream => id,
            _ => return Err(GraphError::NotCapturing { stream: stream.0 }.into()),
        };
        let prepared = prepare(&t.captures[&id])?;
        let before = t.streams.len();
        t.streams.retain(|_, c| *c != id);
        self.active
            .fetch_sub(before - t.streams.len(), Ordering::SeqCst);
        t.events.retain(|_, c| *c != id);
        let recording = t.captures.remove(&id);
        Ok((
            recording.expect("a capture of a capturing stream"),
            prepared,
        ))
    }

    /// `stream` was destroyed: the capture it began is dropped, or it leaves the one it joined.
    pub(crate) fn forget_stream(&self, device: usize, stream: StreamHandle) {
        if self.active.load(Ordering::SeqCst) == 0 {
            return;
        }
        let origin = {
            let mut t = lock(&self.table);
            let Some(&id) = t.streams.get(&(device, stream.0)) else {
                return;
            };
            if t.captures[&id].origin != stream {
                t.streams.remove(&(device, stream.0));
                self.active.fetch_sub(1, Ordering::SeqCst);
                return;
            }
            stream
        };
        let _ = self.end(device, origin);
    }

    /// Whether `stream` is being captured.
    pub(crate) fn is_capturing(&self, device: usize, stream: StreamHandle) -> bool {
        self.active.load(Ordering::SeqCst) != 0
            && lock(&self.table).streams.contains_key(&(device, stream.0))
    }

    /// A stream of `device` being captured, if any.
    pub(crate) fn any_on(&self, device: usize) -> Option<StreamHandle> {
        if self.active.load(Ordering::SeqCst) == 0 {
            return None;
        }
        lock(&self.table)
            .streams
            .keys()
            .find(|(d, _)| *d == device)
            .map(|&(_, s)| StreamHandle(s))
    }

    /// Runs `f` on the recording `stream` is captured into; `None` (without calling `f`) when it
    /// is not being captured.
    pub(crate) fn record<R>(
        &self,
        device: usize,
        stream: StreamHandle,
        f: impl FnOnce(&mut Recording<N>) -> R,
    ) -> Option<R> {
        if self.active.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let mut t = lock(&self.table);
        let id = *t.streams.get(&(device, stream.0))?;
        t.captures.get_mut(&id).map(f)
    }

    /// Appends the node `make` builds to the recording of `stream`: `Some(Ok(()))` when it is
    /// being captured, `None` (without calling `make`) otherwise, for the caller to run the
    /// operation instead.
    pub(crate) fn capture_node(
        &self,
        device: usize,
        stream: StreamHandle,
        make: impl FnOnce() -> N,
    ) -> Option<Result<()>> {
        self.record(device, stream, |rec| rec.nodes.push(make()))
            .map(Ok)
    }

    /// Appends the callback node `make` builds to the recording of `stream`.
    ///
    /// # Errors
    /// [`GraphError::Refused`] when `stream` is not being captured.
    pub(crate) fn capture_callback(
        &self,
        device: usize,
        stream: StreamHandle,
        make: impl FnOnce() -> N,
    ) -> Result<()> {
        self.capture_node(device, stream, make)
            .unwrap_or_else(|| Err(callback_outside_capture(stream)))
    }

    /// Keeps `value` with the capture of `stream` (`Ok`); gives it back when `stream` is not
    /// being captured.
    pub(crate) fn keep(
        &self,
        device: usize,
        stream: StreamHandle,
        value: Box<dyn Any + Send>,
    ) -> std::result::Result<(), Box<dyn Any + Send>> {
        let mut value = Some(value);
        match self.record(device, stream, |rec| rec.keep.extend(value.take())) {
            Some(()) => Ok(()),
            None => Err(value.expect("not taken outside a capture")),
        }
    }

    /// An event record on `stream`: inside a capture it is recorded there (`true`: nothing to
    /// queue); outside, an earlier record inside a capture is forgotten (`false`: queue it).
    pub(crate) fn record_event(
        &self,
        device: usize,
        event: EventHandle,
        stream: StreamHandle,
    ) -> bool {
        if self.active.load(Ordering::SeqCst) == 0 {
            return false;
        }
        let mut t = lock(&self.table);
        match t.streams.get(&(device, stream.0)).copied() {
            Some(id) => {
                t.events.insert((device, event.0), id);
                let rec = t.captures.get_mut(&id).expect("a live capture");
                if !rec.events.contains(&event) {
                    rec.events.push(event);
                }
                true
            }
            None => {
                t.events.remove(&(device, event.0));
                false
            }
        }
    }

    /// `stream` waits for `event`: inside a capture, an event recorded in the same capture is an
    /// edge of the graph (`Ok(true)`: nothing to queue), any other event is refused; outside a
    /// capture, an event recorded inside one makes `stream` join that capture (`Ok(true)`);
    /// otherwise `Ok(false)`: queue the wait.
    pub(crate) fn wait_event(
        &self,
        device: usize,
        stream: StreamHandle,
        event: EventHandle,
    ) -> Result<bool> {
        if self.active.load(Ordering::SeqCst) == 0 {
            return Ok(false);
        }
        let mut t = lock(&self.table);
        let recorded_in = t.events.get(&(device, event.0)).copied();
        match (t.streams.get(&(device, stream.0)).copied(), recorded_in) {
            (Some(id), Some(e)) if id == e => Ok(true),
            (Some(_), _) => Err(external_event(stream, event)),
            (None, Some(e)) => {
                t.streams.insert((device, stream.0), e);
                self.active.fetch_add(1, Ordering::SeqCst);
                Ok(true)
            }
            (None, None) => Ok(false),
        }
    }

    /// Refuses `operation` on `stream` while it is being captured, saying why (`reason`).
    ///
    /// # Errors
    /// [`GraphError::Refused`] when `stream` is being captured.
    pub(crate) fn refuse(
        &self,
        device: usize,
        stream: StreamHandle,
        operation: &str,
        reason: &'static str,
    ) -> Result<()> {
        if self.is_capturing(device, stream) {
            return Err(refused(operation, stream, reason));
        }
        Ok(())
    }

    /// Refuses launching a graph on `stream` while it is being captured.
    ///
    /// # Errors
    /// [`GraphError::Refused`] when `stream` is being captured.
    pub(crate) fn refuse_graph_launch(&self, device: usize, stream: StreamHandle) -> Result<()> {
        self.refuse(
            device,
            stream,
            "launching a graph",
            "graphs are not captured into graphs",
        )
    }

    /// Refuses waiting (`operation`) for an event recorded inside a capture that is still open.
    ///
    /// # Errors
    /// [`GraphError::Refused`] naming the capture's origin stream.
    pub(crate) fn refuse_captured_event(
        &self,
        device: usize,
        event: EventHandle,
        operation: &str,
    ) -> Result<()> {
        match self.event_capture(device, event) {
            Some(stream) => Err(refused(operation, stream, WAITS)),
            None => Ok(()),
        }
    }

    /// Refuses synchronizing `device` while one of its streams is being captured.
    ///
    /// # Errors
    /// [`GraphError::Refused`] naming a capturing stream.
    pub(crate) fn refuse_device_sync(&self, device: usize) -> Result<()> {
        match self.any_on(device) {
            Some(stream) => Err(refused("device synchronize", stream, WAITS)),
            None => Ok(()),
        }
    }

    /// The origin of the capture that last recorded `event`, if one did.
    pub(crate) fn event_capture(&self, device: usize, event: EventHandle) -> Option<StreamHandle> {
        if self.active.load(Ordering::SeqCst) == 0 {
            return None;
        }
        let t = lock(&self.table);
        let id = t.events.get(&(device, event.0))?;
        t.captures.get(id).map(|r| r.origin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_join_through_events_and_leave_at_the_end() {
        let c: Captures<u32> = Captures::default();
        let (a, b, e) = (StreamHandle(0x200), StreamHandle(0x201), EventHandle(9));
        assert!(c.begin(0, StreamHandle::LEGACY).is_err());
        c.begin(0, a).unwrap();
        assert!(c.begin(0, a).is_err());
        assert!(c.record(0, a, |r| r.nodes.push(1)).is_some());
        assert!(c.record(0, b, |r| r.nodes.push(2)).is_none());
        assert!(
            !c.wait_event(0, b, e).unwrap(),
            "an event never recorded in a capture"
        );
        assert!(c.record_event(0, e, a));
        assert_eq!(c.event_capture(0, e), Some(a));
        assert!(c.wait_event(0, b, e).unwrap(), "b joins");
        assert!(c.is_capturing(0, b));
        c.record(0, b, |r| r.nodes.push(3)).unwrap();
        assert!(c.end(0, b).is_err(), "only the origin ends a capture");
        let rec = c.end(0, a).unwrap();
        assert_eq!(rec.nodes, [1, 3]);
        assert_eq!(rec.events, [e]);
        assert!(!c.is_capturing(0, b) && !c.is_capturing(0, a));
        assert_eq!(c.event_capture(0, e), None);
        assert_eq!(c.active.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn waiting_inside_a_capture_for_an_outside_event_is_refused() {
        let c: Captures<u32> = Captures::default();
        let (a, b, e) = (StreamHandle(0x200), StreamHandle(0x201), EventHandle(9));
        c.begin(0, a).unwrap();
        assert!(!c.record_event(0, e, b), "recorded outside the capture");
        let err = c.wait_event(0, a, e).unwrap_err();
        assert!(matches!(
            err,
            crate::error::Error::Graph(GraphError::ExternalEvent {
                stream: 0x200,
                event: 9
            })
        ));
    }
}
