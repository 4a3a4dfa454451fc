//! [`StreamScope`]: asynchronous work that borrows host memory until its stream has
//! synchronized (see [`Stream::auto_synchronize`]). The scope's methods for each kind of memory
//! live next to it: raw device buffers here, device arrays in `scope_array.rs`, pinned and mapped
//! host arrays in `scope_host.rs`; [`StreamScope::copy`] dispatches over all of them.

use std::marker::PhantomData;

use crate::driver::DevicePtr;
use crate::error::Result;
use crate::memory::DeviceBuffer;
use crate::memory::gate::Lease;
use crate::stream::Stream;

/// The operations a capturing stream refuses, as its errors name them.
const TO_DEVICE: &str = "a copy from host memory to the device";
const TO_HOST: &str = "a copy from the device to host memory";

/// Asynchronous work on a stream that may borrow host memory for `'env`; see
/// [`Stream::auto_synchronize`].
///
/// ```
/// let s = rumba::stream().unwrap();
/// let handle = s.auto_synchronize(|scope| Ok(scope.stream().handle())).unwrap();
/// assert_eq!(handle, s.handle());
/// ```
///
/// A scope is used on the thread that opened it: it is neither `Send` nor `Sync`. The default
/// stream (handle 0 when per-thread default streams are configured) and the per-thread default
/// stream (handle 2) are a different stream on every host thread, so work another thread queued
/// through the scope would land on that thread's stream, which the scope's closing
/// synchronization does not wait for — and the device could then write into host memory after its
/// borrow had ended.
///
/// ```compile_fail,E0277
/// let s = rumba::per_thread_default_stream().unwrap();
/// let buf = rumba::current_context().unwrap().memalloc(4).unwrap();
/// let mut out = [0u8; 4];
/// s.auto_synchronize(|scope| {
///     std::thread::scope(|t| {
///         t.spawn(|| scope.copy(&mut out, &buf)); // `&StreamScope` is not `Send`
///     });
///     Ok(())
/// }).unwrap();
/// ```
pub struct StreamScope<'scope, 'env: 'scope> {
    stream: &'scope Stream,
    _env: PhantomData<&'env mut &'env ()>,
    /// Neither `Send` nor `Sync` (see the type's docs).
    _one_thread: PhantomData<*const ()>,
}

impl<'scope, 'env> StreamScope<'scope, 'env> {
    /// The scope of `stream`; only [`Stream::auto_synchronize`] makes one, and it synchronizes the
    /// stream before `'env` ends.
    pub(crate) fn new(stream: &'scope Stream) -> Self {
        StreamScope {
            stream,
            _env: PhantomData,
            _one_thread: PhantomData,
        }
    }

    /// The stream this scope queues on.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let same = s.auto_synchronize(|scope| Ok(scope.stream().handle() == s.handle())).unwrap();
    /// assert!(same);
    /// ```
    pub fn stream(&self) -> &'scope Stream {
        self.stream
    }

    /// The address of `len` bytes of `buf` at `offset` for a copy between them and host memory
    /// (`operation`), with the lease that keeps a context reset out until the copy is queued;
    /// refused on a capturing stream, before anything is queued: a graph does not own host memory.
    fn host_copy_range(
        &self,
        buf: &DeviceBuffer,
        offset: usize,
        len: usize,
        operation: &str,
    ) -> Result<(Lease, DevicePtr)> {
        let lease = Lease::enter()?;
        let ptr = buf.addr(&lease, offset, len)?;
        self.stream.refuse_in_capture(operation)?;
        Ok((lease, ptr))
    }

    /// Queues a copy of `src` into `dst` at byte `offset`. `src` stays borrowed until the scope
    /// has synchronized. From pinned memory the copy is truly asynchronous; from pageable memory
    /// it is staged before this returns.
    ///
    /// # Errors
    /// [`Error::BufferRange`](crate::Error::BufferRange) when `offset + src.len()` runs past the end of `dst`;
    /// [`Error::StaleHandle`](crate::Error::StaleHandle) when a context reset freed `dst`'s memory; the driver's
    /// queueing errors ([`Error::InvalidAddress`](crate::Error::InvalidAddress) where the backend checks ranges and `dst` is
    /// not memory of the stream's device). Failures of the copy itself come from the scope's
    /// synchronization.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let buf = rumba::current_context().unwrap().memalloc(8).unwrap();
    /// let r = s.auto_synchronize(|scope| scope.copy(&buf.view(6..9)?, &[1, 2, 3]));
    /// assert!(matches!(r, Err(rumba::Error::BufferRange { start: 6, end: 9, len: 8 }))); // runs past the end: refused before anything is queued
    /// ```
    #[deprecated(note = "use scope.copy(&buf.view(offset..offset + src.len())?, src)")]
    pub fn copy_to_device(&self, dst: &DeviceBuffer, offset: usize, src: &'env [u8]) -> Result<()> {
        self.copy_to_device_impl(dst, offset, src)
    }

    /// Queues the copy of `src` into `dst` at byte `offset` (what `scope.copy(&buf, bytes)` runs).
    pub(crate) fn copy_to_device_impl(
        &self,
        dst: &DeviceBuffer,
        offset: usize,
        src: &'env [u8],
    ) -> Result<()> {
        let (_lease, ptr) = self.host_copy_range(dst, offset, src.len(), TO_DEVICE)?;
        let st = self.stream;
        // SAFETY: `src` is borrowed for 'env, which outlives the scope; the scope synchronizes the
        // stream (on every exit path) before 'env can end, so the copy completes while `src` is
        // valid and, being a shared borrow, unwritten.
        unsafe { st.context().driver().memcpy_htod(st.on(), ptr, src)? };
        st.hold([dst.clone()])
    }

    /// Queues a copy of `src` at byte `offset` into `dst`. `dst` stays mutably borrowed until the
    /// scope has synchronized, so the host cannot look at it before the data has arrived.
    ///
    /// # Errors
    /// As [`copy_to_device`](StreamScope::copy_to_device), for `offset + dst.len()`.
    ///
    /// ```
    /// let ctx = rumba::current_context().unwrap();
    /// let buf = ctx.memalloc(2).unwrap();
    /// rumba::copy(&buf, &[9, 8]).unwrap();
    /// let mut out = [0u8; 2];
    /// rumba::stream().unwrap().auto_synchronize(|scope| scope.copy(&mut out, &buf)).unwrap();
    /// assert_eq!(out, [9, 8]);
    /// ```
    #[deprecated(note = "use scope.copy(dst, &buf.view(offset..offset + dst.len())?)")]
    pub fn copy_to_host(
        &self,
        dst: &'env mut [u8],
        src: &DeviceBuffer,
        offset: usize,
    ) -> Result<()> {
        self.copy_to_host_impl(dst, src, offset)
    }

    /// Queues the copy of `src`'s bytes from `offset` into `dst` (what `scope.copy(bytes, &buf)` runs).
    pub(crate) fn copy_to_host_impl(
        &self,
        dst: &'env mut [u8],
        src: &DeviceBuffer,
        offset: usize,
    ) -> Result<()> {
        let (_lease, ptr) = self.host_copy_range(src, offset, dst.len(), TO_HOST)?;
        let st = self.stream;
        // SAFETY: `dst` is exclusively borrowed for 'env and the scope synchronizes before 'env
        // ends, so nothing else reads or writes it while the device writes into it.
        unsafe { st.context().driver().memcpy_dtoh(st.on(), dst, ptr)? };
        st.hold([src.clone()])
    }
}

/// The scope's entry point lives with the scope: the stream layer below knows nothing of
/// borrowed host memory.
impl Stream {
    /// Runs `f` with a scope for asynchronous work that may borrow host memory, then synchronizes
    /// the stream — also when `f` fails or panics (the panic then continues). Returns `f`'s value
    /// once the stream has completed the work (Numba's `with stream.auto_synchronize():`).
    ///
    /// # Errors
    /// [`Error::InCallback`](crate::Error::InCallback) when called from a stream
    /// callback (nothing runs then); otherwise `f`'s error if it failed (the stream is still
    /// synchronized first; an error of its work is then logged), else the synchronization's error
    /// (the first unreported error of the stream's work, including work `f` queued).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let buf = rumba::current_context().unwrap().memalloc(3).unwrap();
    /// let data = vec![7u8, 8, 9];
    /// s.auto_synchronize(|scope| scope.copy(&buf, &data)).unwrap();
    /// // `data` may be dropped or changed now: the copy has completed.
    /// let mut back = [0u8; 3];
    /// rumba::copy(&mut back, &buf).unwrap();
    /// assert_eq!(back, [7, 8, 9]);
    /// // The closure's value (or error) comes back once, not wrapped twice.
    /// let n = s.auto_synchronize(|_| Ok(data.len())).unwrap();
    /// assert_eq!(n, 3);
    /// ```
    pub fn auto_synchronize<'env, F, R>(&self, f: F) -> Result<R>
    where
        F: for<'scope> FnOnce(&'scope StreamScope<'scope, 'env>) -> Result<R>,
    {
        crate::driver::callback::refuse_wait("auto_synchronize", "")?;
        // The scope ends by synchronizing, which a capture refuses: the borrowed host memory
        // would outlive the scope in the graph.
        crate::driver::graph::refuse_if_capturing(
            &**self.context().driver(),
            self.device(),
            self.handle(),
            "auto_synchronize",
            crate::driver::graph::HOST_COPY,
        )?;
        let scope = StreamScope::new(self);
        // Synchronizes on every exit path, including unwinding out of `f`.
        struct SyncOnDrop<'a>(&'a Stream, bool);
        impl Drop for SyncOnDrop<'_> {
            fn drop(&mut self) {
                if !self.1 {
                    let _ = self.0.synchronize();
                }
            }
        }
        let mut guard = SyncOnDrop(self, false);
        let out = f(&scope);
        guard.1 = true;
        let synced = self.synchronize();
        match (out, synced) {
            (Ok(value), Ok(())) => Ok(value),
            (Ok(_), Err(e)) => Err(e),
            (Err(e), synced) => {
                if let Err(lost) = synced {
                    // One error is returned: `f`'s, the direct cause. The work's error was taken
                    // from the stream by the synchronization, so it is logged rather than lost.
                    tracing::warn!(
                        "auto_synchronize: `{e}` was returned; the stream's work also failed: {lost}"
                    );
                }
                Err(e)
            }
        }
    }
}
