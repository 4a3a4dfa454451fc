//! [`ContiguousRuns`]: the elements of a strided layout as runs of contiguous bytes, for the copy
//! engine that packs and unpacks strided host or device views.
//!
//! Runs follow the layout's logical (C index) order, so two layouts of the same shape produce
//! byte streams that correspond element by element. Length-1 axes are dropped, innermost axes
//! whose stride continues the run are merged into it (a C-contiguous layout is **one** run), and
//! outer axes that continue each other are merged too. What remains is a nested loop: `count`
//! runs of `run_len` bytes, whose starts follow an odometer over the outer `(len, stride)` axes.
//! Its innermost level is exposed as [`RunBlock`]s — `(start, run_len, count, stride)` — so a
//! copy loop over "every other column" is one tight loop per block.
//!
//! Offsets are bytes from the start of the allocation, as in [`Layout`].
//!
//! This module touches nothing but the `layout` module and [`crate::error`].

use super::array_layout::Layout;

/// One level of equally spaced runs: `count` runs of `run_len` bytes at
/// `start, start + stride, start + 2·stride, …` (stride may be negative or zero).
///
/// ```
/// use ndarray::s;
/// use rumba::layout::Layout;
/// let every_other_column = Layout::c_order(&[4, 6], 8).unwrap().slice(s![.., ..;2]).unwrap();
/// let b = every_other_column.runs().blocks().next().unwrap();
/// assert_eq!((b.start, b.run_len, b.count, b.stride), (0, 8, 12, 16));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunBlock {
    /// Byte offset of the first run.
    pub start: usize,
    /// Bytes per run.
    pub run_len: usize,
    /// Number of runs.
    pub count: usize,
    /// Byte distance between the starts of consecutive runs.
    pub stride: isize,
}

impl RunBlock {
    /// Byte offset of run `i`; meaningful for `i < count` (beyond it the arithmetic wraps
    /// instead of panicking).
    ///
    /// ```
    /// let b = rumba::layout::RunBlock { start: 64, run_len: 8, count: 3, stride: -16 };
    /// assert_eq!(b.run_start(2), 32);
    /// ```
    pub fn run_start(&self, i: usize) -> usize {
        (self.start as isize).wrapping_add((i as isize).wrapping_mul(self.stride)) as usize
    }
}

/// The byte runs covering a layout's elements in logical order; see the [module docs](self).
///
/// ```
/// use ndarray::s;
/// use rumba::layout::Layout;
/// let c = Layout::c_order(&[1000, 1000], 4).unwrap();
/// assert_eq!(c.runs().iter().collect::<Vec<_>>(), [(0, 4_000_000)]);
///
/// let cols = c.slice(s![..2, ..4;2]).unwrap();
/// assert_eq!(cols.runs().iter().collect::<Vec<_>>(), [(0, 4), (8, 4), (4000, 4), (4008, 4)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContiguousRuns {
    start: usize,
    run_len: usize,
    count: usize,
    /// Outer axes, outermost first, after merging.
    outer: Vec<(usize, isize)>,
}

impl ContiguousRuns {
    /// The runs of `layout` (same as [`Layout::runs`]).
    ///
    /// ```
    /// use rumba::layout::{ContiguousRuns, Layout};
    /// let f = Layout::f_order(&[3, 2], 8).unwrap();
    /// let r = ContiguousRuns::new(&f);
    /// assert_eq!((r.run_len(), r.count()), (8, 6)); // C order over an F array: element by element
    /// assert_eq!(ContiguousRuns::new(&f.t()).count(), 1);
    /// ```
    pub fn new(layout: &Layout) -> ContiguousRuns {
        if layout.size() == 0 {
            return ContiguousRuns {
                start: layout.offset(),
                run_len: 0,
                count: 0,
                outer: Vec::new(),
            };
        }
        let mut axes: Vec<(usize, isize)> = layout
            .shape()
            .iter()
            .zip(layout.strides())
            .filter(|&(&n, _)| n != 1)
            .map(|(&n, &s)| (n, s))
            .collect();
        // Grow the run over the innermost axes that continue it. Sizes fit: the run never
        // exceeds the layout's own bytes.
        let mut run_len = layout.itemsize();
        while let Some(&(n, s)) = axes.last() {
            if s != run_len as isize {
                break;
            }
            run_len *= n;
            axes.pop();
        }
        // Merge outer axes that continue each other (outer stride = inner len × inner stride).
        let mut outer: Vec<(usize, isize)> = Vec::with_capacity(axes.len());
        for &(n, s) in axes.iter().rev() {
            match outer.last_mut() {
                Some((ni, si)) if (*ni as isize).checked_mul(*si) == Some(s) => *ni *= n,
                _ => outer.push((n, s)),
            }
        }
        outer.reverse();
        let count = outer.iter().map(|&(n, _)| n).product();
        ContiguousRuns {
            start: layout.offset(),
            run_len,
            count,
            outer,
        }
    }

    /// Byte offset of the first run (the layout's offset).
    ///
    /// ```
    /// use ndarray::s;
    /// let l = rumba::layout::Layout::c_order(&[8], 2).unwrap().slice(s![3..]).unwrap();
    /// assert_eq!(l.runs().start(), 6);
    /// ```
    pub fn start(&self) -> usize {
        self.start
    }

    /// Bytes per run (0 when there is no element).
    ///
    /// ```
    /// assert_eq!(rumba::layout::Layout::c_order(&[8, 2], 2).unwrap().runs().run_len(), 32);
    /// ```
    pub fn run_len(&self) -> usize {
        self.run_len
    }

    /// Number of runs (0 when there is no element).
    ///
    /// ```
    /// assert_eq!(rumba::layout::Layout::c_order(&[0, 2], 2).unwrap().runs().count(), 0);
    /// ```
    pub fn count(&self) -> usize {
        self.count
    }

    /// Total bytes in all runs (the layout's `nbytes`).
    ///
    /// ```
    /// assert_eq!(rumba::layout::Layout::c_order(&[8, 2], 2).unwrap().runs().total_bytes(), 32);
    /// ```
    pub fn total_bytes(&self) -> usize {
        self.run_len * self.count
    }

    /// The outer loop axes `(len, byte stride)`, outermost first, after merging.
    ///
    /// ```
    /// use ndarray::s;
    /// let l = rumba::layout::Layout::c_order(&[4, 6], 8).unwrap().slice(s![.., ..;2]).unwrap();
    /// assert_eq!(l.runs().outer(), &[(12, 16)]);
    /// ```
    pub fn outer(&self) -> &[(usize, isize)] {
        &self.outer
    }

    /// The whole plan as one [`RunBlock`] when it has at most one outer level (contiguous
    /// layouts, regular strides), else `None` (use [`blocks`](ContiguousRuns::blocks)).
    ///
    /// ```
    /// use rumba::layout::{Layout, RunBlock};
    /// let c = Layout::c_order(&[3, 4], 8).unwrap();
    /// assert_eq!(c.runs().two_level(), Some(RunBlock { start: 0, run_len: 96, count: 1, stride: 0 }));
    /// ```
    pub fn two_level(&self) -> Option<RunBlock> {
        match self.outer.as_slice() {
            [] => Some(RunBlock {
                start: self.start,
                run_len: self.run_len,
                count: self.count,
                stride: 0,
            }),
            [(n, s)] => Some(RunBlock {
                start: self.start,
                run_len: self.run_len,
                count: *n,
                stride: *s,
            }),
            _ => None,
        }
    }

    /// The runs grouped by their innermost outer level: one [`RunBlock`] per combination of the
    /// other outer indices, in order. Nothing for an empty layout.
    ///
    /// ```
    /// use ndarray::s;
    /// use rumba::layout::Layout;
    /// let l = Layout::c_order(&[2, 3, 4], 8).unwrap().slice(s![.., ..;2, ..;2]).unwrap();
    /// let blocks: Vec<_> = l.runs().blocks().map(|b| (b.start, b.count)).collect();
    /// assert_eq!(blocks, [(0, 2), (64, 2), (96, 2), (160, 2)]);
    /// ```
    pub fn blocks(&self) -> Blocks<'_> {
        let (inner, rest) = match self.outer.split_last() {
            Some((&(n, s), rest)) => ((n, s), rest),
            None => ((1, 0), &[][..]),
        };
        Blocks {
            runs: self,
            inner,
            rest,
            index: vec![0; rest.len()],
            next: (self.count > 0).then_some(self.start as isize),
        }
    }

    /// Every run as `(byte_offset, byte_len)`, in order.
    ///
    /// ```
    /// use ndarray::s;
    /// let l = rumba::layout::Layout::c_order(&[5], 4).unwrap().slice(s![..;-2]).unwrap();
    /// assert_eq!(l.runs().iter().collect::<Vec<_>>(), [(16, 4), (8, 4), (0, 4)]);
    /// ```
    pub fn iter(&self) -> Runs<'_> {
        Runs {
            blocks: self.blocks(),
            block: None,
            i: 0,
        }
    }
}

/// Iterator over the [`RunBlock`]s of a [`ContiguousRuns`], from [`ContiguousRuns::blocks`].
///
/// ```
/// let c = rumba::layout::Layout::c_order(&[3], 1).unwrap();
/// assert_eq!(c.runs().blocks().count(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Blocks<'a> {
    runs: &'a ContiguousRuns,
    inner: (usize, isize),
    rest: &'a [(usize, isize)],
    index: Vec<usize>,
    next: Option<isize>,
}

impl Iterator for Blocks<'_> {
    type Item = RunBlock;

    fn next(&mut self) -> Option<RunBlock> {
        let start = self.next?;
        let block = RunBlock {
            start: start as usize,
            run_len: self.runs.run_len,
            count: self.inner.0,
            stride: self.inner.1,
        };
        // Odometer over the outer axes other than the innermost.
        let mut pos = start;
        self.next = None;
        for k in (0..self.rest.len()).rev() {
            let (n, s) = self.rest[k];
            if self.index[k] + 1 < n {
                self.index[k] += 1;
                self.next = Some(pos + s);
                break;
            }
            pos -= (n as isize - 1) * s;
            self.index[k] = 0;
        }
        Some(block)
    }
}

/// Iterator over `(byte_offset, byte_len)` runs, from [`ContiguousRuns::iter`].
///
/// ```
/// let c = rumba::layout::Layout::c_order(&[3], 1).unwrap();
/// assert_eq!(c.runs().iter().next(), Some((0, 3)));
/// ```
#[derive(Clone, Debug)]
pub struct Runs<'a> {
    blocks: Blocks<'a>,
    block: Option<RunBlock>,
    i: usize,
}

impl Iterator for Runs<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        loop {
            if let Some(b) = self.block {
                if self.i < b.count {
                    let out = (b.run_start(self.i), b.run_len);
                    self.i += 1;
                    return Some(out);
                }
            }
            self.block = Some(self.blocks.next()?);
            self.i = 0;
        }
    }
}

impl Layout {
    /// The contiguous byte runs of this layout in logical order ([`ContiguousRuns::new`]).
    ///
    /// ```
    /// let l = rumba::layout::Layout::c_order(&[2, 3], 4).unwrap();
    /// assert_eq!(l.runs().iter().collect::<Vec<_>>(), [(0, 24)]);
    /// ```
    pub fn runs(&self) -> ContiguousRuns {
        ContiguousRuns::new(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{NewAxis, s};

    /// Element offsets in C index order, the slow way.
    fn element_offsets(l: &Layout) -> Vec<usize> {
        let mut out = Vec::new();
        let n = l.ndim();
        if l.size() == 0 {
            return out;
        }
        let mut idx = vec![0usize; n];
        loop {
            let off: isize = l.offset() as isize
                + idx
                    .iter()
                    .zip(l.strides())
                    .map(|(&i, &s)| i as isize * s)
                    .sum::<isize>();
            out.push(off as usize);
            let mut k = n;
            loop {
                if k == 0 {
                    return out;
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < l.shape()[k] {
                    break;
                }
                idx[k] = 0;
            }
        }
    }

    fn expand(r: &ContiguousRuns, itemsize: usize) -> Vec<usize> {
        r.iter()
            .flat_map(|(o, len)| (0..len / itemsize).map(move |k| o + k * itemsize))
            .collect()
    }

    #[test]
    fn runs_cover_the_elements_in_order() {
        let base = Layout::c_order(&[4, 5, 6], 8).unwrap();
        let views = [
            base.clone(),
            base.t(),
            base.slice(s![.., 1..4, ..]).unwrap(),
            base.slice(s![..;-1, .., ..;2]).unwrap(),
            base.slice(s![1, .., 2]).unwrap(),
            base.slice(s![.., ..0, ..]).unwrap(),
            base.slice(s![NewAxis, 1.., NewAxis, 2, ..;-3]).unwrap(),
            Layout::scalar(8).unwrap(),
            Layout::c_order(&[3], 8)
                .unwrap()
                .broadcast_to(&[4, 3])
                .unwrap(),
        ];
        for v in views {
            let r = v.runs();
            assert_eq!(expand(&r, 8), element_offsets(&v), "{v:?}");
            assert_eq!(r.total_bytes(), v.nbytes());
            let blocks: usize = r.blocks().map(|b| b.count).sum();
            assert_eq!(blocks, r.count());
        }
    }

    #[test]
    fn merging() {
        let base = Layout::c_order(&[4, 5, 6], 8).unwrap();
        assert_eq!(base.runs().count(), 1);
        // Rows 1..4 of each plane: 4 runs of 3 rows.
        let r = base.slice(s![.., 1..4, ..]).unwrap().runs();
        assert_eq!(
            (r.count(), r.run_len(), r.outer()),
            (4, 144, &[(4, 240)][..])
        );
        // Every other plane, whole planes: outer axis stays.
        let r = base.slice(s![..;2, .., ..]).unwrap().runs();
        assert_eq!((r.count(), r.run_len()), (2, 240));
        // Every other element of everything merges into one outer axis.
        let r = Layout::c_order(&[4, 6], 8)
            .unwrap()
            .slice(s![.., ..;2])
            .unwrap()
            .runs();
        assert_eq!(r.outer(), &[(12, 16)]);
        assert!(r.two_level().is_some());
        let r = base.slice(s![..;2, ..;2, ..;2]).unwrap().runs();
        assert!(r.two_level().is_none());
    }
}
