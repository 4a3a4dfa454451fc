//! Automatic transfers of host arrays passed straight to a launch (docs/design/behaviour.md §5),
//! and their count: [`In`], [`Out`], [`InOut`] and the kernel's [`HostTransfer`] policy, whose
//! documentation has the rules.
//!
//! [`auto_transfers`] counts the copies made this way on the calling thread, so a program (or a
//! test) can see what automatic transfers cost it.
//!
//! This module touches a thread-local counter only; the copies themselves are made by
//! [`args`](super::args) with the device-array API.

use std::cell::Cell;

/// Copy the host array to the device before the kernel, never back.
///
/// ```
/// use rumba::In;
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn sum(t: &Thread, x: &Arr<i64>, s: &mut Arr<i64>) {
///     s.atomic_add(0, x[t.grid1()]);
/// }
///
/// # fn main() {
/// let total = rumba::to_device(&[0i64]).unwrap();
/// let host = ndarray::arr1(&[1i64, 2, 3]);
/// sum().configure(1, 3).launch((In(&host), &total)).unwrap();
/// assert_eq!(total.copy_to_host().unwrap()[0], 6);
/// # }
/// ```
#[derive(Debug)]
pub struct In<A>(pub A);

/// Allocate a device array for the kernel's output and copy it back after the kernel; nothing is
/// copied to the device (the kernel sees zeros).
///
/// ```
/// use rumba::Out;
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn iota(t: &Thread, o: &mut Arr<u32>) {
///     let i = t.grid1();
///     o[i] = i as u32;
/// }
///
/// # fn main() {
/// let mut host = ndarray::Array1::<u32>::zeros(4);
/// iota().configure(1, 4).launch((Out(&mut host),)).unwrap();
/// assert_eq!(host.to_vec(), [0, 1, 2, 3]);
/// # }
/// ```
#[derive(Debug)]
pub struct Out<A>(pub A);

/// Copy the host array to the device before the kernel and back after it (the default for a bare
/// `&mut` host array).
///
/// ```
/// use rumba::InOut;
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn neg(t: &Thread, a: &mut Arr<f64>) {
///     let i = t.grid1();
///     a[i] = -a[i];
/// }
///
/// # fn main() {
/// let mut host = ndarray::arr1(&[1.0, -2.0]);
/// neg().configure(1, 2).launch((InOut(&mut host),)).unwrap();
/// assert_eq!(host.to_vec(), [-1.0, 2.0]);
/// # }
/// ```
#[derive(Debug)]
pub struct InOut<A>(pub A);

/// What a kernel does with a bare `&mut` host array argument: the kernel's default transfer
/// policy, set with [`Kernel::with_host_transfer`](super::Kernel::with_host_transfer). The
/// [`In`], [`Out`] and [`InOut`] wrappers override it for one argument; a shared `&a` is always
/// [`HostTransfer::In`].
///
/// A host array given to a launch is copied to a temporary device array before the kernel and
/// back after it — Numba's conservative rule. [`In`], [`Out`] and [`InOut`] say which directions
/// are needed: `In(&a)` copies to the device only (the kernel's writes are discarded), `Out(&mut a)`
/// only allocates and copies back, `InOut(&mut a)` does both. A bare `&mut a` means the kernel's
/// [`HostTransfer`] policy — `InOut` unless the kernel was defined with another
/// ([`Kernel::with_host_transfer`](super::Kernel::with_host_transfer), Numba's `In` by
/// configuration); a bare `&a` can only be read, so it always means `In`. The wrappers override the
/// policy.
///
/// A launch with something to copy back is complete when it returns: it synchronizes the stream
/// first, so a kernel fault is reported by the launch itself and nothing is copied back — the host
/// arrays keep their values, on every backend. A launch whose host arrays are all
/// `In` stays asynchronous: the data is taken before the launch returns, and the stream keeps the
/// temporary alive until the kernel has run.
///
/// ```
/// use rumba::kernel::prelude::*;
/// use rumba::kernel::HostTransfer;
///
/// #[kernel]
/// fn inc(t: &Thread, a: &mut Arr<i32>) {
///     a[t.grid1()] += 1;
/// }
///
/// # fn main() {
/// let k = inc().with_host_transfer(HostTransfer::In);
/// let mut host = ndarray::arr1(&[1, 2, 3]);
/// k.configure(1, 3).launch((&mut host,)).unwrap();
/// assert_eq!(host.to_vec(), [1, 2, 3]); // copied in only: the kernel's writes stay on the device
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum HostTransfer {
    /// Copy to the device before the kernel, never back (Numba's `cuda.In`).
    In,
    /// Only allocate, and copy back after the kernel (Numba's `cuda.Out`).
    Out,
    /// Copy in and back (Numba's conservative default, `cuda.InOut`).
    #[default]
    InOut,
}

/// Automatic transfers made by launches on the calling thread since it started.
///
/// ```
/// let t = rumba::kernel::auto_transfers();
/// assert!(t.bytes_to_device >= t.to_device * 0);
/// println!("{} copies to the device so far", t.to_device);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AutoTransfers {
    /// Host → device copies.
    pub to_device: u64,
    /// Device → host copies.
    pub to_host: u64,
    /// Bytes copied host → device.
    pub bytes_to_device: u64,
    /// Bytes copied device → host.
    pub bytes_to_host: u64,
}

impl AutoTransfers {
    /// The transfers made between `earlier` and `self`.
    ///
    /// ```
    /// use rumba::kernel::AutoTransfers;
    /// let a = AutoTransfers { to_device: 3, to_host: 1, bytes_to_device: 30, bytes_to_host: 10 };
    /// let b = AutoTransfers { to_device: 1, ..Default::default() };
    /// assert_eq!(a.since(&b).to_device, 2);
    /// ```
    pub fn since(&self, earlier: &AutoTransfers) -> AutoTransfers {
        AutoTransfers {
            to_device: self.to_device.saturating_sub(earlier.to_device),
            to_host: self.to_host.saturating_sub(earlier.to_host),
            bytes_to_device: self.bytes_to_device.saturating_sub(earlier.bytes_to_device),
            bytes_to_host: self.bytes_to_host.saturating_sub(earlier.bytes_to_host),
        }
    }
}

thread_local! {
    static COUNTS: Cell<AutoTransfers> = const { Cell::new(AutoTransfers {
        to_device: 0,
        to_host: 0,
        bytes_to_device: 0,
        bytes_to_host: 0,
    }) };
}

/// The automatic transfers made by launches on the calling thread so far (see
/// [`HostTransfer`]). Take the difference of two readings with [`AutoTransfers::since`].
///
/// ```
/// use rumba::In;
/// use rumba::kernel::auto_transfers;
/// use rumba::kernel::prelude::*;
///
/// #[kernel]
/// fn touch(_t: &Thread, _a: &Arr<u8>) {}
///
/// # fn main() {
/// let before = auto_transfers();
/// touch().configure(1, 1).launch((In(&ndarray::arr1(&[1u8, 2])),)).unwrap();
/// let d = auto_transfers().since(&before);
/// assert_eq!((d.to_device, d.to_host, d.bytes_to_device), (1, 0, 2));
/// // Not needed for the counts; PoCL can still crash a process that exits while it compiles a
/// // kernel on its own threads (see `driver/opencl/exit.rs`).
/// rumba::synchronize().unwrap();
/// # }
/// ```
pub fn auto_transfers() -> AutoTransfers {
    COUNTS.with(Cell::get)
}

/// Records one host → device transfer of `bytes`.
pub(crate) fn count_to_device(bytes: usize) {
    count(|v| {
        v.to_device += 1;
        v.bytes_to_device += bytes as u64;
    });
}

/// Records one device → host transfer of `bytes`.
pub(crate) fn count_to_host(bytes: usize) {
    count(|v| {
        v.to_host += 1;
        v.bytes_to_host += bytes as u64;
    });
}

/// Applies `update` to this thread's counts.
fn count(update: impl FnOnce(&mut AutoTransfers)) {
    COUNTS.with(|c| {
        let mut v = c.get();
        update(&mut v);
        c.set(v);
    });
}
