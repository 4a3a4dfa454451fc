//! The host side of transfers: packing strided host views for the device and unpacking device
//! bytes into strided host views.
//!
//! A host view is described like a device array: a [`Layout`] whose offsets are bytes from the
//! lowest address the view touches (`base`). [`check_copy`] pairs it with the device side; this
//! module moves the bytes:
//! - when both sides are single contiguous runs (and, device → host, the element type accepts any
//!   bit pattern), the driver reads or writes the host view's memory directly — no extra copy;
//! - otherwise the host view is packed into (or unpacked from) a staging buffer in the device
//!   side's order, one `copy_nonoverlapping` per contiguous run pair.
//!
//! Device → host from a strided device array into a contiguous host array is a gather on the
//! device (one strided copy into a packed temporary) followed by one direct copy into the host
//! array. Into a strided host view, the device bytes first come over in one piece — the whole
//! span the array covers when that is at most twice its data, else the gathered temporary — and
//! are unpacked on the host; so the bytes crossing the bus are never much more than the data.
//!
//! This module touches host memory it is given and the driver through [`Queue`].

use std::marker::PhantomData;

use ndarray::{ArrayBase, Data, DataMut, Dimension};

use super::queue::Queue;
use crate::driver::{StridedCopy, StridedSource};
use crate::error::Result;
use crate::layout::array_layout::Layout;
use crate::layout::copy::{CopyKind, CopyPlan, check_copy};
use crate::layout::element::Element;
use crate::memory::DeviceBuffer;

/// A host view as raw parts: the lowest address it touches and its layout relative to it.
/// (`pub` in a private module: it appears in the hidden method of `AssignSource`.)
pub struct HostRef<'a, T> {
    pub(crate) base: *const u8,
    pub(crate) layout: Layout,
    _borrow: PhantomData<&'a [T]>,
}

/// A mutable host view as raw parts.
pub(crate) struct HostMut<'a, T> {
    pub(crate) base: *mut u8,
    pub(crate) layout: Layout,
    _borrow: PhantomData<&'a mut [T]>,
}

fn host_layout<T: Element>(shape: &[usize], strides: &[isize]) -> Result<Layout> {
    Layout::from_elem_strides(shape, strides, T::DTYPE.itemsize())
}

impl<'a, T: Element> HostRef<'a, T> {
    pub(crate) fn new<S: Data<Elem = T>, D: Dimension>(a: &'a ArrayBase<S, D>) -> Result<Self> {
        let layout = host_layout::<T>(a.shape(), a.strides())?;
        Ok(HostRef {
            base: a.as_ptr().cast::<u8>().wrapping_sub(layout.offset()),
            layout,
            _borrow: PhantomData,
        })
    }

    /// The bytes of `[lo, hi)` relative to `base`.
    fn bytes(&self, lo: usize, len: usize) -> &'a [u8] {
        // SAFETY: callers pass ranges of a copy plan, which lie inside the elements the view
        // touches; the view is borrowed for 'a and `Element` types have no padding.
        unsafe { std::slice::from_raw_parts(self.base.add(lo), len) }
    }
}

impl<'a, T: Element> HostMut<'a, T> {
    pub(crate) fn new<S: DataMut<Elem = T>, D: Dimension>(
        a: &'a mut ArrayBase<S, D>,
    ) -> Result<Self> {
        let layout = host_layout::<T>(a.shape(), a.strides())?;
        Ok(HostMut {
            base: a.as_mut_ptr().cast::<u8>().wrapping_sub(layout.offset()),
            layout,
            _borrow: PhantomData,
        })
    }

    /// A fresh, packed host allocation of `layout` at `base` (not yet initialised).
    pub(crate) fn raw(base: *mut u8, layout: Layout) -> Self {
        HostMut {
            base,
            layout,
            _borrow: PhantomData,
        }
    }
}

/// Copies the host view `src` into the device array (`dst`, `dst_layout`).
pub(crate) fn upload<T: Element>(
    q: &mut Queue,
    dst: &DeviceBuffer,
    dst_layout: &Layout,
    src: &HostRef<'_, T>,
) -> Result<()> {
    let (dst_layout, src_layout) = in_device_order(dst_layout, &src.layout);
    let plan = check_copy(
        &dst_layout,
        &T::DTYPE,
        &src_layout,
        &T::DTYPE,
        CopyKind::HostToDevice,
    )?;
    if plan.is_noop() {
        return Ok(());
    }
    if plan.src().count() == 1 && plan.dst().count() == 1 {
        let data = src.bytes(plan.src().start(), plan.nbytes());
        let to = q.addr(dst, plan.dst().start())?;
        return q.htod(to, data);
    }
    let mut staging = Vec::with_capacity(plan.nbytes());
    for (_, s, len) in plan.chunks() {
        staging.extend_from_slice(src.bytes(s, len));
    }
    let mut pos = 0;
    for (start, len) in plan.dst().iter() {
        let to = q.addr(dst, start)?;
        q.htod(to, &staging[pos..pos + len])?;
        pos += len;
    }
    Ok(())
}

/// Both layouts with their axes permuted alike so that the device side's strides decrease, when
/// the shapes are equal. Elements still correspond index by index, and a device array that is
/// packed in a permuted axis order (as `to_device` makes for a permuted host array) becomes
/// C-contiguous, which is what the copy rules accept.
fn in_device_order(device: &Layout, host: &Layout) -> (Layout, Layout) {
    if device.is_contiguous() || device.shape() != host.shape() {
        return (device.clone(), host.clone());
    }
    let mut perm: Vec<usize> = (0..device.ndim()).collect();
    perm.sort_by_key(|&k| std::cmp::Reverse(device.strides()[k].unsigned_abs()));
    match (device.permuted_axes(&perm), host.permuted_axes(&perm)) {
        (Ok(d), Ok(h)) => (d, h),
        _ => (device.clone(), host.clone()),
    }
}

/// Copies the device array (`src`, `src_layout`) into the host view `dst`; complete when this
/// returns, except in scoped mode with a directly written destination.
pub(crate) fn download<T: Element>(
    q: &mut Queue,
    src: &DeviceBuffer,
    src_layout: &Layout,
    dst: &HostMut<'_, T>,
) -> Result<()> {
    let plan = check_copy(
        &dst.layout,
        &T::DTYPE,
        src_layout,
        &T::DTYPE,
        CopyKind::DeviceToHost,
    )?;
    if plan.is_noop() {
        return Ok(());
    }
    if T::ANY_BIT_PATTERN && plan.src().count() == 1 && plan.dst().count() == 1 {
        let from = q.addr(src, plan.src().start())?;
        // SAFETY: the run lies inside the borrowed host view, which nothing else accesses until
        // the copy completes (see `Queue::dtoh`).
        return unsafe { q.dtoh(dst.base.add(plan.dst().start()), from, plan.nbytes()) };
    }
    let packed = src_layout.empty_like();
    let repacked = check_copy(
        &dst.layout,
        &T::DTYPE,
        &packed,
        &T::DTYPE,
        CopyKind::DeviceToHost,
    )?;
    if T::ANY_BIT_PATTERN && repacked.src().count() == 1 && repacked.dst().count() == 1 {
        // A contiguous host destination: gather on the device (one strided copy), then one
        // direct copy into the host memory — no host-side unpacking at all.
        let tmp = gather(q, src, src_layout, &packed)?;
        let from = q.addr(&tmp, 0)?;
        // SAFETY: as for the direct path above; `tmp` stays alive until the copy completed
        // (it waits outside scoped mode; in scoped mode the stream keeps it alive).
        unsafe {
            q.dtoh(
                dst.base.add(repacked.dst().start()),
                from,
                repacked.nbytes(),
            )?
        };
        return q.keep(vec![tmp]);
    }
    let (lo, hi) = src_layout.alloc_extent();
    if hi - lo <= 2 * plan.nbytes() {
        let mut staging = vec![0u8; hi - lo];
        let from = q.addr(src, lo)?;
        // SAFETY: `staging` is ours; `dtoh` into it completes before we read it (`sync_now`).
        unsafe { q.dtoh(staging.as_mut_ptr(), from, hi - lo)? };
        q.sync_now()?;
        T::normalize_bytes(&mut staging);
        unpack(&plan, dst, &staging, lo);
        return Ok(());
    }
    // A thin view of a big allocation: gather it on the device first.
    let tmp = gather(q, src, src_layout, &packed)?;
    let mut staging = vec![0u8; packed.nbytes()];
    let from = q.addr(&tmp, 0)?;
    // SAFETY: as above.
    unsafe { q.dtoh(staging.as_mut_ptr(), from, staging.len())? };
    q.sync_now()?;
    T::normalize_bytes(&mut staging);
    unpack(&repacked, dst, &staging, 0);
    Ok(())
}

/// Queues a gather of the device array (`src`, `layout`) into a new buffer laid out as `packed`.
pub(super) fn gather(
    q: &mut Queue,
    src: &DeviceBuffer,
    layout: &Layout,
    packed: &Layout,
) -> Result<DeviceBuffer> {
    let tmp = temp_like(src, packed.nbytes())?;
    let (to, from) = (q.addr(&tmp, 0)?, q.addr(src, layout.offset())?);
    q.strided(&StridedCopy {
        shape: layout.shape(),
        itemsize: layout.itemsize(),
        dst: to,
        dst_strides: packed.strides(),
        src: StridedSource::Device {
            ptr: from,
            strides: layout.strides(),
        },
    })?;
    Ok(tmp)
}

/// Writes staged device bytes (`staging[k]` is device byte `lo + k`) into the host view.
fn unpack<T: Element>(plan: &CopyPlan, dst: &HostMut<'_, T>, staging: &[u8], lo: usize) {
    for (d, s, len) in plan.chunks() {
        let from = &staging[s - lo..s - lo + len];
        // SAFETY: `d..d + len` lies inside the borrowed host view (a run of the copy plan), which
        // does not overlap our staging buffer; the bytes are valid `T` bytes (normalised).
        unsafe { std::ptr::copy_nonoverlapping(from.as_ptr(), dst.base.add(d), len) };
    }
}

/// A temporary device buffer of `bytes` in the same context as `like`.
pub(crate) fn temp_like(like: &DeviceBuffer, bytes: usize) -> Result<DeviceBuffer> {
    crate::runtime::context_for(like.device())?.memalloc(bytes)
}
