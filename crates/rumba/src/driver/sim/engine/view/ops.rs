//! New views of a view's memory without copying, as NumPy and Numba make them inside kernels:
//! [`reshape`](View::reshape), [`view`](View::view) (reinterpret the element type) and
//! [`index_axis`](View::index_axis) / [`row`](View::row) (drop an axis).
//!
//! The result reaches exactly the bytes of its base (or a subset), in the same memory space and
//! with the same mode (a read-only view stays read-only), so the soundness argument of
//! [`access`](super::access) carries over unchanged. An incompatible request faults the calling
//! GPU thread with a message naming the shapes, like an out-of-bounds index.

use std::mem::{align_of, size_of};

use bytemuck::Pod;

use super::{MAX_DIMS, MemorySpace, View, fault};
use crate::driver::sim::engine::shape::{Dims, IntoShape, SliceArg};

impl<'a, T: Pod, S: MemorySpace> View<'a, T, S> {
    /// Whether the view is C-contiguous, as NumPy decides it: axes of extent 1 may have any
    /// stride, and an empty view is contiguous.
    ///
    /// ```
    /// let mut d = [0u8; 6];
    /// let v = rumba::kernel::GlobalView::from_slice_mut_with_shape(&mut d, (2, 3)).unwrap();
    /// assert!(v.is_c_contiguous());
    /// assert!(!v.slice_axis(1, 0..2).is_c_contiguous());
    /// ```
    pub fn is_c_contiguous(&self) -> bool {
        if self.size() == 0 {
            return true;
        }
        let mut expect = size_of::<T>() as isize;
        for k in (0..self.ndim).rev() {
            if self.shape[k] != 1 && self.strides[k] != expect {
                return false;
            }
            expect = expect.wrapping_mul(self.shape[k] as isize);
        }
        true
    }

    /// The same elements in C order with another shape (NumPy's `reshape` of a contiguous
    /// array), of 0 to [`MAX_DIMS`] dimensions. Faults the thread if the view is not
    /// C-contiguous or the sizes differ.
    ///
    /// ```
    /// let mut d = [0i32; 6];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// let m = v.reshape((2, 3));
    /// m.set((1, 0), 7);
    /// assert_eq!(m.strides(), &[12, 4]);
    /// assert_eq!(d[3], 7);
    /// ```
    pub fn reshape(&self, shape: impl IntoShape) -> Self {
        self.reshape_dims(shape.into_dims(), None)
    }

    /// [`reshape`](Self::reshape) with the extent of axis `axis` inferred from the size (NumPy's
    /// `-1`): `shape[axis]` is ignored. Faults the thread, besides `reshape`'s cases, if the
    /// other extents' product is 0 or does not divide the size.
    ///
    /// ```
    /// let mut d = [0u8; 12];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// assert_eq!(v.reshape_infer((0, 3), 0).shape(), &[4, 3]);
    /// ```
    pub fn reshape_infer(&self, shape: impl IntoShape, axis: usize) -> Self {
        self.reshape_dims(shape.into_dims(), Some(axis))
    }

    fn reshape_dims(&self, dims: Dims, infer: Option<usize>) -> Self {
        let mut new = [0usize; MAX_DIMS];
        let ndim = dims.as_slice().len();
        new[..ndim].copy_from_slice(dims.as_slice());
        let shown = |new: &[usize]| {
            new.iter()
                .enumerate()
                .map(|(k, d)| {
                    if Some(k) == infer {
                        "-1".to_string()
                    } else {
                        d.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.is_c_contiguous() {
            fault::raise(format!(
                "cannot reshape the non-contiguous {} array of shape {} (strides {:?}): reshape works on C-contiguous arrays only",
                S::NAME,
                crate::error::format_shape(self.shape()),
                self.strides()
            ));
        }
        if let Some(axis) = infer {
            let rest = (0..ndim)
                .filter(|&k| k != axis)
                .try_fold(1usize, |a, k| a.checked_mul(new[k]));
            match rest {
                Some(m) if axis < ndim && m != 0 && self.size() % m == 0 => {
                    new[axis] = self.size() / m;
                }
                _ => fault::raise(format!(
                    "cannot reshape the {} array of size {} (shape {}) into shape ({})",
                    S::NAME,
                    self.size(),
                    crate::error::format_shape(self.shape()),
                    shown(&new[..ndim])
                )),
            }
        }
        let size = new[..ndim]
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d));
        if size != Some(self.size()) {
            fault::raise(format!(
                "cannot reshape the {} array of size {} (shape {}) into shape ({})",
                S::NAME,
                self.size(),
                crate::error::format_shape(self.shape()),
                shown(&new[..ndim])
            ));
        }
        let mut v = *self;
        v.ndim = ndim;
        v.shape = [0; MAX_DIMS];
        v.strides = [0; MAX_DIMS];
        let mut acc = size_of::<T>() as isize;
        for k in (0..ndim).rev() {
            v.shape[k] = new[k];
            v.strides[k] = acc;
            acc = acc.wrapping_mul(new[k] as isize);
        }
        v
    }

    /// NumPy's basic slicing `a[i, 1:3, ::2]`: one [`SliceArg`] per leading axis (the axes
    /// after them are kept whole); an index drops its axis (negative counts from the end) and
    /// must be in bounds, a range keeps it with Python's clamping rules. The result views the
    /// same memory in the same mode. Faults the thread for an index out of bounds, a zero step
    /// or more components than axes.
    ///
    /// ```
    /// use rumba::kernel::{GlobalView, Slice, SliceArg};
    /// let mut d: Vec<i32> = (0..12).collect();
    /// let v = GlobalView::from_slice_mut_with_shape(&mut d, (3, 4)).unwrap();
    /// let r = v.slice_nd(&[SliceArg::Index(-1), SliceArg::Range(Slice::new(None, None, -2))]);
    /// assert_eq!(r.shape(), &[2]);
    /// assert_eq!((r.get(0), r.get(1)), (11, 9));
    /// ```
    pub fn slice_nd(&self, args: &[SliceArg]) -> Self {
        if args.len() > self.ndim {
            fault::raise(format!(
                "too many indices for the {}-d {} array of shape {}: {} components",
                self.ndim,
                S::NAME,
                crate::error::format_shape(self.shape()),
                args.len()
            ));
        }
        let mut v = *self;
        let mut out = 0;
        for (k, a) in args.iter().enumerate() {
            let n = self.shape[k];
            match *a {
                SliceArg::Index(i) => {
                    let j = if i < 0 { i.wrapping_add(n as isize) } else { i };
                    if j < 0 || j as usize >= n {
                        fault::raise(format!(
                            "index {i} is out of bounds for axis {k} with size {n} of the {} array at {:p} with shape {}",
                            S::NAME,
                            self.ptr,
                            crate::error::format_shape(self.shape())
                        ));
                    }
                    // `j` is a valid index of the axis.
                    v.ptr = v.ptr.wrapping_offset(j.wrapping_mul(self.strides[k]));
                }
                SliceArg::Range(s) => {
                    if s.step == 0 {
                        fault::raise(format!(
                            "slice step cannot be zero (slicing axis {k} of a {} array)",
                            S::NAME
                        ));
                    }
                    let (start, count) = s.resolve(n);
                    if count > 0 {
                        // `start` is a valid index of the axis.
                        v.ptr = v.ptr.wrapping_offset(start.wrapping_mul(self.strides[k]));
                    }
                    v.shape[out] = count;
                    v.strides[out] = self.strides[k].wrapping_mul(s.step);
                    out += 1;
                }
            }
        }
        for k in args.len()..self.ndim {
            v.shape[out] = self.shape[k];
            v.strides[out] = self.strides[k];
            out += 1;
        }
        for k in out..MAX_DIMS {
            v.shape[k] = 0;
            v.strides[k] = 0;
        }
        v.ndim = out;
        v
    }

    /// The same bytes as elements of type `U` (NumPy's `ndarray.view(dtype)`, with its rules):
    /// with another item size the view must be C-contiguous and its last axis's bytes must
    /// divide into `U`s, and the memory must be aligned for `U`. Faults the thread otherwise.
    /// A `bool` element is a [`DeviceBool`](crate::kernel::DeviceBool), so any byte viewed as
    /// one reads as a valid `bool`.
    ///
    /// ```
    /// let mut d = [0u32; 2];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    /// let bytes = v.view::<u8>();
    /// assert_eq!(bytes.shape(), &[8]);
    /// bytes.set(4, 1);
    /// assert_eq!(d[1], u32::from_ne_bytes([1, 0, 0, 0]));
    /// ```
    pub fn view<U: Pod>(&self) -> View<'a, U, S> {
        let (from, to) = (size_of::<T>(), size_of::<U>());
        let mut shape = self.shape;
        let mut strides = self.strides;
        if from != to {
            if self.ndim == 0 || to == 0 {
                self.bad_view::<U>("a 0-d array or a zero-sized type");
            }
            if !self.is_c_contiguous() {
                self.bad_view::<U>("the array is not C-contiguous");
            }
            let last = self.ndim - 1;
            let bytes = self.shape[last] * from;
            if bytes % to != 0 {
                self.bad_view::<U>("the last axis's bytes do not divide into the new items");
            }
            shape[last] = bytes / to;
            strides[last] = to as isize;
        }
        let align = align_of::<U>();
        if align > align_of::<T>()
            && ((self.ptr as usize) % align != 0
                || (0..self.ndim).any(|k| shape[k] > 1 && strides[k] % align as isize != 0))
        {
            self.bad_view::<U>("the memory is not aligned for the new type");
        }
        View {
            ptr: self.ptr,
            ndim: self.ndim,
            shape,
            strides,
            mode: self.mode,
            _marker: std::marker::PhantomData,
        }
    }

    #[cold]
    #[inline(never)]
    fn bad_view<U>(&self, why: &str) -> ! {
        fault::raise(format!(
            "cannot view the {} array of {} with shape {} as {}: {why}",
            S::NAME,
            std::any::type_name::<T>(),
            crate::error::format_shape(self.shape()),
            std::any::type_name::<U>(),
        ))
    }

    /// The sub-array at index `i` of axis `axis`, with that axis dropped (ndarray's
    /// `index_axis`; of a 1-d view, the 0-d view of one element). Faults the thread if the axis
    /// does not exist or `i` is out of bounds.
    ///
    /// ```
    /// let mut d = [1, 2, 3, 4, 5, 6];
    /// let v = rumba::kernel::GlobalView::from_slice_mut_with_shape(&mut d, (2, 3)).unwrap();
    /// let col = v.index_axis(1, 2);
    /// assert_eq!((col.get(0), col.get(1)), (3, 6));
    /// ```
    pub fn index_axis(&self, axis: usize, i: usize) -> Self {
        if axis >= self.ndim {
            fault::raise(format!(
                "cannot drop axis {axis} of a {}-d {} array (index its elements instead)",
                self.ndim,
                S::NAME
            ));
        }
        if i >= self.shape[axis] {
            fault::raise(format!(
                "index {i} is out of bounds for axis {axis} with size {} of the {} array at {:p} with shape {}",
                self.shape[axis],
                S::NAME,
                self.ptr,
                crate::error::format_shape(self.shape())
            ));
        }
        let mut v = *self;
        // `i` is a valid index of the axis, so the new base is an element of the view.
        v.ptr = self
            .ptr
            .wrapping_offset((i as isize).wrapping_mul(self.strides[axis]));
        for k in axis..self.ndim - 1 {
            v.shape[k] = self.shape[k + 1];
            v.strides[k] = self.strides[k + 1];
        }
        v.ndim -= 1;
        v.shape[v.ndim] = 0;
        v.strides[v.ndim] = 0;
        v
    }

    /// The same elements' field `field` (a projection `|r| &r.b` of the record type): a view of
    /// the field in every element, same shape and strides (NumPy's `a['b']`), in the same mode.
    /// Faults the thread if `field` does not return a field of its argument (a reference into
    /// the record, aligned for `U`).
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct P { x: f32, y: f32 }
    /// let mut d = [P { x: 1.0, y: 2.0 }, P { x: 3.0, y: 4.0 }];
    /// let strides = {
    ///     let v = rumba::kernel::GlobalView::from_slice_mut(&mut d);
    ///     let y = v.project(|p: &P| &p.y);
    ///     y.set(1, 9.0);
    ///     y.strides().to_vec()
    /// };
    /// assert_eq!((strides, d[1].y, d[1].x), (vec![8], 9.0, 3.0));
    /// ```
    pub fn project<U: Pod>(&self, field: fn(&T) -> &U) -> View<'a, U, S> {
        let zero = T::zeroed();
        let base = &zero as *const T as usize;
        let at = field(&zero) as *const U as usize;
        let off = at.wrapping_sub(base);
        if at < base
            || off + size_of::<U>() > size_of::<T>()
            || off % align_of::<U>() != 0
            || align_of::<U>() > align_of::<T>()
        {
            fault::raise(format!(
                "a projection of {} to {} that is not one of its fields",
                std::any::type_name::<T>(),
                std::any::type_name::<U>()
            ));
        }
        View {
            // Inside every element the view reaches: `off + size_of::<U>() <= size_of::<T>()`.
            ptr: self.ptr.wrapping_add(off),
            ndim: self.ndim,
            shape: self.shape,
            strides: self.strides,
            mode: self.mode,
            _marker: std::marker::PhantomData,
        }
    }

    /// Row `i`: [`index_axis`](Self::index_axis) of axis 0.
    ///
    /// ```
    /// let mut d = [1, 2, 3, 4, 5, 6];
    /// let v = rumba::kernel::GlobalView::from_slice_mut_with_shape(&mut d, (2, 3)).unwrap();
    /// assert_eq!(v.row(1).get(0), 4);
    /// ```
    pub fn row(&self, i: usize) -> Self {
        self.index_axis(0, i)
    }
}

impl<'a, U: Pod, const N: usize, S: MemorySpace> View<'a, [U; N], S> {
    /// The elements of arrays `[U; N]` as a view of `U` with one more axis, of length `N`
    /// (NumPy's view of a sub-array field). Faults the thread if the view already has
    /// [`MAX_DIMS`] dimensions.
    ///
    /// ```
    /// let mut d = [[1u16, 2, 3], [4, 5, 6]];
    /// let v = rumba::kernel::GlobalView::from_slice_mut(&mut d).subarray();
    /// assert_eq!((v.shape(), v.get((1, 2))), (&[2, 3][..], 6));
    /// ```
    pub fn subarray(&self) -> View<'a, U, S> {
        if self.ndim >= MAX_DIMS {
            fault::raise(format!(
                "a view of the sub-arrays of a {}-d array would have more than {MAX_DIMS} dimensions",
                self.ndim
            ));
        }
        let mut v = View {
            ptr: self.ptr,
            ndim: self.ndim + 1,
            shape: self.shape,
            strides: self.strides,
            mode: self.mode,
            _marker: std::marker::PhantomData,
        };
        v.shape[self.ndim] = N;
        v.strides[self.ndim] = size_of::<U>() as isize;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::fault_of;
    use crate::driver::sim::engine::GlobalView;

    #[test]
    fn reshape_checks_size_and_contiguity() {
        let mut d = [0i32; 6];
        let v = GlobalView::from_slice_mut(&mut d);
        assert!(
            fault_of(|| {
                let _ = v.reshape((4, 2));
            })
            .contains("of size 6")
        );
        let m = v.reshape((2, 3));
        let col = m.slice_axis(1, 0..2);
        assert!(
            fault_of(|| {
                let _ = col.reshape(4);
            })
            .contains("non-contiguous")
        );
        assert_eq!(m.reshape((3, 1, 2)).strides(), &[8, 8, 4]);
        assert_eq!(m.reshape((1, 2, 1, 3, 1, 1)).shape(), &[1, 2, 1, 3, 1, 1]);
        assert_eq!(m.reshape_infer((2, 0, 1), 1).shape(), &[2, 3, 1]);
        assert!(
            fault_of(|| {
                let _ = m.reshape_infer((4, 0), 1);
            })
            .contains("into shape (4, -1)")
        );
        assert!(
            fault_of(|| {
                let _ = m.reshape_infer((0, 0), 0);
            })
            .contains("into shape (-1, 0)")
        );
        let mut one = [5i32];
        let z = GlobalView::from_slice_mut(&mut one).reshape(());
        assert_eq!((z.ndim(), z.get(()), z.size(), z.len()), (0, 5, 1, 1));
    }

    #[test]
    fn slice_nd_follows_numpy() {
        use crate::driver::sim::engine::{Slice, SliceArg};
        let mut d: Vec<i32> = (0..24).collect();
        let v = GlobalView::from_slice_mut_with_shape(&mut d, (2, 3, 4)).unwrap();
        // a[1, ::-1] is shape (3, 4), rows reversed.
        let r = v.slice_nd(&[
            SliceArg::Index(1),
            SliceArg::Range(Slice::new(None, None, -1)),
        ]);
        assert_eq!(r.shape(), &[3, 4]);
        assert_eq!(r.get((0, 0)), 20);
        // a[-1, 1:100, 3] is shape (2,): elements 19, 23.
        let c = v.slice_nd(&[
            SliceArg::Index(-1),
            SliceArg::Range(Slice::from(1..100)),
            SliceArg::Index(3),
        ]);
        assert_eq!((c.shape(), c.get(0), c.get(1)), (&[2][..], 19, 23));
        // Every axis indexed: a 0-d view.
        let e = v.slice_nd(&[SliceArg::Index(0), SliceArg::Index(2), SliceArg::Index(-1)]);
        assert_eq!((e.ndim(), e.get(())), (0, 11));
        // An empty range has nothing; a bad index, a zero step and too many components fault.
        let none = v.slice_nd(&[SliceArg::Range(Slice::from(5..9))]);
        assert_eq!(none.shape(), &[0, 3, 4]);
        assert!(
            fault_of(|| {
                let _ = v.slice_nd(&[SliceArg::Index(2)]);
            })
            .contains("index 2 is out of bounds for axis 0 with size 2")
        );
        assert!(
            fault_of(|| {
                let _ = v.slice_nd(&[SliceArg::Index(-3)]);
            })
            .contains("index -3 is out of bounds for axis 0")
        );
        assert!(
            fault_of(|| {
                let _ = v.slice_nd(&[SliceArg::Range(Slice::from(..).step_by(0))]);
            })
            .contains("step cannot be zero")
        );
        assert!(
            fault_of(|| {
                let _ = v.slice_nd(&[SliceArg::Index(0); 4]);
            })
            .contains("too many indices")
        );
    }

    #[test]
    fn view_follows_itemsize_rules() {
        // The bytes' alignment is fixed (Miri places a plain `[u8; 6]` at any address, and a
        // misaligned one would be refused for its alignment before its size).
        #[repr(C, align(8))]
        struct Aligned([u8; 6]);
        let mut d = Aligned([0u8; 6]);
        let v = GlobalView::from_slice_mut(&mut d.0);
        assert!(
            fault_of(|| {
                let _ = v.view::<u32>();
            })
            .contains("do not divide")
        );
        let w = v.reshape((3, 2)).view::<u16>();
        assert_eq!(w.shape(), &[3, 1]);
        let mut e = [0u32; 4];
        let b = GlobalView::from_slice_mut(&mut e).view::<u8>();
        let odd = b.slice(1..5);
        assert!(
            fault_of(|| {
                let _ = odd.view::<u32>();
            })
            .contains("aligned")
        );
    }

    #[test]
    fn index_axis_drops_and_checks() {
        let mut d = [0u16; 6];
        let v = GlobalView::from_slice_mut_with_shape(&mut d, (3, 2)).unwrap();
        let r = v.row(2);
        r.set(1, 9);
        assert_eq!(v.get((2, 1)), 9);
        assert!(
            fault_of(|| {
                let _ = v.row(3);
            })
            .contains("index 3 is out of bounds for axis 0")
        );
        // A row of a 1-d array is its 0-d element; a 0-d array has no axis to drop.
        let e = r.row(1);
        assert_eq!((e.ndim(), e.get(())), (0, 9));
        assert!(
            fault_of(|| {
                let _ = e.row(0);
            })
            .contains("cannot drop axis 0 of a 0-d")
        );
    }
}
