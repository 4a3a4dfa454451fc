//! Events: markers recorded on a stream that complete when the stream reaches them.
//!
//! An event orders work across streams ([`Event::wait`]: a stream waits, the host does not),
//! lets the host wait for part of a stream ([`Event::synchronize`]), and measures real elapsed
//! device time between two records ([`Event::elapsed_time`], milliseconds).
//!
//! This module touches the driver (event calls) and the context (deferred destruction).
//!
//! ```
//! let s = rumba::stream().unwrap();
//! let (start, end) = (rumba::event(rumba::EventOptions::new()).unwrap(), rumba::event(rumba::EventOptions::new()).unwrap());
//! start.record(&s).unwrap();
//! s.memset(&rumba::current_context().unwrap().memalloc(1 << 20).unwrap(), 1).unwrap();
//! end.record(&s).unwrap();
//! end.synchronize().unwrap();
//! assert!(start.elapsed_time(&end).unwrap() >= 0.0);
//! ```

use std::sync::Arc;

use crate::driver::EventHandle;
use crate::error::{Error, Result};
use crate::runtime::context::Context;
use crate::runtime::current_context;
use crate::stream::Stream;

struct EventInner {
    ctx: Context,
    handle: EventHandle,
    timing: bool,
}

impl Drop for EventInner {
    fn drop(&mut self) {
        let (driver, device, handle) = (
            Arc::clone(self.ctx.driver()),
            self.ctx.device_id(),
            self.handle,
        );
        self.ctx.defer_release(
            format!("event 0x{:x}", handle.0),
            Box::new(move || driver.event_destroy(device, handle)),
        );
    }
}

/// A marker in a stream's work. Cloning shares the event.
///
/// ```
/// let e = rumba::event(rumba::EventOptions::untimed()).unwrap();
/// assert!(e.query().unwrap()); // never recorded: complete
/// ```
#[derive(Clone)]
pub struct Event {
    inner: Arc<EventInner>,
}

/// How [`event`] creates an event (Numba's `cuda.event(timing=True)` keyword).
///
/// Timing is on by default, as in Numba; an event used only to order streams can leave it off,
/// which is cheaper on CUDA (`CU_EVENT_DISABLE_TIMING`).
///
/// ```
/// use rumba::EventOptions;
/// assert!(EventOptions::new().is_timing());
/// assert_eq!(EventOptions::default(), EventOptions::new());
/// assert!(!EventOptions::untimed().is_timing());
/// assert_eq!(EventOptions::new().timing(false), EventOptions::untimed());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventOptions {
    timing: bool,
}

impl EventOptions {
    /// Timing on (Numba's default): [`Event::elapsed_time`] works.
    ///
    /// ```
    /// let e = rumba::event(rumba::EventOptions::new()).unwrap();
    /// assert!(e.timing());
    /// ```
    pub const fn new() -> Self {
        EventOptions { timing: true }
    }

    /// Timing off: for ordering streams only ([`Event::elapsed_time`] refuses such an event).
    ///
    /// ```
    /// let e = rumba::event(rumba::EventOptions::untimed()).unwrap();
    /// assert!(!e.timing());
    /// ```
    pub const fn untimed() -> Self {
        EventOptions { timing: false }
    }

    /// The same options with timing on or off.
    ///
    /// ```
    /// let timeline = false; // e.g. a command-line switch
    /// let opts = rumba::EventOptions::new().timing(timeline);
    /// assert!(!opts.is_timing());
    /// ```
    pub const fn timing(self, on: bool) -> Self {
        EventOptions { timing: on }
    }

    /// Whether events made with these options are timed.
    ///
    /// ```
    /// assert!(rumba::EventOptions::default().is_timing());
    /// ```
    pub const fn is_timing(&self) -> bool {
        self.timing
    }
}

impl Default for EventOptions {
    fn default() -> Self {
        EventOptions::new()
    }
}

/// Creates an event on the current device (Numba's `cuda.event`); timed unless `options` say
/// otherwise (see [`EventOptions`]).
///
/// # Errors
/// The errors of [starting the runtime](crate::current_context#errors); [`Error::Driver`] when the
/// backend cannot create an event.
///
/// ```
/// let e = rumba::event(rumba::EventOptions::new()).unwrap();
/// assert!(e.timing());
/// ```
pub fn event(options: EventOptions) -> Result<Event> {
    let timing = options.timing;
    let ctx = current_context()?;
    let handle = ctx.driver().event_create(ctx.device_id(), timing)?;
    Ok(Event {
        inner: Arc::new(EventInner {
            ctx,
            handle,
            timing,
        }),
    })
}

impl Event {
    /// The raw handle.
    ///
    /// ```
    /// let (a, b) = (rumba::event(rumba::EventOptions::untimed()).unwrap(), rumba::event(rumba::EventOptions::untimed()).unwrap());
    /// assert_ne!(a.handle(), b.handle());
    /// assert_eq!(a.clone().handle(), a.handle()); // clones share the event
    /// ```
    pub fn handle(&self) -> EventHandle {
        self.inner.handle
    }

    /// True if created with timing enabled.
    ///
    /// ```
    /// assert!(!rumba::event(rumba::EventOptions::untimed()).unwrap().timing());
    /// ```
    pub fn timing(&self) -> bool {
        self.inner.timing
    }

    fn check_context(&self, stream: &Stream) -> Result<usize> {
        if stream.context().same(&self.inner.ctx) {
            Ok(self.inner.ctx.device_id())
        } else {
            Err(Error::WrongContext {
                what: format!("an event of device {}", self.inner.ctx.device_id()),
                with: stream.to_string(),
            })
        }
    }

    /// Records the event on `stream`: it completes when the stream reaches this point.
    ///
    /// # Errors
    /// [`Error::WrongContext`] when `stream` belongs to another context (another device) than the
    /// event; [`Error::Driver`] from the backend's record call.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let e = rumba::event(rumba::EventOptions::untimed()).unwrap();
    /// s.memset(&s.memalloc(1 << 16).unwrap(), 1).unwrap();
    /// e.record(&s).unwrap();
    /// e.synchronize().unwrap();
    /// assert!(e.query().unwrap()); // the stream has passed the record
    /// ```
    pub fn record(&self, stream: &Stream) -> Result<()> {
        let dev = self.check_context(stream)?;
        let driver = self.inner.ctx.driver();
        match driver.graphs() {
            // A program's record on a capturing stream becomes part of the graph.
            Some(g) if g.is_capturing(dev, stream.handle()) => {
                g.record_event(dev, self.inner.handle, stream.handle())
            }
            _ => driver.event_record(dev, self.inner.handle, stream.handle()),
        }
    }

    /// Makes all future work on `stream` wait for this event's most recent record. The host does
    /// not wait.
    ///
    /// # Errors
    /// [`Error::WrongContext`] when `stream` belongs to another context than the event;
    /// [`Error::Driver`] from the backend's wait call.
    ///
    /// ```
    /// let (a, b) = (rumba::stream().unwrap(), rumba::stream().unwrap());
    /// let e = rumba::event(rumba::EventOptions::untimed()).unwrap();
    /// e.record(&a).unwrap();
    /// e.wait(&b).unwrap();
    /// b.synchronize().unwrap();
    /// assert!(e.query().unwrap()); // b's synchronization waited for a's record too
    /// ```
    pub fn wait(&self, stream: &Stream) -> Result<()> {
        let dev = self.check_context(stream)?;
        self.inner
            .ctx
            .driver()
            .stream_wait_event(dev, stream.handle(), self.inner.handle)
    }

    /// Blocks the host until the most recent record has completed.
    ///
    /// # Errors
    /// [`Error::InCallback`] when called from a stream callback; the error of the work before
    /// the record, where the backend reports it here.
    ///
    /// ```
    /// let e = rumba::event(rumba::EventOptions::untimed()).unwrap();
    /// e.synchronize().unwrap(); // never recorded: returns at once
    /// assert!(e.query().unwrap());
    /// ```
    pub fn synchronize(&self) -> Result<()> {
        self.inner
            .ctx
            .driver()
            .event_synchronize(self.inner.ctx.device_id(), self.inner.handle)
    }

    /// True when the most recent record has completed (or the event was never recorded).
    ///
    /// # Errors
    /// [`Error::Driver`] from the backend's query.
    ///
    /// ```
    /// assert!(rumba::event(rumba::EventOptions::untimed()).unwrap().query().unwrap());
    /// ```
    pub fn query(&self) -> Result<bool> {
        self.inner
            .ctx
            .driver()
            .event_query(self.inner.ctx.device_id(), self.inner.handle)
    }

    /// Milliseconds of device time from this event's record to `end`'s. Both must be timing events
    /// whose records have completed.
    ///
    /// # Errors
    /// [`Error::WrongContext`] when the events belong to different contexts;
    /// [`Error::EventNotTimed`] / [`Error::EventNotRecorded`] when either was created without
    /// timing or never recorded;
    /// [`Error::NotReady`] when a record has not completed yet (on every backend).
    ///
    /// ```
    /// let (a, b) = (rumba::event(rumba::EventOptions::new()).unwrap(), rumba::event(rumba::EventOptions::new()).unwrap());
    /// assert!(matches!(a.elapsed_time(&b), Err(rumba::Error::EventNotRecorded { .. }))); // never recorded
    /// ```
    pub fn elapsed_time(&self, end: &Event) -> Result<f32> {
        if !self.inner.ctx.same(&end.inner.ctx) {
            return Err(Error::WrongContext {
                what: "the start event of elapsed_time".into(),
                with: "the end event".into(),
            });
        }
        self.inner.ctx.driver().event_elapsed_ms(
            self.inner.ctx.device_id(),
            self.inner.handle,
            end.inner.handle,
        )
    }
}

/// Milliseconds between two completed timing events (Numba's `event_elapsed_time`).
///
/// # Errors
/// As [`Event::elapsed_time`].
///
/// ```
/// let s = rumba::stream().unwrap();
/// let (a, b) = (rumba::event(rumba::EventOptions::new()).unwrap(), rumba::event(rumba::EventOptions::new()).unwrap());
/// a.record(&s).unwrap();
/// b.record(&s).unwrap();
/// s.synchronize().unwrap();
/// assert!(rumba::event_elapsed_time(&a, &b).unwrap() >= 0.0);
/// ```
pub fn event_elapsed_time(start: &Event, end: &Event) -> Result<f32> {
    start.elapsed_time(end)
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "<event 0x{:x} on device {}{}>",
            self.inner.handle.0,
            self.inner.ctx.device_id(),
            if self.inner.timing { ", timing" } else { "" }
        )
    }
}
