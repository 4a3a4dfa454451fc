//! [`SmartArray`]: an array that lives on the host and/or the device and moves lazily
//! (docs/design/behaviour.md §9).
//!
//! Each side is either *current* (holds the latest data) or stale. Asking for a side
//! ([`get`](SmartArray::get), [`host`](SmartArray::host), [`device`](SmartArray::device)) copies
//! the data there only if that side is stale; [`mark_changed`](SmartArray::mark_changed) says
//! that one side was written, which makes the other stale. So a chain of kernels on the device
//! costs one host → device transfer before the first and one device → host transfer when the host
//! finally reads the result — not one pair per kernel. [`SmartArray::transfers`] counts them.
//!
//! Writes through [`host_mut`](SmartArray::host_mut) mark the host changed by themselves (the
//! borrow is the proof); device-side writes (kernels, `assign`, `fill`) cannot be seen, so the
//! caller marks the device changed after them.
//!
//! This module touches the array layer only (copies between an `ndarray` array and a device
//! array).

use ndarray::{Array, Dimension};

use crate::array::DeviceArray;
use crate::error::{Error, Result};
use crate::layout::element::Element;

/// Where a [`SmartArray`]'s data is wanted or was changed.
///
/// ```
/// assert_ne!(rumba::interop::Side::Host, rumba::interop::Side::Device);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Host memory (an `ndarray` array).
    Host,
    /// Device memory (a [`DeviceArray`]).
    Device,
}

/// How many transfers a [`SmartArray`] has made.
///
/// ```
/// let t = rumba::interop::Transfers::default();
/// assert_eq!((t.host_to_device, t.device_to_host), (0, 0));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Transfers {
    /// Host → device copies.
    pub host_to_device: usize,
    /// Device → host copies.
    pub device_to_host: usize,
}

/// An array with a host copy and a device copy, each made and refreshed only when needed.
///
/// ```
/// use ndarray::array;
/// use rumba::interop::{SmartArray, Side};
/// let mut a = SmartArray::from_host(array![1.0f32, 2.0, 3.0]);
/// a.device().unwrap().fill(7.0).unwrap();          // a "kernel" on the device
/// a.mark_changed(Side::Device);
/// assert_eq!(a.host().unwrap(), &array![7.0, 7.0, 7.0]);
/// assert_eq!((a.transfers().host_to_device, a.transfers().device_to_host), (1, 1));
/// ```
#[derive(Debug)]
pub struct SmartArray<T: Element, D: Dimension> {
    host: Option<Array<T, D>>,
    device: Option<DeviceArray<T, D>>,
    host_current: bool,
    device_current: bool,
    transfers: Transfers,
}

impl<T: Element, D: Dimension> SmartArray<T, D> {
    /// Starts on the host (nothing is allocated on the device yet).
    ///
    /// ```
    /// let a = rumba::interop::SmartArray::from_host(ndarray::array![1u8, 2]);
    /// assert!(a.is_current(rumba::interop::Side::Host));
    /// assert!(!a.is_current(rumba::interop::Side::Device));
    /// ```
    pub fn from_host(host: Array<T, D>) -> Self {
        SmartArray {
            host: Some(host),
            device: None,
            host_current: true,
            device_current: false,
            transfers: Transfers::default(),
        }
    }

    /// Starts on the device (the host copy is made when first asked for).
    ///
    /// ```
    /// let d = rumba::to_device(&[1u8, 2]).unwrap();
    /// let mut a = rumba::interop::SmartArray::from_device(d);
    /// assert_eq!(a.host().unwrap().to_vec(), vec![1, 2]);
    /// ```
    pub fn from_device(device: DeviceArray<T, D>) -> Self {
        SmartArray {
            host: None,
            device: Some(device),
            host_current: false,
            device_current: true,
            transfers: Transfers::default(),
        }
    }

    /// True if `side` holds the latest data.
    ///
    /// ```
    /// let a = rumba::interop::SmartArray::from_host(ndarray::array![0i32]);
    /// assert!(a.is_current(rumba::interop::Side::Host));
    /// ```
    pub fn is_current(&self, side: Side) -> bool {
        match side {
            Side::Host => self.host_current,
            Side::Device => self.device_current,
        }
    }

    /// Makes `side` current, copying the data there if it is stale (Numba's `get(where)`;
    /// [`host`](Self::host) and [`device`](Self::device) return the side too).
    ///
    /// # Errors
    /// As [`host`](Self::host) or [`device`](Self::device), for `side`.
    ///
    /// ```
    /// use rumba::interop::{SmartArray, Side};
    /// let mut a = SmartArray::from_host(ndarray::array![1i32, 2]);
    /// a.get(Side::Device).unwrap();
    /// a.get(Side::Device).unwrap(); // already current: no copy
    /// assert_eq!(a.transfers().host_to_device, 1);
    /// ```
    pub fn get(&mut self, side: Side) -> Result<()> {
        match side {
            Side::Host => self.host().map(drop),
            Side::Device => self.device().map(drop),
        }
    }

    /// Records that `side` was written: it becomes the only current side.
    ///
    /// ```
    /// use rumba::interop::{SmartArray, Side};
    /// let mut a = SmartArray::from_host(ndarray::array![1i32]);
    /// a.get(Side::Device).unwrap();
    /// a.mark_changed(Side::Device);
    /// assert!(!a.is_current(Side::Host));
    /// ```
    pub fn mark_changed(&mut self, side: Side) {
        self.host_current = side == Side::Host;
        self.device_current = side == Side::Device;
    }

    /// The host copy, brought up to date first if the device changed it.
    ///
    /// # Errors
    /// [`Error::MissingCopy`] when there is no host copy to return; the errors of the copy from the
    /// device when the host copy is stale.
    ///
    /// ```
    /// let mut a = rumba::interop::SmartArray::from_host(ndarray::array![3u16]);
    /// assert_eq!(a.host().unwrap()[0], 3);
    /// ```
    pub fn host(&mut self) -> Result<&Array<T, D>> {
        self.refresh_host()?;
        self.host_ref()
    }

    /// The host copy for writing: brought up to date first, then marked changed (the device copy
    /// becomes stale).
    ///
    /// # Errors
    /// As [`host`](Self::host).
    ///
    /// ```
    /// use rumba::interop::{SmartArray, Side};
    /// let mut a = SmartArray::from_host(ndarray::array![1u8]);
    /// a.get(Side::Device).unwrap();
    /// a.host_mut().unwrap()[0] = 9;
    /// assert!(!a.is_current(Side::Device));
    /// assert_eq!(a.device().unwrap().copy_to_host().unwrap()[0], 9);
    /// ```
    pub fn host_mut(&mut self) -> Result<&mut Array<T, D>> {
        self.refresh_host()?;
        self.mark_changed(Side::Host);
        self.host
            .as_mut()
            .ok_or(Error::MissingCopy { side: "host" })
    }

    /// The device copy, brought up to date first if the host changed it (allocated on first use).
    /// After writing it on the device, call [`mark_changed(Side::Device)`](Self::mark_changed).
    ///
    /// # Errors
    /// [`Error::MissingCopy`] when there is no device copy and no host copy to make it from; the
    /// errors of allocating and filling it ([`to_device`](crate::to_device)).
    ///
    /// ```
    /// let mut a = rumba::interop::SmartArray::from_host(ndarray::array![[1i64, 2], [3, 4]]);
    /// assert_eq!(a.device().unwrap().shape(), &[2, 2]);
    /// ```
    pub fn device(&mut self) -> Result<&DeviceArray<T, D>> {
        if !self.device_current {
            let host = self.host_ref()?;
            match &self.device {
                Some(d) => crate::transfer::copy(d, host)?,
                None => self.device = Some(crate::array::to_device(host)?),
            }
            self.transfers.host_to_device += 1;
            self.device_current = true;
        }
        self.device
            .as_ref()
            .ok_or(Error::MissingCopy { side: "device" })
    }

    /// Transfers made so far.
    ///
    /// ```
    /// let a = rumba::interop::SmartArray::from_host(ndarray::array![1u8]);
    /// assert_eq!(a.transfers(), rumba::interop::Transfers::default());
    /// ```
    pub fn transfers(&self) -> Transfers {
        self.transfers
    }

    fn refresh_host(&mut self) -> Result<()> {
        if self.host_current {
            return Ok(());
        }
        let device = self
            .device
            .as_ref()
            .ok_or(Error::MissingCopy { side: "device" })?;
        match &mut self.host {
            Some(h) => crate::transfer::copy(h, device)?,
            None => self.host = Some(device.copy_to_host()?),
        }
        self.transfers.device_to_host += 1;
        self.host_current = true;
        Ok(())
    }

    fn host_ref(&self) -> Result<&Array<T, D>> {
        self.host
            .as_ref()
            .ok_or(Error::MissingCopy { side: "host" })
    }
}
