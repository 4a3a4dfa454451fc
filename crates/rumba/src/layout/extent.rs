//! Byte and index arithmetic under [`Layout`](super::Layout): the range of bytes a shape and
//! strides reach from an offset (with overflow checks), relaxed contiguity, and NumPy's negative
//! indices.

use crate::error::{Error, Result};

/// Maps `i` in `[-n, n)` to `[0, n)`, else [`Error::IndexOutOfRange`].
pub(crate) fn normalize_index(i: isize, axis: usize, n: usize) -> Result<usize> {
    let out = || Error::IndexOutOfRange {
        index: i,
        axis,
        size: n,
    };
    if i < 0 {
        let back = i.unsigned_abs();
        if back > n {
            return Err(out());
        }
        Ok(n - back)
    } else if (i as usize) < n {
        Ok(i as usize)
    } else {
        Err(out())
    }
}

/// `[lo, hi)` bytes touched by a layout, relative to the allocation, or `None` on overflow.
/// `(offset, offset)` when there is no element.
pub(crate) fn extent(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    itemsize: usize,
) -> Option<(isize, isize)> {
    let (lo, hi) = reach(shape, strides, offset, itemsize)?;
    if shape.contains(&0) {
        return Some((offset, offset));
    }
    Some((lo, hi))
}

/// `[lo, hi)` bytes the layout would touch if its length-0 axes had length 1: the bytes of a
/// non-empty layout, and for an empty one the region its offsets can move within when it is
/// sliced. `None` on overflow, also when `hi - lo` would overflow.
pub(crate) fn reach(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    itemsize: usize,
) -> Option<(isize, isize)> {
    let mut lo = offset;
    let mut hi = offset;
    for (&n, &s) in shape.iter().zip(strides) {
        if n > 1 {
            let reach = isize::try_from(n - 1).ok()?.checked_mul(s)?;
            if reach < 0 {
                lo = lo.checked_add(reach)?;
            } else {
                hi = hi.checked_add(reach)?;
            }
        }
    }
    let hi = hi.checked_add(isize::try_from(itemsize).ok()?)?;
    // Callers take `hi - lo` as a byte count: it must not overflow either.
    hi.checked_sub(lo)?;
    Some((lo, hi))
}

/// Relaxed contiguity over axes given innermost first.
pub(crate) fn contiguous<'a>(
    axes: impl Iterator<Item = (&'a usize, &'a isize)> + Clone,
    itemsize: usize,
) -> bool {
    if axes.clone().any(|(&n, _)| n == 0) {
        return true;
    }
    let mut expected = itemsize as isize;
    for (&n, &s) in axes {
        if n != 1 {
            if s != expected {
                return false;
            }
            expected = expected.saturating_mul(n as isize);
        }
    }
    true
}
