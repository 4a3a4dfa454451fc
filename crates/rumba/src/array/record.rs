//! Records on the device: [`DeviceRecord<T>`] (one structured value, Numba's `DeviceRecord`) and
//! [`Field`]s, which name one member of a `#[repr(C)]` record by its byte offset and type.
//!
//! A field is made with the [`field!`](crate::field) macro from the record type and the member
//! name: `field!(Particle, mass)` is a `Field<Particle, f32>` at `offset_of!(Particle, mass)`;
//! the compiler infers the member's type, so reads and writes are typed. A field of a record
//! array is a strided view of that member in every record ([`DeviceArray::field`]).
//!
//! This module touches the driver through element reads and writes.

use std::marker::PhantomData;

use ndarray::{Dimension, Ix0};

use super::DeviceArray;
use super::create::to_device;
use crate::error::{Error, Result, ShapeError};
use crate::layout::Layout;
use crate::layout::element::Element;

/// One member of record type `R`, of type `F`, at a byte offset. Build it with
/// [`field!`](crate::field).
///
/// ```
/// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
/// #[repr(C)]
/// struct Particle { pos: [f32; 2], mass: f64 }
/// rumba::record!(Particle);
/// let mass = rumba::field!(Particle, mass);
/// assert_eq!(mass.offset(), 8);
/// ```
pub struct Field<R, F> {
    offset: usize,
    _types: PhantomData<fn(&R) -> &F>,
}

impl<R, F> Clone for Field<R, F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R, F> Copy for Field<R, F> {}

impl<R, F> Field<R, F> {
    /// The field of type `F` at `offset` bytes into `R`; `project` only fixes the type (it is
    /// never called). `F` may be an element type or a one-dimensional array of one (a sub-array
    /// field, [`DeviceArray::field_array`]; `[u8; N]` a byte string,
    /// [`DeviceRecord::get_bytes`]). Prefer [`field!`](crate::field), which passes `offset_of!` and a projection
    /// that cannot disagree. An offset outside `R` or misaligned for `F` is reported when the
    /// field is used.
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct Pair { a: i32, b: i32 }
    /// rumba::record!(Pair);
    /// let b = rumba::array::Field::new(4, |p: &Pair| &p.b);
    /// assert_eq!(b.offset(), 4);
    /// ```
    pub fn new(offset: usize, project: fn(&R) -> &F) -> Self {
        let _ = project;
        Field {
            offset,
            _types: PhantomData,
        }
    }

    /// Byte offset of the member inside the record.
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct Pair { a: i32, b: i32 }
    /// rumba::record!(Pair);
    /// assert_eq!(rumba::field!(Pair, a).offset(), 0);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }
}

impl<R: Element, F: Element> Field<R, F> {
    fn check(&self) -> Result<()> {
        self.check_as(F::DTYPE, 1)
    }
}

impl<R: Element, F: Element, const N: usize> Field<R, [F; N]> {
    fn check_array(&self) -> Result<()> {
        self.check_as(F::DTYPE, N)
    }
}

impl<R: Element, F> Field<R, F> {
    /// Checks that `n` items of `f` fit, aligned, at the offset inside `R`.
    fn check_as(&self, f: crate::array::element::DType, n: usize) -> Result<()> {
        let r = R::DTYPE;
        let bytes = f.itemsize().checked_mul(n);
        let fits = bytes
            .and_then(|b| self.offset.checked_add(b))
            .is_some_and(|end| end <= r.itemsize());
        if !fits || self.offset % f.align().max(1) != 0 || r.align() % f.align().max(1) != 0 {
            return Err(ShapeError::Field {
                field: f.name(),
                offset: self.offset,
                record_itemsize: r.itemsize(),
                record: r.name(),
            }
            .into());
        }
        Ok(())
    }
}

/// Makes a typed [`Field`] from a record type and a member name.
///
/// ```
/// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
/// #[repr(C)]
/// struct Sample { t: f64, value: f32, flags: u32 }
/// rumba::record!(Sample);
/// let f: rumba::array::Field<Sample, u32> = rumba::field!(Sample, flags);
/// assert_eq!(f.offset(), 12);
/// ```
#[macro_export]
macro_rules! field {
    ($record:ty, $member:ident) => {
        $crate::array::Field::<$record, _>::new(::std::mem::offset_of!($record, $member), |r| {
            &r.$member
        })
    };
}

impl<T: Element, D: Dimension> DeviceArray<T, D> {
    /// The view of one member in every record of a record array: same shape and strides, the
    /// member's offset and type.
    ///
    /// # Errors
    /// [`Error::Shape`] ([`ShapeError::Field`]) when `field` does not fit, aligned, inside the record type `T`
    /// (naming the field's type, offset and the record).
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct P { x: f32, y: f32 }
    /// rumba::record!(P);
    /// let d = rumba::to_device(&[P { x: 1.0, y: 2.0 }, P { x: 3.0, y: 4.0 }]).unwrap();
    /// let y = d.field(rumba::field!(P, y)).unwrap();
    /// assert_eq!(y.strides(), &[8]);
    /// assert_eq!(y.copy_to_host().unwrap().to_vec(), [2.0, 4.0]);
    /// ```
    pub fn field<F: Element>(&self, field: Field<T, F>) -> Result<DeviceArray<F, D>> {
        field.check()?;
        self.with_layout(self.layout.field(field.offset, F::DTYPE.itemsize()))
    }

    /// The view of a sub-array member `[F; N]` in every record (NumPy's `a['v']` of a field
    /// of shape `(N,)`): one more axis, of length `N` and stride `size_of::<F>()`.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the field does not fit, aligned, inside `T`.
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct P { v: [f32; 3], w: f32 }
    /// rumba::record!(P);
    /// let d = rumba::to_device(&[P { v: [1.0, 2.0, 3.0], w: 0.0 }, P { v: [4.0, 5.0, 6.0], w: 0.0 }]).unwrap();
    /// let v = d.field_array(rumba::field!(P, v)).unwrap();
    /// assert_eq!((v.shape(), v.strides()), (&[2, 3][..], &[16, 4][..]));
    /// assert_eq!(v.copy_to_host().unwrap()[[1, 2]], 6.0);
    /// ```
    pub fn field_array<F: Element, const N: usize>(
        &self,
        field: Field<T, [F; N]>,
    ) -> Result<DeviceArray<F, D::Larger>> {
        field.check_array()?;
        let mut shape = self.layout.shape().to_vec();
        let mut strides = self.layout.strides().to_vec();
        shape.push(N);
        strides.push(F::DTYPE.itemsize() as isize);
        let layout = Layout::from_parts(
            shape,
            strides,
            self.layout.offset() + field.offset,
            F::DTYPE.itemsize(),
        );
        self.with_layout(layout)
    }

    /// The record at `index` as a [`DeviceRecord`] view (same index rules as
    /// [`get`](Self::get)).
    ///
    /// # Errors
    /// [`Error::Shape`] when `index` has another length than the number of axes;
    /// [`Error::IndexOutOfRange`] for an index outside `[-n, n)`.
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct P { x: f32, y: f32 }
    /// rumba::record!(P);
    /// let d = rumba::to_device(&[P { x: 1.0, y: 2.0 }, P { x: 3.0, y: 4.0 }]).unwrap();
    /// let r = d.record(&[-1]).unwrap();
    /// r.set_field(rumba::field!(P, x), 9.0).unwrap();
    /// assert_eq!(d.get(&[1]).unwrap().x, 9.0);
    /// ```
    pub fn record(&self, index: &[isize]) -> Result<DeviceRecord<T>> {
        let offset = self.layout.index_offset(index)?;
        Ok(DeviceRecord {
            array: self.with_layout(self.layout.element_at(offset))?,
        })
    }
}

/// A single structured value on the device (Numba's `DeviceRecord`): read or write it whole or
/// one field at a time. Cloning shares the memory.
///
/// ```
/// #[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
/// #[repr(C)]
/// struct Particle { id: u32, mass: f32, x: f64 }
/// rumba::record!(Particle);
/// let r = rumba::array::DeviceRecord::new(Particle { id: 7, mass: 0.5, x: 1.0 }).unwrap();
/// assert_eq!(r.get_field(rumba::field!(Particle, id)).unwrap(), 7);
/// r.set_field(rumba::field!(Particle, mass), 2.0).unwrap();
/// assert_eq!(r.get().unwrap(), Particle { id: 7, mass: 2.0, x: 1.0 });
/// ```
#[derive(Clone, Debug)]
pub struct DeviceRecord<T: Element> {
    array: DeviceArray<T, Ix0>,
}

impl<T: Element> DeviceRecord<T> {
    /// Copies `value` to a new record on the device.
    ///
    /// # Errors
    /// As [`to_device`] of one value.
    ///
    /// ```
    /// let r = rumba::array::DeviceRecord::new(5u64).unwrap(); // any element type works
    /// assert_eq!(r.get().unwrap(), 5);
    /// ```
    pub fn new(value: T) -> Result<Self> {
        let array = to_device(&ndarray::arr0(value))?;
        Ok(DeviceRecord { array })
    }

    /// Wraps a 0-d device array.
    ///
    /// ```
    /// let a = rumba::device_array::<u16, _>((), rumba::Order::C).unwrap();
    /// let r = rumba::array::DeviceRecord::from_array(a);
    /// assert_eq!(r.get().unwrap(), 0);
    /// ```
    pub fn from_array(array: DeviceArray<T, Ix0>) -> Self {
        DeviceRecord { array }
    }

    /// The record as a 0-d device array (sharing memory).
    ///
    /// ```
    /// let r = rumba::array::DeviceRecord::new(1i8).unwrap();
    /// assert_eq!(r.as_array().ndim(), 0);
    /// ```
    pub fn as_array(&self) -> &DeviceArray<T, Ix0> {
        &self.array
    }

    /// Reads the whole record back.
    ///
    /// # Errors
    /// The errors of the copy to the host (the first unreported error of the legacy default stream,
    /// which it waits for).
    ///
    /// ```
    /// assert_eq!(rumba::array::DeviceRecord::new(2.5f32).unwrap().get().unwrap(), 2.5);
    /// ```
    pub fn get(&self) -> Result<T> {
        self.array.get(&[])
    }

    /// Writes the whole record; complete when it returns, or queued on the array's bound stream (see [binding](DeviceArray::bind)).
    ///
    /// # Errors
    /// The errors of the copy to the device.
    ///
    /// ```
    /// let r = rumba::array::DeviceRecord::new(1u32).unwrap();
    /// r.set(7).unwrap();
    /// assert_eq!(r.get().unwrap(), 7);
    /// ```
    pub fn set(&self, value: T) -> Result<()> {
        self.array.set(&[], value)
    }

    /// Reads one field back (only its bytes cross to the host).
    ///
    /// # Errors
    /// As [`DeviceArray::field`] and [`get`](Self::get).
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct Pair { a: i32, b: i32 }
    /// rumba::record!(Pair);
    /// let r = rumba::array::DeviceRecord::new(Pair { a: 1, b: 2 }).unwrap();
    /// assert_eq!(r.get_field(rumba::field!(Pair, b)).unwrap(), 2);
    /// ```
    pub fn get_field<F: Element>(&self, field: Field<T, F>) -> Result<F> {
        self.array.field(field)?.get(&[])
    }

    /// Writes one field (only its bytes); complete when it returns, or queued on the array's bound stream (see [binding](DeviceArray::bind)).
    ///
    /// # Errors
    /// As [`DeviceArray::field`] and [`set`](Self::set).
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct Pair { a: i32, b: i32 }
    /// rumba::record!(Pair);
    /// let r = rumba::array::DeviceRecord::new(Pair { a: 1, b: 2 }).unwrap();
    /// r.set_field(rumba::field!(Pair, a), -1).unwrap();
    /// assert_eq!(r.get().unwrap().a, -1);
    /// ```
    pub fn set_field<F: Element>(&self, field: Field<T, F>, value: F) -> Result<()> {
        self.array.field(field)?.set(&[], value)
    }

    /// Reads one sub-array member `[F; N]` back.
    ///
    /// # Errors
    /// As [`DeviceArray::field_array`] and [`get`](Self::get).
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct P { v: [i32; 2] }
    /// rumba::record!(P);
    /// let r = rumba::array::DeviceRecord::new(P { v: [3, 4] }).unwrap();
    /// assert_eq!(r.get_field_array(rumba::field!(P, v)).unwrap(), [3, 4]);
    /// ```
    pub fn get_field_array<F: Element, const N: usize>(
        &self,
        field: Field<T, [F; N]>,
    ) -> Result<[F; N]> {
        let host = self.array.field_array(field)?.copy_to_host()?;
        let items: Vec<F> = host.iter().copied().collect();
        let n = items.len();
        items
            .try_into()
            .map_err(|_| Error::InvalidArgument(format!("read {n} items of a {N}-item field")))
    }

    /// Writes one sub-array member `[F; N]`; complete when it returns, or queued on the
    /// array's bound stream.
    ///
    /// # Errors
    /// As [`DeviceArray::field_array`] and [`set`](Self::set).
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct P { v: [i32; 2], k: i32 }
    /// rumba::record!(P);
    /// let r = rumba::array::DeviceRecord::new(P { v: [3, 4], k: 5 }).unwrap();
    /// r.set_field_array(rumba::field!(P, v), [7, 8]).unwrap();
    /// assert_eq!((r.get().unwrap().v, r.get().unwrap().k), ([7, 8], 5));
    /// ```
    pub fn set_field_array<F: Element, const N: usize>(
        &self,
        field: Field<T, [F; N]>,
        value: [F; N],
    ) -> Result<()> {
        let view = self.array.field_array(field)?;
        view.copy_from_host_impl(&ndarray::Array1::from(value.to_vec()), None)
    }

    /// Reads a fixed-length byte-string member `[u8; N]` (NumPy's `S` dtype): its bytes
    /// without the trailing zeros.
    ///
    /// # Errors
    /// As [`get_field_array`](Self::get_field_array).
    ///
    /// ```
    /// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    /// #[repr(C)]
    /// struct Tag { id: u32, name: [u8; 8] }
    /// rumba::record!(Tag);
    /// let r = rumba::array::DeviceRecord::new(Tag { id: 1, name: *b"abc\0\0\0\0\0" }).unwrap();
    /// assert_eq!(r.get_bytes(rumba::field!(Tag, name)).unwrap(), b"abc");
    /// r.set_bytes(rumba::field!(Tag, name), b"xy").unwrap();
    /// assert_eq!(r.get().unwrap().name, *b"xy\0\0\0\0\0\0");
    /// assert!(r.set_bytes(rumba::field!(Tag, name), b"too long!").is_err());
    /// ```
    pub fn get_bytes<const N: usize>(&self, field: Field<T, [u8; N]>) -> Result<Vec<u8>> {
        let mut b = self.get_field_array(field)?.to_vec();
        while b.last() == Some(&0) {
            b.pop();
        }
        Ok(b)
    }

    /// Writes a fixed-length byte-string member `[u8; N]`: `value`, then zeros (NumPy's `S`
    /// dtype); complete when it returns, or queued on the array's bound stream.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `value` is longer than `N` bytes (nothing is written),
    /// and as [`set_field_array`](Self::set_field_array).
    pub fn set_bytes<const N: usize>(&self, field: Field<T, [u8; N]>, value: &[u8]) -> Result<()> {
        if value.len() > N {
            return Err(Error::InvalidArgument(format!(
                "a byte string of {} bytes does not fit the {N}-byte field at byte {} of {}",
                value.len(),
                field.offset,
                T::DTYPE.name()
            )));
        }
        let mut b = [0u8; N];
        b[..value.len()].copy_from_slice(value);
        self.set_field_array(field, b)
    }
}
