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
use crate::error::{Result, ShapeError};
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

impl<R: Element, F: Element> Field<R, F> {
    /// The field of type `F` at `offset` bytes into `R`; `project` only fixes the type (it is
    /// never called). Prefer [`field!`](crate::field), which passes `offset_of!` and a projection
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

    fn check(&self) -> Result<()> {
        let (r, f) = (R::DTYPE, F::DTYPE);
        let fits = self
            .offset
            .checked_add(f.itemsize())
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
    /// [`Error::Shape`](crate::Error::Shape) ([`ShapeError::Field`]) when `field` does not fit, aligned, inside the record type `T`
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

    /// The record at `index` as a [`DeviceRecord`] view (same index rules as
    /// [`get`](Self::get)).
    ///
    /// # Errors
    /// [`Error::Shape`](crate::Error::Shape) when `index` has another length than the number of axes;
    /// [`Error::IndexOutOfRange`](crate::Error::IndexOutOfRange) for an index outside `[-n, n)`.
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
}
