//! Streams: ordered queues of device work that run asynchronously to the host.
//!
//! [`stream()`] creates a stream; [`default_stream`], [`legacy_default_stream`] and
//! [`per_thread_default_stream`] return the built-in ones (handles 0, 1, 2);
//! [`external_stream`] wraps a handle created elsewhere and never destroys it.
//!
//! Host memory is the hazard of asynchronous copies: the device may still read or write it after
//! the call returns. The scoped API makes that impossible to get wrong from safe code —
//! [`Stream::auto_synchronize`] hands the closure a [`StreamScope`](crate::transfer::StreamScope) whose copies borrow host memory
//! for the whole scope, and the scope synchronizes the stream before returning (also when the
//! closure panics), exactly as `std::thread::scope` joins its threads. Device buffers used by
//! queued work are kept alive by the stream until the work completes.
//!
//! Errors raised by queued work are reported by the next synchronization of the stream.
//!
//! This module touches the driver (stream calls) and the context (deferred destruction).
//!
//! ```
//! let s = rumba::stream().unwrap();
//! let buf = rumba::current_context().unwrap().memalloc(4).unwrap();
//! let mut back = [0u8; 4];
//! s.auto_synchronize(|scope| -> rumba::Result<()> {
//!     scope.copy(&buf, &[1, 2, 3, 4])?;
//!     scope.copy(&mut back, &buf)
//! }).unwrap();
//! assert_eq!(back, [1, 2, 3, 4]);
//! ```

pub mod event;
mod graph;
pub use graph::Graph;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll, Waker};

use crate::driver::{DeviceCopy, On, StreamHandle};
use crate::error::{Error, Result};
use crate::memory::DeviceBuffer;
use crate::memory::gate::Lease;
use crate::memory::holds::{Owner, StreamKeepAlive};
use crate::runtime::context::Context;
use crate::runtime::current_context;
use crate::sync::lock;

/// Which kind of stream a [`Stream`] is.
///
/// ```
/// assert_eq!(rumba::default_stream().unwrap().kind(), rumba::StreamKind::Default);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StreamKind {
    /// Handle 0: the default stream (legacy semantics, or per-thread when so configured).
    Default,
    /// Handle 1: the legacy default stream.
    LegacyDefault,
    /// Handle 2: the per-thread default stream.
    PerThreadDefault,
    /// Created elsewhere and wrapped; never destroyed by rumba.
    External,
    /// Created by [`stream()`]; destroyed (deferred) when the last handle drops.
    Created,
}

struct StreamInner {
    ctx: Context,
    handle: StreamHandle,
    kind: StreamKind,
    /// The context's reset count when this stream last began a capture (a graph made of the
    /// capture is refused after a later reset).
    capture_resets: std::sync::atomic::AtomicU64,
}

impl Drop for StreamInner {
    fn drop(&mut self) {
        if self.kind == StreamKind::Created {
            let (driver, device, handle) = (
                Arc::clone(self.ctx.driver()),
                self.ctx.device_id(),
                self.handle,
            );
            // A capture this stream began can no longer be ended by the program: end it now and
            // drop what it recorded (else the device counts as capturing, and refuses to
            // synchronize, until the deferred destruction runs). Not on a callback thread, where
            // a driver may make no calls: the stream's destruction ends it then.
            if !crate::driver::callback::is_callback_thread() {
                if let Some(g) = driver.graphs() {
                    g.abort_capture(device, handle);
                }
            }
            self.ctx.defer_release(
                format!("stream 0x{:x}", handle.0),
                Box::new(move || driver.stream_destroy(device, handle)),
            );
        }
    }
}

/// A queue of device work. Cloning shares the stream.
///
/// ```
/// let s = rumba::stream().unwrap();
/// s.synchronize().unwrap();
/// assert!(s.query().unwrap());
/// ```
#[derive(Clone)]
pub struct Stream {
    inner: Arc<StreamInner>,
}

/// Creates a new (blocking) stream on the current device.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Driver`] when the
/// backend cannot create a stream.
///
/// ```
/// let s = rumba::stream().unwrap();
/// assert_eq!(s.kind(), rumba::StreamKind::Created);
/// assert!(s.handle().0 > 2);
/// ```
pub fn stream() -> Result<Stream> {
    let ctx = current_context()?;
    let handle = ctx.driver().stream_create(ctx.device_id(), false)?;
    Ok(Stream::wrap(ctx, handle, StreamKind::Created))
}

/// The default stream (handle 0): the legacy default stream, or — with
/// `RUMBA_PER_THREAD_DEFAULT_STREAM=1` ([`Config::per_thread_default_stream`](crate::Config::per_thread_default_stream),
/// Numba's `CUDA_PER_THREAD_DEFAULT_STREAM`) — the calling thread's per-thread default stream.
/// Operations given no stream run on it either way.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors).
///
/// ```
/// assert_eq!(rumba::default_stream().unwrap().handle().0, 0);
/// ```
pub fn default_stream() -> Result<Stream> {
    Ok(Stream::wrap(
        current_context()?,
        StreamHandle::DEFAULT,
        StreamKind::Default,
    ))
}

/// The legacy default stream (handle 1).
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors).
///
/// ```
/// assert_eq!(rumba::legacy_default_stream().unwrap().handle().0, 1);
/// ```
pub fn legacy_default_stream() -> Result<Stream> {
    Ok(Stream::wrap(
        current_context()?,
        StreamHandle::LEGACY,
        StreamKind::LegacyDefault,
    ))
}

/// The calling thread's per-thread default stream (handle 2).
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors).
///
/// ```
/// assert_eq!(rumba::per_thread_default_stream().unwrap().handle().0, 2);
/// ```
pub fn per_thread_default_stream() -> Result<Stream> {
    Ok(Stream::wrap(
        current_context()?,
        StreamHandle::PER_THREAD,
        StreamKind::PerThreadDefault,
    ))
}

/// Wraps a stream handle created outside rumba (e.g. by another library). rumba never destroys it.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::InvalidHandle`]
/// where the backend can tell that `handle` is not a live stream of
/// the current device (the sim can, CUDA cannot).
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// let raw = ctx.driver().stream_create(0, false).unwrap();
/// // SAFETY: `raw` is a live stream of device 0, destroyed below only after `s` is gone.
/// let s = unsafe { rumba::external_stream(raw) }.unwrap();
/// assert_eq!(s.handle(), raw);
/// assert!(s.to_string().starts_with("<external stream"));
/// ```
///
/// # Safety
/// `handle` must be a live stream of the current device's context, and stay alive for as long as
/// the returned `Stream` (or work queued on it) is in use. The sim checks handles and reports an
/// unknown one as an error, but the CUDA driver cannot check them: a stale or made-up handle there
/// is undefined behaviour.
pub unsafe fn external_stream(handle: StreamHandle) -> Result<Stream> {
    Ok(Stream::wrap(
        current_context()?,
        handle,
        StreamKind::External,
    ))
}

impl Stream {
    fn wrap(ctx: Context, handle: StreamHandle, kind: StreamKind) -> Stream {
        Stream {
            inner: Arc::new(StreamInner {
                ctx,
                handle,
                kind,
                capture_resets: std::sync::atomic::AtomicU64::new(0),
            }),
        }
    }

    /// The raw handle.
    ///
    /// ```
    /// assert_eq!(rumba::legacy_default_stream().unwrap().handle(), rumba::driver::StreamHandle::LEGACY);
    /// ```
    pub fn handle(&self) -> StreamHandle {
        self.inner.handle
    }

    /// Which kind of stream this is.
    ///
    /// ```
    /// assert_eq!(rumba::per_thread_default_stream().unwrap().kind(), rumba::StreamKind::PerThreadDefault);
    /// ```
    pub fn kind(&self) -> StreamKind {
        self.inner.kind
    }

    /// The context the stream belongs to.
    ///
    /// ```
    /// assert_eq!(rumba::stream().unwrap().context().device_id(), 0);
    /// ```
    pub fn context(&self) -> &Context {
        &self.inner.ctx
    }

    pub(crate) fn device(&self) -> usize {
        self.inner.ctx.device_id()
    }

    /// Work queued on this stream, in its device's context.
    pub(crate) fn on(&self) -> On {
        On::stream(self.device(), self.inner.handle)
    }

    /// Waits for all queued work; reports the first error of that work not yet reported.
    ///
    /// # Errors
    /// The first unreported error of the stream's work ([`Error::KernelFault`], a failed copy);
    /// [`Error::InCallback`] when called from a stream callback, which would wait for itself.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// s.memset(&s.memalloc(1 << 16).unwrap(), 1).unwrap();
    /// s.synchronize().unwrap();
    /// assert!(s.query().unwrap());
    /// ```
    pub fn synchronize(&self) -> Result<()> {
        self.inner
            .ctx
            .driver()
            .stream_synchronize(self.device(), self.inner.handle)
    }

    /// True when all queued work has completed.
    ///
    /// # Errors
    /// [`Error::Driver`] when the backend's query fails.
    ///
    /// ```
    /// assert!(rumba::stream().unwrap().query().unwrap());
    /// ```
    pub fn query(&self) -> Result<bool> {
        self.inner
            .ctx
            .driver()
            .stream_query(self.device(), self.inner.handle)
    }

    /// Queues `callback` to run off the host thread once all earlier work is done. It receives the
    /// stream and `Ok(())`, or the error of earlier failed work.
    ///
    /// # Errors
    /// [`Error::Driver`] when the backend cannot queue the callback (the callback is dropped unrun).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// s.add_callback(move |stream, status| tx.send((stream.handle(), status.is_ok())).unwrap()).unwrap();
    /// assert_eq!(rx.recv().unwrap(), (s.handle(), true));
    /// ```
    pub fn add_callback<F>(&self, callback: F) -> Result<()>
    where
        F: FnOnce(&Stream, Result<()>) + Send + 'static,
    {
        let me = self.clone();
        self.inner.ctx.driver().stream_add_callback(
            self.device(),
            self.inner.handle,
            Box::new(move |status| callback(&me, status)),
        )
    }

    /// A future that completes when all work queued so far is done, usable from any executor.
    /// It resolves to the stream itself (as Numba's `async_done` future does), so code awaiting
    /// several streams can tell which one finished.
    ///
    /// # Errors
    /// The driver's error when the completion callback cannot be queued (an unknown stream).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let done = s.async_done().unwrap();
    /// // Any executor works; a minimal one:
    /// fn block_on<F: std::future::Future>(f: F) -> F::Output {
    ///     use std::task::{Context, Poll, Wake, Waker};
    ///     struct T(std::thread::Thread);
    ///     impl Wake for T { fn wake(self: std::sync::Arc<Self>) { self.0.unpark() } }
    ///     let waker = Waker::from(std::sync::Arc::new(T(std::thread::current())));
    ///     let mut f = std::pin::pin!(f);
    ///     loop {
    ///         if let Poll::Ready(v) = f.as_mut().poll(&mut Context::from_waker(&waker)) { return v; }
    ///         std::thread::park();
    ///     }
    /// }
    /// let finished = block_on(done).unwrap();
    /// assert_eq!(finished.handle(), s.handle()); // resolves to the stream
    /// ```
    pub fn async_done(&self) -> Result<StreamDone> {
        let shared = Arc::new(Mutex::new(DoneState {
            status: None,
            waker: None,
        }));
        let s = Arc::clone(&shared);
        self.inner.ctx.driver().stream_add_callback(
            self.device(),
            self.inner.handle,
            Box::new(move |status| {
                let waker = {
                    let mut st = lock(&s);
                    st.status = Some(status);
                    st.waker.take()
                };
                if let Some(w) = waker {
                    w.wake();
                }
            }),
        )?;
        Ok(StreamDone {
            shared,
            stream: self.clone(),
        })
    }

    /// Queues a memset of the whole buffer; the stream keeps the buffer alive until it has run.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when a context reset freed `buf`'s memory; the driver's queueing
    /// errors: [`Error::InvalidAddress`] where the backend checks ranges (sim, OpenCL) and `buf`
    /// is not memory of the stream's device; [`Error::Driver`] for an
    /// unknown stream. A failure of the memset itself comes from the next synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let buf = rumba::current_context().unwrap().memalloc(4).unwrap();
    /// s.memset(&buf, 3).unwrap();
    /// s.synchronize().unwrap();
    /// let mut out = [0u8; 4];
    /// rumba::copy(&mut out, &buf).unwrap();
    /// assert_eq!(out, [3; 4]);
    /// ```
    pub fn memset(&self, buf: &DeviceBuffer, value: u8) -> Result<()> {
        let drv = self.inner.ctx.driver();
        let lease = Lease::enter()?;
        let dst = buf.addr(&lease, 0, buf.len())?;
        // SAFETY: the whole of a live device allocation, kept alive until the stream reaches it.
        unsafe { drv.memset(self.on(), dst, value, buf.len())? };
        self.hold([buf.clone()])
    }

    /// Queues a device-to-device copy of `src` into `dst` (equal lengths). `dst` must be memory
    /// of the stream's device; `src` may be another device's (a peer copy, ordered with this
    /// stream only: wait for the source device's work first). Spelled
    /// [`stream.copy(&dst, &src)`](Stream::copy) now.
    ///
    /// # Errors
    /// [`Error::BufferLength`] when the lengths differ; [`Error::WrongDevice`] when `dst` is not
    /// memory of the stream's device; [`Error::StaleHandle`] when a context reset freed either
    /// buffer's memory; the driver's queueing errors.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let (a, b) = (ctx.memalloc(2).unwrap(), ctx.memalloc(2).unwrap());
    /// rumba::copy(&a, &[4, 5][..]).unwrap();
    /// let s = rumba::stream().unwrap();
    /// s.copy(&b, &a).unwrap();
    /// s.synchronize().unwrap();
    /// let mut out = [0u8; 2];
    /// rumba::copy(&mut out[..], &b).unwrap();
    /// assert_eq!(out, [4, 5]);
    /// ```
    #[deprecated(note = "use stream.copy(&dst, &src)")]
    pub fn copy_device(&self, dst: &DeviceBuffer, src: &DeviceBuffer) -> Result<()> {
        self.copy_device_impl(dst, src)
    }

    /// Queues the copy of `src` into `dst` (equal lengths) on this stream; what `Stream::copy`
    /// runs for two buffers.
    pub(crate) fn copy_device_impl(&self, dst: &DeviceBuffer, src: &DeviceBuffer) -> Result<()> {
        if dst.len() != src.len() {
            return Err(Error::BufferLength {
                expected: dst.len(),
                found: src.len(),
            });
        }
        if dst.device() != self.device() && !dst.is_empty() {
            return Err(Error::WrongDevice {
                what: "the destination buffer".into(),
                expected: self.device(),
                found: dst.device(),
            });
        }
        let lease = Lease::enter()?;
        let (to, from) = (
            dst.addr(&lease, 0, dst.len())?,
            src.addr(&lease, 0, src.len())?,
        );
        let copy = DeviceCopy {
            dst: to,
            src: from,
            bytes: src.len(),
        };
        let drv = self.inner.ctx.driver();
        if src.device() != self.device() && !src.is_empty() {
            // SAFETY: as below; a peer copy between the two devices' allocations.
            unsafe { drv.memcpy_peer(self.on(), src.device(), copy)? };
            return self.hold([dst.clone(), src.clone()]);
        }
        // SAFETY: two live device ranges of equal length, kept alive until the stream reaches the
        // copy.
        unsafe { drv.memcpy_dtod(self.on(), copy)? };
        self.hold([dst.clone(), src.clone()])
    }

    /// Allocates `bytes` of device memory for work on this stream (stream-ordered, see
    /// [`Context::memalloc_on`]); the buffer's last drop frees it on this stream.
    ///
    /// # Errors
    /// As [`Context::memalloc_on`](crate::Context::memalloc_on).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let buf = s.memalloc(64).unwrap();
    /// s.memset(&buf, 1).unwrap();
    /// let mut out = [0u8; 64];
    /// s.auto_synchronize(|scope| scope.copy(&mut out, &buf)).unwrap();
    /// assert_eq!(out, [1; 64]);
    /// drop(buf); // freed on `s`: the pool reuses it there at once
    /// ```
    pub fn memalloc(&self, bytes: usize) -> Result<DeviceBuffer> {
        self.inner.ctx.memalloc_on(bytes, self.inner.handle)
    }

    /// The stream entry of a CUDA Array Interface description of memory bound to this stream:
    /// never 0 (the interface forbids it). Handle 0 is described as none under legacy semantics
    /// and as 2 (the per-thread default stream) when per-thread default streams are configured.
    pub(crate) fn interface_handle(&self) -> Option<u64> {
        match self.inner.handle {
            StreamHandle::DEFAULT if self.inner.ctx.config().per_thread_default_stream => {
                Some(StreamHandle::PER_THREAD.0)
            }
            StreamHandle::DEFAULT => None,
            h => Some(h.0),
        }
    }

    /// Keeps device buffers alive until the stream reaches this point, as holds of queued work
    /// that an allocation short of memory can wait for ([`crate::memory::holds`]).
    ///
    /// The hold keeps this stream alive too: a stream the program drops is destroyed only after
    /// the work holding memory has run, so an allocation waiting for that memory waits on a live
    /// stream. On a capturing stream the hold belongs to the graph instead (see
    /// [`crate::memory::holds`]): it keeps no stream alive and no allocation waits for it.
    ///
    /// Callers queue work on the buffers first, then hold them. If the stream cannot take the
    /// hold, the work already queued may still use them, so the buffers are let go only after
    /// the stream has drained — or, where this thread cannot wait for it (a stream callback) or
    /// the wait fails, never: a leak, not a use after free.
    pub(crate) fn hold(&self, buffers: impl IntoIterator<Item = DeviceBuffer>) -> Result<()> {
        let buffers: Vec<DeviceBuffer> = buffers.into_iter().collect();
        if buffers.is_empty() {
            return Ok(());
        }
        let fallback = buffers.clone();
        // On a capturing stream the hold goes into the graph: never an orphan, and no keep-alive
        // of this stream (which would keep a capture the program can no longer end alive).
        let owner = if self.is_capturing() {
            Owner::Graph
        } else {
            Owner::Stream(Some(Arc::clone(&self.inner) as StreamKeepAlive))
        };
        match self.keep_alive(self.inner.ctx.hold(buffers, self.inner.handle, owner)) {
            Ok(()) => Ok(()),
            Err(e) => {
                if crate::driver::callback::is_callback_thread() || self.synchronize().is_err() {
                    std::mem::forget(fallback);
                }
                Err(e)
            }
        }
    }

    /// Keeps `value` alive until the stream reaches this point.
    pub(crate) fn keep_alive<T: Send + 'static>(&self, value: T) -> Result<()> {
        self.inner
            .ctx
            .driver()
            .stream_keepalive(self.device(), self.inner.handle, Box::new(value))
    }
}

impl fmt::Display for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dev = self.device();
        match self.inner.kind {
            StreamKind::Default => write!(f, "<default stream on device {dev}>"),
            StreamKind::LegacyDefault => write!(f, "<legacy default stream on device {dev}>"),
            StreamKind::PerThreadDefault => {
                write!(f, "<per-thread default stream on device {dev}>")
            }
            StreamKind::External => write!(
                f,
                "<external stream 0x{:x} on device {dev}>",
                self.inner.handle.0
            ),
            StreamKind::Created => {
                write!(f, "<stream 0x{:x} on device {dev}>", self.inner.handle.0)
            }
        }
    }
}

impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

struct DoneState {
    status: Option<Result<()>>,
    waker: Option<Waker>,
}

/// A future that completes when a stream has finished the work queued before it was created.
///
/// Its output is the stream (Numba's future resolves to the stream too), or the error of earlier
/// failed work on the stream.
///
/// ```
/// let s = rumba::stream().unwrap();
/// let done = s.async_done().unwrap();
/// assert_eq!(done.stream().handle(), s.handle());
/// let _: &dyn std::future::Future<Output = rumba::Result<rumba::Stream>> = &done;
/// ```
pub struct StreamDone {
    shared: Arc<Mutex<DoneState>>,
    stream: Stream,
}

impl StreamDone {
    /// The stream this future waits for.
    ///
    /// ```
    /// let s = rumba::legacy_default_stream().unwrap();
    /// assert_eq!(s.async_done().unwrap().stream().kind(), rumba::StreamKind::LegacyDefault);
    /// ```
    pub fn stream(&self) -> &Stream {
        &self.stream
    }
}

impl Future for StreamDone {
    type Output = Result<Stream>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Result<Stream>> {
        let mut st = lock(&self.shared);
        match st.status.take() {
            Some(status) => Poll::Ready(status.map(|()| self.stream.clone())),
            None => {
                st.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}
