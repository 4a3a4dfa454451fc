//! Asynchronous transfers of pinned arrays that safe code cannot misuse.
//!
//! Two shapes, both truly asynchronous (the device reads or writes the pinned memory when the
//! stream reaches the copy, not when the call is made):
//! - **owned**: [`Stream::upload`] / [`Stream::download`] take a [`PinnedArray`] **by value**
//!   and return a [`Transfer`] that hands it back once the stream has reached the copy —
//!   [`Transfer::wait`], or `.await` (it is a `Future`). Until then nothing else can touch the
//!   array: it has been moved. Dropping (or leaking) the `Transfer` early is fine: the array is
//!   then released after the copy, off the host thread. The device array is kept alive by the
//!   stream, so it may be dropped right after queuing.
//! - **scoped**: [`StreamScope::copy`] with a pinned array on either side borrows the
//!   array for the scope's `'env` (shared when the device reads it, exclusive when it writes
//!   it); the scope synchronizes before the borrow ends.
//!
//! (Copies from *pageable* memory on a stream — [`DeviceArray::copy_from_host_on`],
//! [`to_device_on`](crate::to_device_on) — are staged: the data is taken before the call returns
//! and the device copy happens later.)
//!
//! A transfer that is refused before anything was queued returns the array in a [`Rejected`].
//!
//! This module touches the driver through the array layer's queue, and streams (callbacks).

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context as TaskContext, Poll, Waker};

use ndarray::Dimension;

use crate::array::DeviceArray;
use crate::array::{HostMut, HostRef, Mode, Queue, download, upload};
use crate::error::{Error, Result};
use crate::host::PinnedArray;
use crate::layout::Element;
use crate::stream::Stream;
use crate::sync::{lock, wait};

struct State<B> {
    buffer: Option<B>,
    status: Option<Result<()>>,
    waker: Option<Waker>,
}

struct Shared<B> {
    state: Mutex<State<B>>,
    done: Condvar,
}

impl<B> Shared<B> {
    fn complete(&self, status: Result<()>) {
        let waker = {
            let mut st = lock(&self.state);
            st.status = Some(status);
            st.waker.take()
        };
        self.done.notify_all();
        if let Some(w) = waker {
            w.wake();
        }
    }
}

/// A queued copy that owns its pinned buffer and hands it back when the stream reaches it.
///
/// ```
/// use rumba::Order;
/// let s = rumba::stream().unwrap();
/// let mut p = rumba::pinned_array::<u64, _>(1000, Order::C).unwrap();
/// p.view_mut().assign(&ndarray::Array1::from_iter(0..1000u64));
/// let d = rumba::device_array::<u64, _>(1000, Order::C).unwrap();
/// let t = s.upload(p, &d).unwrap();      // returns at once; `p` is owned by the copy
/// let p = t.wait().unwrap();             // handed back once the stream reached the copy
/// assert_eq!(d.copy_to_host().unwrap(), p.view());
/// ```
#[must_use = "the buffer comes back only through wait() or .await"]
pub struct Transfer<B> {
    shared: Arc<Shared<B>>,
}

impl<B> std::fmt::Debug for Transfer<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Transfer(done: {})", self.is_done())
    }
}

impl<B> Transfer<B> {
    /// True once the stream has reached the copy ([`wait`](Self::wait) then returns at once).
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let p = rumba::pinned_array::<u8, _>(4, rumba::Order::C).unwrap();
    /// let d = rumba::device_array::<u8, _>(4, rumba::Order::C).unwrap();
    /// let t = s.upload(p, &d).unwrap();
    /// s.synchronize().unwrap();
    /// while !t.is_done() { std::thread::yield_now(); } // the hand-back runs right after
    /// assert_eq!(t.wait().unwrap().shape(), &[4]); // done: `wait` returns at once
    /// ```
    pub fn is_done(&self) -> bool {
        lock(&self.shared.state).status.is_some()
    }

    /// Waits until the stream has reached the copy and returns the buffer, or the error of the
    /// copy (or of earlier work on the stream); on an error the buffer is dropped.
    ///
    /// # Errors
    /// The error of the copy, or of earlier work on the stream (the first unreported one: an
    /// [`Error::KernelFault`], a failed copy); [`Error::InCallback`] when called from a stream
    /// callback, which would wait for itself. The buffer is dropped after an error.
    ///
    /// ```
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::to_device(&[1i32, 2, 3]).unwrap();
    /// let p = rumba::pinned_array::<i32, _>(3, rumba::Order::C).unwrap();
    /// let p = s.download(&d, p).unwrap().wait().unwrap();
    /// assert_eq!(p.view().to_vec(), [1, 2, 3]);
    /// ```
    pub fn wait(self) -> Result<B> {
        crate::driver::callback::refuse_wait("waiting for a transfer", "")?;
        let mut st = lock(&self.shared.state);
        while st.status.is_none() {
            st = wait(&self.shared.done, st);
        }
        take(&mut st)
    }
}

fn take<B>(st: &mut State<B>) -> Result<B> {
    let status = st.status.take().unwrap_or(Ok(()));
    let buffer = st.buffer.take();
    status?;
    buffer.ok_or(Error::TransferTaken)
}

impl<B> Future for Transfer<B> {
    type Output = Result<B>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Result<B>> {
        let mut st = lock(&self.shared.state);
        if st.status.is_some() {
            Poll::Ready(take(&mut st))
        } else {
            st.waker = Some(cx.waker().clone());
            Poll::Pending
        }
    }
}

/// A transfer refused before anything was queued: the error, and the buffer given back.
///
/// Returned boxed (see [`TransferResult`]); converts into [`Error`], so `?` works in functions
/// returning [`Result`].
///
/// ```
/// let s = rumba::stream().unwrap();
/// let p = rumba::pinned_array::<u8, _>(4, rumba::Order::C).unwrap();
/// let d = rumba::device_array::<u8, _>(5, rumba::Order::C).unwrap();
/// let rejected = s.upload(p, &d).unwrap_err();
/// assert!(rejected.error.to_string().starts_with("incompatible shape"));
/// let p = rejected.buffer; // still ours
/// assert_eq!(p.size(), 4);
/// ```
pub struct Rejected<B> {
    /// Why the transfer was refused.
    pub error: Error,
    /// The buffer, unchanged.
    pub buffer: B,
}

impl<B> std::fmt::Debug for Rejected<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rejected({:?})", self.error)
    }
}

impl<B> From<Box<Rejected<B>>> for Error {
    fn from(r: Box<Rejected<B>>) -> Error {
        r.error
    }
}

/// What [`Stream::upload`] and [`Stream::download`] return: the queued [`Transfer`], or the
/// refusal with the buffer given back.
///
/// ```
/// fn ship(s: &rumba::Stream, d: &rumba::DeviceArray<u8, ndarray::Ix1>) -> rumba::Result<()> {
///     let p = rumba::pinned_array::<u8, _>(d.size(), rumba::Order::C)?;
///     let r: rumba::transfer::TransferResult<_> = s.upload(p, d);
///     r?.wait()?; // a refusal converts into rumba::Error
///     Ok(())
/// }
/// ship(&rumba::stream().unwrap(), &rumba::device_array::<u8, _>(4, rumba::Order::C).unwrap()).unwrap();
/// ```
pub type TransferResult<B> = std::result::Result<Transfer<B>, Box<Rejected<B>>>;

impl Stream {
    /// Queues a copy of the pinned array `src` into the contiguous device array `dst` (same
    /// shape), truly asynchronously, and returns a [`Transfer`] that hands `src` back once the
    /// stream has reached the copy. `dst` is kept alive by the stream.
    ///
    /// # Errors
    /// A boxed [`Rejected`] that hands `src` back, with the reason: [`Error::IncompatibleShape`] when the
    /// shapes differ (length-1 axes aside); [`Error::NotContiguous`] when `dst` is not contiguous;
    /// [`Error::WrongDevice`] when `dst` is memory of another device than the stream's; the
    /// driver's queueing errors.
    ///
    /// ```
    /// use rumba::Order;
    /// let s = rumba::stream().unwrap();
    /// let mut p = rumba::pinned_array::<f32, _>((2, 2), Order::C).unwrap();
    /// p.view_mut().fill(1.0);
    /// let d = rumba::device_array::<f32, _>((2, 2), Order::C).unwrap();
    /// let t = s.upload(p, &d).unwrap();
    /// // p[0] = 2.0;  // does not compile: `p` was moved into the transfer
    /// let p = t.wait().unwrap();
    /// assert_eq!(d.copy_to_host().unwrap(), p.view());
    /// ```
    pub fn upload<T: Element, D: Dimension + 'static, E: Dimension>(
        &self,
        src: PinnedArray<T, D>,
        dst: &DeviceArray<T, E>,
    ) -> TransferResult<PinnedArray<T, D>> {
        if let Err(error) = self.refuse_in_capture("Stream::upload") {
            return Err(Box::new(Rejected { error, buffer: src }));
        }
        let queued = (|| -> Result<()> {
            let view = src.view();
            let host = HostRef::new(&view)?;
            let mut q = Queue::on(self, dst.buffer(), Mode::Scoped)?;
            upload(&mut q, dst.buffer(), dst.layout(), &host)?;
            q.keep(vec![dst.buffer().clone()])?;
            Ok(())
        })();
        self.hand_back(src, queued)
    }

    /// Queues a copy of the device array `src` into the pinned array `dst` (same shape), truly
    /// asynchronously, and returns a [`Transfer`] that hands `dst` back once the data has arrived.
    /// `src` is kept alive by the stream, so it may be dropped right away.
    ///
    /// # Errors
    /// A boxed [`Rejected`] that hands `dst` back, with the reason: [`Error::IncompatibleShape`] when
    /// the shapes differ (length-1 axes aside); [`Error::NotContiguous`] when `src` is not contiguous;
    /// [`Error::WrongDevice`] when `src` is memory of another device than the stream's; the
    /// driver's queueing errors.
    ///
    /// ```
    /// use rumba::Order;
    /// let s = rumba::stream().unwrap();
    /// let d = rumba::to_device(&ndarray::array![[1u8, 2], [3, 4]]).unwrap();
    /// let p = rumba::pinned_array::<u8, _>((2, 2), Order::C).unwrap();
    /// let t = s.download(&d, p).unwrap();
    /// drop(d);                               // the copy keeps the device memory alive
    /// let p = t.wait().unwrap();             // host reads only after the copy completed
    /// assert_eq!(p.view(), ndarray::array![[1, 2], [3, 4]]);
    /// ```
    pub fn download<T: Element, D: Dimension + 'static, E: Dimension>(
        &self,
        src: &DeviceArray<T, E>,
        mut dst: PinnedArray<T, D>,
    ) -> TransferResult<PinnedArray<T, D>> {
        if let Err(error) = self.refuse_in_capture("Stream::download") {
            return Err(Box::new(Rejected { error, buffer: dst }));
        }
        let queued = (|| -> Result<()> {
            let mut view = dst.view_mut();
            let host = HostMut::new(&mut view)?;
            let mut q = Queue::on(self, src.buffer(), Mode::Scoped)?;
            download(&mut q, src.buffer(), src.layout(), &host)?;
            q.keep(vec![src.buffer().clone()])?;
            Ok(())
        })();
        self.hand_back(dst, queued)
    }

    /// Refuses a transfer between host and device memory on a capturing stream, before anything
    /// is queued: a graph does not own the pinned array, which the transfer hands back.
    pub(super) fn refuse_in_capture(&self, operation: &str) -> Result<()> {
        crate::driver::graph::refuse_if_capturing(
            &**self.context().driver(),
            self.device(),
            self.handle(),
            operation,
            crate::driver::graph::HOST_COPY,
        )
    }

    /// Registers the hand-back of `buffer` after the work queued so far, or gives it back in a
    /// [`Rejected`] when queuing failed — after waiting for the stream, since part of the work
    /// may have been queued.
    fn hand_back<B: Send + 'static>(&self, buffer: B, queued: Result<()>) -> TransferResult<B> {
        if let Err(error) = queued {
            // Part of the copy may be queued and read or write `buffer`: wait before handing it
            // back. (Refusals happen before anything is queued, so this rarely waits at all.)
            if !self.query().unwrap_or(false) {
                if let Err(e) = self.synchronize() {
                    tracing::warn!("waiting for a refused transfer's stream: {e}");
                }
            }
            return Err(Box::new(Rejected { error, buffer }));
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                buffer: Some(buffer),
                status: None,
                waker: None,
            }),
            done: Condvar::new(),
        });
        let theirs = Arc::clone(&shared);
        if let Err(error) = self.add_callback(move |_, status| theirs.complete(status)) {
            let _ = self.synchronize();
            let buffer = lock(&shared.state).buffer.take();
            return match buffer {
                Some(buffer) => Err(Box::new(Rejected { error, buffer })),
                None => Ok(Transfer { shared }),
            };
        }
        Ok(Transfer { shared })
    }
}
