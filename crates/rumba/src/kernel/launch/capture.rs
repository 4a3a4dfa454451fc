//! Captured device arrays: Numba's "global device array" capture in Rust form.
//!
//! In Numba a kernel may name a device array that lives in the enclosing module; the array
//! becomes part of the kernel, stays alive while the kernel may use it, and the kernel reads and
//! writes it like an argument. A Rust `fn` item cannot capture locals, so the Rust form of a
//! module-level array is a `static` cell, [`Captured<T>`], which the kernel declares on its
//! attribute and then names in its body like an array parameter:
//!
//! ```
//! use rumba::kernel::prelude::*;
//!
//! static TABLE: Captured<f32> = Captured::new();
//!
//! #[kernel(capture(TABLE: &mut Arr<f32>))]
//! fn scale(t: &Thread, k: f32) {
//!     let i = t.grid1();
//!     if i < TABLE.len() {
//!         TABLE[i] *= k;
//!     }
//! }
//!
//! # fn main() {
//! let d = rumba::to_device(&[1.0f32, 2.0, 3.0]).unwrap();
//! TABLE.set(d.clone());
//! scale().configure(1, 4).launch((2.0f32,)).unwrap();
//! assert_eq!(d.copy_to_host().unwrap().to_vec(), [2.0, 4.0, 6.0]);
//! # }
//! ```
//!
//! How it works, and why:
//! - **An implicit trailing argument.** Each capture is one more array parameter of the kernel,
//!   after the written ones, on every backend (the simulator's views, CUDA C and OpenCL C see an
//!   ordinary array parameter named `cap_NAME`). The caller passes only the written arguments;
//!   the launch reads each cell and appends its array.
//! - **Read at launch, kept alive by the launch.** The launch takes a clone of the cell's handle
//!   (a [`DeviceArray`] shares its buffer), so the array the kernel sees is the one in the cell at
//!   the moment of the launch; the stream keeps its buffer alive until the kernel has run, exactly
//!   as for an ordinary device-array argument. Dropping the caller's handle, clearing the cell or
//!   setting another array right after an asynchronous launch cannot free memory under the kernel.
//!   Unlike Numba, where the captured pointer is frozen into the compiled kernel, replacing the
//!   array in the cell takes effect at the next launch (no recompilation).
//! - **Errors.** An empty cell refuses the launch with [`Error::EmptyCapture`] naming the kernel
//!   and the capture, before anything is queued (no transfer, no kernel). An array with a
//!   different number of dimensions than the kernel indexes the capture with is refused like an
//!   ordinary argument ([`Error::CaptureRank`]). The element type is part of the cell's type,
//!   so a mismatch is a compile error at the capture's declaration.
//! - **`&mut` is not exclusive**, as for parameters: every GPU thread of every launch that
//!   captures the cell may write the array. Mutations are visible on the host after the stream is
//!   synchronized (copying the array to the host waits for it).
//! - **Device functions** (`#[rumba::device]`) take no arrays in this version and cannot capture;
//!   the kernel captures the array and passes the device function the elements it needs.
//!
//! This module touches device arrays (clones of handles) and the launch plan; nothing else.

use std::sync::RwLock;

use ndarray::{Dimension, IxDyn};

use super::args::Plan;
use super::elements::KernelElement;
use crate::array::DeviceArray;
use crate::error::{Error, Result};
use crate::sync::{read, write};

/// A `static` cell holding the device array a kernel captures: Numba's global device arrays in
/// Rust form (see also [the prelude](crate::kernel::prelude#captured-device-arrays)).
///
/// `const`-constructible, thread-safe, and holding a shared handle: [`set`](Self::set) a
/// [`DeviceArray`] (of any dimensionality) and every later launch of a kernel declared with
/// `#[rumba::kernel(capture(NAME: &Arr<T>))]` (or `&mut Arr<T>` to write it) passes that array
/// as a trailing argument the caller does not write. The launch takes its own handle, so the
/// stream keeps the array alive until the kernel has run, whatever happens to the cell or to the
/// caller's handle afterwards; setting another array affects later launches only. An empty cell
/// fails the launch with [`Error::EmptyCapture`] before anything is queued; an array of another
/// number of dimensions than the kernel indexes with fails it with [`Error::CaptureRank`].
/// Writes through a `&mut` capture are visible on the host once the stream is synchronized.
///
/// ```
/// use rumba::kernel::Captured;
///
/// static LUT: Captured<u8> = Captured::new();
/// assert!(!LUT.is_set());
/// let d = rumba::to_device(&[1u8, 2, 3]).unwrap();
/// assert!(LUT.set(d.clone()).is_none());
/// assert_eq!(LUT.get().unwrap().shape(), &[3]);
/// let old = LUT.clear().unwrap();
/// assert_eq!(old.copy_to_host().unwrap().as_slice().unwrap(), [1, 2, 3]);
/// assert!(LUT.get().is_none());
/// ```
pub struct Captured<T: KernelElement> {
    cell: RwLock<Option<DeviceArray<T, IxDyn>>>,
}

impl<T: KernelElement> Captured<T> {
    /// An empty cell (launching a kernel that captures it fails until it is [`set`](Self::set)).
    ///
    /// ```
    /// static C: rumba::kernel::Captured<f32> = rumba::kernel::Captured::new();
    /// assert!(C.get().is_none());
    /// ```
    pub const fn new() -> Self {
        Captured {
            cell: RwLock::new(None),
        }
    }

    /// Puts `array` in the cell (sharing its buffer with the caller's handle) and returns the
    /// array it held before, if any. Launches already made keep the array they took.
    ///
    /// ```
    /// static C: rumba::kernel::Captured<i32> = rumba::kernel::Captured::new();
    /// C.set(rumba::to_device(&[1, 2]).unwrap());
    /// let old = C.set(rumba::to_device(&ndarray::arr2(&[[3, 4], [5, 6]])).unwrap()).unwrap();
    /// assert_eq!(old.shape(), &[2]);
    /// assert_eq!(C.get().unwrap().shape(), &[2, 2]);
    /// ```
    pub fn set<D: Dimension>(&self, array: DeviceArray<T, D>) -> Option<DeviceArray<T, IxDyn>> {
        self.replace(Some(array.into_dyn()))
    }

    /// Puts `array` (or nothing) in the cell and returns what it held.
    ///
    /// ```
    /// static C: rumba::kernel::Captured<f64> = rumba::kernel::Captured::new();
    /// assert!(C.replace(Some(rumba::to_device(&[1.0]).unwrap().into_dyn())).is_none());
    /// assert!(C.replace(None).is_some());
    /// assert!(!C.is_set());
    /// ```
    pub fn replace(&self, array: Option<DeviceArray<T, IxDyn>>) -> Option<DeviceArray<T, IxDyn>> {
        let mut cell = write(&self.cell);
        std::mem::replace(&mut *cell, array)
    }

    /// Empties the cell and returns the array it held. Launches already made keep theirs.
    ///
    /// ```
    /// static C: rumba::kernel::Captured<u32> = rumba::kernel::Captured::new();
    /// C.set(rumba::to_device(&[7u32]).unwrap());
    /// assert!(C.clear().is_some());
    /// assert!(C.clear().is_none());
    /// ```
    pub fn clear(&self) -> Option<DeviceArray<T, IxDyn>> {
        self.replace(None)
    }

    /// A handle to the array in the cell (sharing its buffer), if any.
    ///
    /// ```
    /// static C: rumba::kernel::Captured<f32> = rumba::kernel::Captured::new();
    /// C.set(rumba::to_device(&[1.5f32]).unwrap());
    /// assert_eq!(C.get().unwrap().copy_to_host().unwrap().as_slice().unwrap(), [1.5]);
    /// ```
    pub fn get(&self) -> Option<DeviceArray<T, IxDyn>> {
        read(&self.cell).clone()
    }

    /// Whether the cell holds an array.
    ///
    /// ```
    /// static C: rumba::kernel::Captured<f32> = rumba::kernel::Captured::new();
    /// assert!(!C.is_set());
    /// C.set(rumba::to_device(&[0.0f32]).unwrap());
    /// assert!(C.is_set());
    /// ```
    pub fn is_set(&self) -> bool {
        read(&self.cell).is_some()
    }
}

impl<T: KernelElement> Default for Captured<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: KernelElement> std::fmt::Debug for Captured<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.get() {
            Some(a) => write!(
                f,
                "Captured<{}>({:?})",
                std::any::type_name::<T>(),
                a.shape()
            ),
            None => write!(f, "Captured<{}>(empty)", std::any::type_name::<T>()),
        }
    }
}

/// One capture of a kernel: the cell, the name the kernel uses and the rank it indexes it with.
/// Made by `#[rumba::kernel(capture(…))]` (or [`Captured::capture`] for closure kernels); held
/// by the [`Kernel`](super::Kernel).
#[derive(Clone, Copy)]
pub struct CaptureRef {
    name: &'static str,
    rank: usize,
    slot: &'static dyn Slot,
}

impl std::fmt::Debug for CaptureRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CaptureRef({}, rank {})", self.name, self.rank)
    }
}

impl<T: KernelElement> Captured<T> {
    /// This cell as capture `name` of a kernel that indexes it with `rank` components (what the
    /// macro passes to [`Kernel::new_with_captures`](super::Kernel::new_with_captures)).
    ///
    /// ```
    /// static C: rumba::kernel::Captured<f32> = rumba::kernel::Captured::new();
    /// let r = C.capture("C", 1);
    /// assert_eq!((r.name(), r.rank()), ("C", 1));
    /// ```
    pub fn capture(&'static self, name: &'static str, rank: usize) -> CaptureRef {
        CaptureRef {
            name,
            rank,
            slot: self,
        }
    }
}

impl CaptureRef {
    /// The capture's name (the `static` cell's).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The number of index components the kernel uses on it.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The cell's array for a launch of `kernel` on `device`: empty, of the wrong rank or on
    /// another device is an error (taken before anything of the launch is queued).
    pub(super) fn take(&self, kernel: &str, device: usize) -> Result<Box<dyn Taken>> {
        let Some(t) = self.slot.take() else {
            return Err(Error::EmptyCapture {
                kernel: kernel.to_owned(),
                capture: self.name.to_owned(),
            });
        };
        if t.ndim() != self.rank {
            return Err(Error::CaptureRank {
                kernel: kernel.to_owned(),
                capture: self.name.to_owned(),
                rank: self.rank,
                ndim: t.ndim(),
            });
        }
        if let Some(found) = t.device().filter(|&d| d != device) {
            return Err(Error::WrongDevice {
                what: format!("captured array `{}` of kernel '{kernel}'", self.name),
                expected: device,
                found,
            });
        }
        Ok(t)
    }
}

/// A cell, without its element type.
trait Slot: Send + Sync {
    fn take(&self) -> Option<Box<dyn Taken>>;
}

impl<T: KernelElement> Slot for Captured<T> {
    fn take(&self) -> Option<Box<dyn Taken>> {
        self.get().map(|a| Box::new(a) as Box<dyn Taken>)
    }
}

/// The array a launch took from a cell (its own handle: the buffer lives while it does).
pub(super) trait Taken {
    fn ndim(&self) -> usize;
    /// The device of its memory (`None` for an empty array, which no device work touches).
    fn device(&self) -> Option<usize>;
    /// Adds the array to the launch (the stream keeps its buffer until the kernel has run).
    fn add_to<'h>(&self, plan: &mut Plan<'h>) -> Result<()>;
}

impl<T: KernelElement> Taken for DeviceArray<T, IxDyn> {
    fn ndim(&self) -> usize {
        self.shape().len()
    }

    fn device(&self) -> Option<usize> {
        (!self.is_empty()).then(|| self.buffer().device())
    }

    fn add_to<'h>(&self, plan: &mut Plan<'h>) -> Result<()> {
        plan.device_array(self)
    }
}
