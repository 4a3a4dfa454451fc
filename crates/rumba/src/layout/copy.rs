//! Copy compatibility: may these two arrays be copied into each other, and how do their bytes
//! correspond? [`check_copy`] answers with a [`CopyPlan`] or the error the SPEC asks for.
//!
//! The rules (docs/design/behaviour.md §2, "Transfers"), checked in this order:
//! 1. the element types are equal, else [`Error::IncompatibleDtype`];
//! 2. the shapes are equal after removing length-1 axes, else [`Error::IncompatibleShape`]
//!    (with those squeezed shapes);
//! 3. a size-0 copy is a no-op plan — nothing below is checked;
//! 4. device → device: the squeezed byte strides are equal, else [`Error::IncompatibleStrides`]
//!    (with the full strides);
//! 5. a destination axis with stride 0 (a broadcast axis, written once) needs a source that
//!    repeats the same value there (stride 0 too), else [`StridesError::RepeatedDestination`];
//! 6. a **device** destination must be C- or F-contiguous once its broadcast axes are ignored,
//!    else [`Error::NotContiguous`]; a strided **host** side is fine (it is packed/unpacked);
//! 7. device → host: a source with a negative stride is refused with
//!    [`StridesError::NegativeToHost`].
//!
//! The plan walks both sides in the same element order: the memory order of the device side
//! (its axes sorted by decreasing stride magnitude), so the device side is as few runs as possible
//! (one, when it is contiguous). Byte `k` of the source runs goes to byte `k` of the destination
//! runs; [`CopyPlan::chunks`] zips them into `(dst, src, len)` pieces.
//!
//! This module touches nothing but the `layout` module and [`crate::error`].

use super::array_layout::Layout;
use super::element::DType;
use super::runs::{ContiguousRuns, Runs};
use crate::error::{Error, Result};
use crate::error::{ShapeError, StridesError};

/// Which sides of a copy live on the device.
///
/// ```
/// use rumba::layout::CopyKind;
/// assert!(CopyKind::HostToDevice.dst_on_device());
/// assert!(!CopyKind::DeviceToHost.dst_on_device());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CopyKind {
    /// Host source, device destination.
    HostToDevice,
    /// Device source, host destination.
    DeviceToHost,
    /// Both on the device.
    DeviceToDevice,
}

impl CopyKind {
    /// `true` for [`HostToDevice`](CopyKind::HostToDevice) and
    /// [`DeviceToDevice`](CopyKind::DeviceToDevice).
    ///
    /// ```
    /// assert!(rumba::layout::CopyKind::DeviceToDevice.dst_on_device());
    /// ```
    pub fn dst_on_device(self) -> bool {
        !matches!(self, CopyKind::DeviceToHost)
    }
}

/// How the bytes of a checked copy correspond: runs on each side, in the same element order.
///
/// ```
/// use ndarray::s;
/// use rumba::layout::{check_copy, CopyKind, Layout, element::Element};
/// let dev = Layout::c_order(&[4, 3], 8).unwrap();
/// let host = Layout::c_order(&[4, 6], 8).unwrap().slice(s![.., ..;2]).unwrap();
/// let plan = check_copy(&dev, &f64::DTYPE, &host, &f64::DTYPE, CopyKind::HostToDevice).unwrap();
/// assert_eq!(plan.dst().count(), 1); // the device side is one run
/// assert_eq!(plan.src().count(), 12); // the host side is gathered element by element
/// assert_eq!(plan.nbytes(), 96);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyPlan {
    dst: ContiguousRuns,
    src: ContiguousRuns,
}

impl CopyPlan {
    /// `true` when there is nothing to copy (size 0).
    ///
    /// ```
    /// use rumba::layout::{check_copy, CopyKind, Layout, element::Element};
    /// let z = Layout::c_order(&[0, 3], 4).unwrap();
    /// assert!(check_copy(&z, &i32::DTYPE, &z, &i32::DTYPE, CopyKind::DeviceToDevice).unwrap().is_noop());
    /// ```
    pub fn is_noop(&self) -> bool {
        self.dst.count() == 0
    }

    /// Bytes moved.
    ///
    /// ```
    /// use rumba::layout::{check_copy, CopyKind, Layout, element::Element};
    /// let a = Layout::c_order(&[5], 2).unwrap();
    /// assert_eq!(check_copy(&a, &u16::DTYPE, &a, &u16::DTYPE, CopyKind::HostToDevice).unwrap().nbytes(), 10);
    /// ```
    pub fn nbytes(&self) -> usize {
        self.dst.total_bytes()
    }

    /// Runs of the destination, offsets relative to its allocation.
    ///
    /// ```
    /// use rumba::layout::{check_copy, CopyKind, Layout, element::Element};
    /// let a = Layout::c_order(&[5], 2).unwrap();
    /// let p = check_copy(&a, &u16::DTYPE, &a, &u16::DTYPE, CopyKind::HostToDevice).unwrap();
    /// assert_eq!(p.dst().iter().collect::<Vec<_>>(), [(0, 10)]);
    /// ```
    pub fn dst(&self) -> &ContiguousRuns {
        &self.dst
    }

    /// Runs of the source, offsets relative to its allocation.
    ///
    /// ```
    /// use rumba::layout::{check_copy, CopyKind, Layout, element::Element};
    /// let a = Layout::c_order(&[5], 2).unwrap();
    /// let p = check_copy(&a, &u16::DTYPE, &a, &u16::DTYPE, CopyKind::DeviceToHost).unwrap();
    /// assert_eq!(p.src().count(), 1);
    /// ```
    pub fn src(&self) -> &ContiguousRuns {
        &self.src
    }

    /// The copy as `(dst_offset, src_offset, len)` byte pieces: each source run and destination
    /// run cut where the other one ends.
    ///
    /// ```
    /// use ndarray::s;
    /// use rumba::layout::{check_copy, CopyKind, Layout, element::Element};
    /// let dev = Layout::c_order(&[2, 2], 4).unwrap();
    /// let host = Layout::f_order(&[2, 2], 4).unwrap();
    /// let p = check_copy(&dev, &f32::DTYPE, &host, &f32::DTYPE, CopyKind::HostToDevice).unwrap();
    /// assert_eq!(p.chunks().collect::<Vec<_>>(), [(0, 0, 4), (4, 8, 4), (8, 4, 4), (12, 12, 4)]);
    /// ```
    pub fn chunks(&self) -> Chunks<'_> {
        Chunks {
            dst: self.dst.iter(),
            src: self.src.iter(),
            d: (0, 0),
            s: (0, 0),
        }
    }
}

/// Iterator over `(dst_offset, src_offset, len)` from [`CopyPlan::chunks`].
///
/// ```
/// use rumba::layout::{check_copy, CopyKind, Layout, element::Element};
/// let a = Layout::c_order(&[3], 1).unwrap();
/// let p = check_copy(&a, &u8::DTYPE, &a, &u8::DTYPE, CopyKind::DeviceToDevice).unwrap();
/// assert_eq!(p.chunks().next(), Some((0, 0, 3)));
/// ```
#[derive(Clone, Debug)]
pub struct Chunks<'a> {
    dst: Runs<'a>,
    src: Runs<'a>,
    d: (usize, usize),
    s: (usize, usize),
}

impl Iterator for Chunks<'_> {
    type Item = (usize, usize, usize);

    fn next(&mut self) -> Option<(usize, usize, usize)> {
        if self.d.1 == 0 {
            self.d = self.dst.next()?;
        }
        if self.s.1 == 0 {
            self.s = self.src.next()?;
        }
        let len = self.d.1.min(self.s.1);
        let out = (self.d.0, self.s.0, len);
        self.d = (self.d.0 + len, self.d.1 - len);
        self.s = (self.s.0 + len, self.s.1 - len);
        Some(out)
    }
}

/// Checks that `src` may be copied into `dst` (see the [module docs](self) for the rules, in
/// order) and returns the byte correspondence.
///
/// The layouts' item sizes must be their dtypes' ([`Error::Shape`] otherwise).
///
/// # Errors
/// [`Error::IncompatibleDtype`] for different element types; [`Error::IncompatibleShape`] when
/// the shapes differ after removing length-1 axes; [`Error::IncompatibleStrides`] for a
/// device-to-device copy whose byte strides differ; [`Error::NotContiguous`] when the device side
/// is not contiguous (broadcast axes aside); [`Error::Strides`] for a device side with negative
/// strides copied to the host; [`Error::Shape`] when a layout's item size is not
/// its dtype's.
///
/// ```
/// use ndarray::s;
/// use rumba::layout::{check_copy, CopyKind, Layout, element::Element};
/// let a = Layout::c_order(&[5, 1], 8).unwrap();
/// let b = Layout::c_order(&[1, 5], 8).unwrap();
/// assert!(check_copy(&a, &f64::DTYPE, &b, &f64::DTYPE, CopyKind::HostToDevice).is_ok());
///
/// let e = check_copy(&a, &f64::DTYPE, &b, &i64::DTYPE, CopyKind::HostToDevice).unwrap_err();
/// assert_eq!(e.to_string(), "incompatible dtype: float64 vs. int64");
///
/// let c = Layout::c_order(&[2, 3], 8).unwrap();
/// let e = check_copy(&a, &f64::DTYPE, &c, &f64::DTYPE, CopyKind::HostToDevice).unwrap_err();
/// assert_eq!(e.to_string(), "incompatible shape: (5,) vs. (2, 3)");
///
/// let f = Layout::f_order(&[2, 3], 8).unwrap();
/// let e = check_copy(&c, &f64::DTYPE, &f, &f64::DTYPE, CopyKind::DeviceToDevice);
/// assert_eq!(e.unwrap_err().to_string(), "incompatible strides: [24, 8] vs. [8, 16]");
/// ```
pub fn check_copy(
    dst: &Layout,
    dst_dtype: &DType,
    src: &Layout,
    src_dtype: &DType,
    kind: CopyKind,
) -> Result<CopyPlan> {
    dst_dtype.check_same(src_dtype)?;
    for (l, d) in [(dst, dst_dtype), (src, src_dtype)] {
        if l.itemsize() != d.itemsize() {
            return Err(ShapeError::Itemsize {
                layout: l.itemsize(),
                dtype: d.name(),
                itemsize: d.itemsize(),
            }
            .into());
        }
    }
    let (dsq, ssq) = (squeezed(dst), squeezed(src));
    if dsq.shape() != ssq.shape() {
        return Err(Error::IncompatibleShape {
            left: dsq.shape().to_vec(),
            right: ssq.shape().to_vec(),
        });
    }
    if dst.size() == 0 {
        return Ok(CopyPlan {
            dst: dsq.runs(),
            src: ssq.runs(),
        });
    }
    if kind == CopyKind::DeviceToDevice && dsq.strides() != ssq.strides() {
        return Err(Error::IncompatibleStrides {
            left: dst.strides().to_vec(),
            right: src.strides().to_vec(),
        });
    }
    // Broadcast destination axes are written once: keep the others.
    let mut keep = Vec::with_capacity(dsq.ndim());
    for k in 0..dsq.ndim() {
        if dsq.strides()[k] != 0 {
            keep.push(k);
        } else if ssq.strides()[k] != 0 {
            return Err(StridesError::RepeatedDestination {
                axis: k,
                source_stride: ssq.strides()[k],
            }
            .into());
        }
    }
    let dcore = select(&dsq, &keep);
    let score = select(&ssq, &keep);
    if kind.dst_on_device() && !dcore.is_contiguous() {
        return Err(Error::NotContiguous(format!(
            "the destination device array is not contiguous (shape {}, strides {:?}): copy into a contiguous array instead",
            crate::error::format_shape(dst.shape()),
            dst.strides()
        )));
    }
    if kind == CopyKind::DeviceToHost && score.strides().iter().any(|&s| s < 0) {
        return Err(StridesError::NegativeToHost {
            strides: src.strides().to_vec(),
        }
        .into());
    }
    // Common element order: the device side's memory order.
    let device = if kind.dst_on_device() { &dcore } else { &score };
    let mut perm: Vec<usize> = (0..device.ndim()).collect();
    perm.sort_by_key(|&k| std::cmp::Reverse(device.strides()[k].unsigned_abs()));
    let (dp, sp) = (select(&dcore, &perm), select(&score, &perm));
    Ok(CopyPlan {
        dst: dp.runs(),
        src: sp.runs(),
    })
}

fn squeezed(l: &Layout) -> Layout {
    let keep: Vec<usize> = (0..l.ndim()).filter(|&k| l.shape()[k] != 1).collect();
    select(l, &keep)
}

/// The layout restricted to (and ordered by) `axes`; dropped axes are taken at index 0.
fn select(l: &Layout, axes: &[usize]) -> Layout {
    Layout {
        shape: axes.iter().map(|&k| l.shape()[k]).collect(),
        strides: axes.iter().map(|&k| l.strides()[k]).collect(),
        offset: l.offset(),
        itemsize: l.itemsize(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::element::Element;
    use ndarray::s;

    const D: DType = f64::DTYPE;

    fn c(shape: &[usize]) -> Layout {
        Layout::c_order(shape, 8).unwrap()
    }

    #[test]
    fn error_texts() {
        let e = |d: &Layout, s: &Layout, k| check_copy(d, &D, s, &D, k).unwrap_err().to_string();
        let strided = c(&[4, 6]).slice(s![.., ..;2]).unwrap();
        assert_eq!(
            e(&strided, &c(&[4, 3]), CopyKind::HostToDevice),
            "the destination device array is not contiguous (shape (4, 3), strides [48, 16]): copy into a contiguous array instead"
        );
        let rev = c(&[4]).slice(s![..;-1]).unwrap();
        assert_eq!(
            e(&c(&[4]), &rev, CopyKind::DeviceToHost),
            "copying a device array with negative strides [-8] to the host is not supported; copy it into a new device array first"
        );
        let bcast = c(&[3]).broadcast_to(&[4, 3]).unwrap();
        assert_eq!(
            e(&bcast, &c(&[4, 3]), CopyKind::HostToDevice),
            "the destination repeats axis 0 (stride 0) but the source does not (stride 24): cannot write different values to one element"
        );
        assert_eq!(
            check_copy(
                &c(&[2]),
                &D,
                &Layout::c_order(&[2], 4).unwrap(),
                &D,
                CopyKind::HostToDevice
            )
            .unwrap_err()
            .to_string(),
            "a layout of 4-byte elements cannot hold float64 (8 bytes)"
        );
        assert_eq!(
            e(&c(&[2, 0]), &c(&[0, 2]), CopyKind::HostToDevice),
            "incompatible shape: (2, 0) vs. (0, 2)"
        );
    }

    #[test]
    fn accepted_shapes() {
        // Strided host sides are fine; a device source may be strided when copied to the host.
        let strided = c(&[4, 6]).slice(s![.., ..;2]).unwrap();
        for k in [CopyKind::HostToDevice, CopyKind::DeviceToHost] {
            let (d, s) = if k == CopyKind::HostToDevice {
                (c(&[4, 3]), strided.clone())
            } else {
                (strided.clone(), c(&[4, 3]))
            };
            let p = check_copy(&d, &D, &s, &D, k).unwrap();
            assert_eq!(p.nbytes(), 96);
            assert_eq!(p.chunks().map(|c| c.2).sum::<usize>(), 96);
        }
        // Broadcast on both sides: the axis is written once.
        let bd = c(&[3]).broadcast_to(&[4, 3]).unwrap();
        let p = check_copy(&bd, &D, &bd, &D, CopyKind::DeviceToDevice).unwrap();
        assert_eq!(p.nbytes(), 24);
        // Size 0 copies skip the stride and contiguity rules.
        let z1 = c(&[0, 3]);
        let z2 = c(&[3, 0]).t();
        assert!(
            check_copy(&z1, &D, &z2, &D, CopyKind::DeviceToDevice)
                .unwrap()
                .is_noop()
        );
        // An F-contiguous device destination fed from a C host array: element by element.
        let f = Layout::f_order(&[2, 3], 8).unwrap();
        let p = check_copy(&f, &D, &c(&[2, 3]), &D, CopyKind::HostToDevice).unwrap();
        assert_eq!(p.dst().count(), 1);
        assert_eq!(p.src().count(), 6);
        let offsets: Vec<_> = p.chunks().map(|(d, s, _)| (d, s)).collect();
        assert_eq!(
            offsets,
            [(0, 0), (8, 24), (16, 8), (24, 32), (32, 16), (40, 40)]
        );
    }
}
