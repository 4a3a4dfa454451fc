//! Pinned, mapped and managed host memory, guards that pin existing host arrays, and asynchronous
//! transfers that safe code cannot misuse (docs/design/behaviour.md §3, §2 async copies).
//!
//! | file | concept |
//! | --- | --- |
//! | [`pinned`](mod@pinned) | [`PinnedArray`]: page-locked host arrays ([`pinned_array`], [`pinned_array_like`]) |
//! | [`mapped`](mod@mapped) | [`MappedArray`]: host memory the device addresses directly ([`mapped_array`], [`mapped_array_like`]) |
//! | [`managed`] | [`ManagedArray`]: one allocation for host and devices ([`managed_array`], [`managed_array_like`]) |
//! | [`grained`] | [`GrainedArray`]: ROC's coarse- and fine-grained host memory ([`coarsegrain_array`], [`finegrain_array`]) |
//! | [`view`] | [`MappedView`] / [`MappedViewMut`]: device-side views of such memory and the device work on them |
//! | `guard` | [`pinned()`](fn@crate::pinned) / [`mapped()`](fn@crate::mapped) / [`register`] / [`deregister`] over existing arrays |
//! | [`crate::transfer`] | (not here) every copy into or out of these arrays: `copy(dst, src)`, the [`StreamScope`](crate::StreamScope) and the owned [`Transfer`](crate::Transfer)s |
//! | `layout.rs` | host layouts in `ndarray` and byte terms (pure) |
//!
//! # Why safe code cannot race with the device
//!
//! The device works asynchronously: a copy or memset queued on a stream runs later, on another
//! thread (on the sim) or on the GPU. If the host memory it reads or writes is freed, written or
//! read by Rust code meanwhile, that is a use after free or a data race — undefined behaviour,
//! not just a wrong value. (On the sim, device accesses are relaxed atomics and host accesses are
//! plain; a plain read racing an atomic write is still a data race.) The rule this module keeps:
//!
//! > **While queued device work may write host memory, no Rust reference to that memory exists;
//! > while queued device work may read it, only shared references exist; and the memory stays
//! > allocated until the work has completed.**
//!
//! Every way safe code can queue device work on host memory keeps it:
//!
//! 1. **Pageable memory** (`&[T]`, `Vec`, `ndarray` arrays) handed to a `*_on(&stream)` call is
//!    *staged*: the driver copies it before the call returns; device → host calls wait. No device
//!    work touches it after the borrow ends.
//! 2. **Scoped** work ([`Stream::auto_synchronize`](crate::Stream::auto_synchronize) →
//!    [`StreamScope`](crate::StreamScope)) borrows host memory for the scope's `'env` — shared when the device reads,
//!    exclusive when it writes — and the scope synchronizes the stream before `'env` can end, on
//!    every exit path (also unwinding). The borrow is checked by the compiler and the
//!    synchronization cannot be skipped: there is no scope value a caller could leak, as with
//!    `std::thread::scope`.
//! 3. **Owned** work ([`Stream::upload`](crate::Stream::upload) /
//!    [`Stream::download`](crate::Stream::download)) takes the [`PinnedArray`] by value. The
//!    [`Transfer`](crate::Transfer) hands it back only after a stream callback reports that the copy completed.
//!    If the `Transfer` is dropped the array is freed after the copy; if it is leaked, the
//!    array is leaked too — never freed under the device.
//! 4. **Mapped and managed memory** is written by the device through device addresses, so its
//!    owners ([`MappedArray`], [`ManagedArray`], [`MappedGuard`]) are not
//!    [`DeviceBuffer`](crate::memory::DeviceBuffer)s (whose invariant is "device memory only").
//!    The device reaches it only through a borrowed [`MappedView`] (device reads) or
//!    [`MappedViewMut`] (device writes), and every device operation on a view either completes
//!    before it returns or is queued on a [`StreamScope`](crate::StreamScope) that takes the view for `'env`. Host
//!    views need `&self` / `&mut self` of the owner, which the device views' borrows exclude.
//!    No pending-work bookkeeping is needed, so none can be forgotten or leaked.
//! 5. **Guards** ([`pinned()`](fn@crate::pinned), [`mapped()`](fn@crate::mapped)) borrow the arrays
//!    exclusively and hand out views only (no `&mut Vec` that could reallocate). Device work on
//!    guarded memory follows 1–4, so none outlives the guard; unpinning at drop is then always
//!    safe. A *leaked* guard leaves a registration whose memory may later be freed: the sim only
//!    uses registrations to decide whether a copy may read later (every such path also holds a
//!    borrow, rule 2–3) and to resolve mapped device addresses (only borrowed views produce
//!    them), so a stale entry is a leak, not undefined behaviour.
//! 6. **ROC's coarse- and fine-grained arrays** ([`GrainedArray`]) also queue device work without
//!    a scope (`fill_on`, `copy_from_device_on`, `copy_to_device_on`): writes need `&mut self`,
//!    the array records the stream before queuing, and every host access (and every device view,
//!    whose host side could be reached) first waits for the recorded streams — the
//!    synchronization point. The streams, not the array, keep the allocation alive until their
//!    work has run, so dropping or leaking the array with work queued is safe. Per-thread default
//!    streams are refused for this work: another thread could not wait for them.
//!
//! Element types whose bit patterns are not all valid (`bool`) are protected from the device
//! writing arbitrary bytes into host memory: see [`view`].
//!
//! # Misuse does not compile
//!
//! Reading a destination before the asynchronous copy into it has completed:
//! ```compile_fail,E0502
//! let s = rumba::stream().unwrap();
//! let d = rumba::to_device(&[1u8, 2]).unwrap();
//! let mut p = rumba::pinned_array::<u8, _>(2, rumba::Order::C).unwrap();
//! s.auto_synchronize(|scope| {
//!     scope.copy(&mut p, &d)?;
//!     println!("{}", p[0]); // error: `p` is mutably borrowed until the scope ends
//!     Ok(())
//! }).unwrap();
//! ```
//! Freeing (or changing) a source while the device may still read it:
//! ```compile_fail,E0505
//! let s = rumba::stream().unwrap();
//! let d = rumba::device_array::<u8, _>(2, rumba::Order::C).unwrap();
//! let host = ndarray::array![1u8, 2];
//! s.auto_synchronize(|scope| {
//!     scope.copy(&d, &host)?;
//!     drop(host); // error: `host` is borrowed until the scope ends
//!     Ok(())
//! }).unwrap();
//! ```
//! Touching a pinned array that was moved into an owned transfer:
//! ```compile_fail,E0382
//! let s = rumba::stream().unwrap();
//! let p = rumba::pinned_array::<u8, _>(2, rumba::Order::C).unwrap();
//! let d = rumba::device_array::<u8, _>(2, rumba::Order::C).unwrap();
//! let t = s.upload(p, &d).unwrap();
//! println!("{}", p.view()[0]); // error: `p` was moved into the transfer
//! # drop(t);
//! ```
//! Looking at mapped memory while queued device work may write it:
//! ```compile_fail,E0502
//! let s = rumba::stream().unwrap();
//! let mut m = rumba::mapped_array::<u8, _>(2, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
//! s.auto_synchronize(|scope| {
//!     scope.memset_mapped(m.device_mut(), 7)?;
//!     println!("{}", m.view()[0]); // error: `m` is mutably borrowed until the scope ends
//!     Ok(())
//! }).unwrap();
//! ```
//! Keeping a device view of mapped memory after its owner is gone:
//! ```compile_fail,E0597
//! let view = {
//!     let m = rumba::mapped_array::<u8, _>(2, rumba::Order::C, rumba::MappedOptions::new()).unwrap();
//!     m.device() // error: `m` does not live long enough
//! };
//! ```
//! Reallocating a pinned array's memory while the guard holds it:
//! ```compile_fail,E0499
//! let mut v = vec![0u8; 16];
//! let g = rumba::pinned([&mut v]).unwrap();
//! v.push(1); // error: `v` is borrowed by the guard
//! drop(g);
//! ```
//!
//! This module touches host memory (its own allocations and the arrays it borrows), the memory
//! manager (host allocation, pinning), the driver (mapped device addresses, copies, managed and
//! coarse/fine-grained memory) and streams.

mod array;
pub mod grained;
mod guard;
mod layout;
pub mod managed;
pub mod mapped;
pub mod pinned;
pub mod view;

pub use array::{HostArray, HostKind, Managed, Mapped, Pinned};
pub use grained::{
    Coarse, CoarsegrainArray, Fine, FinegrainArray, Grain, GrainedArray, coarsegrain_array,
    coarsegrain_array_like, finegrain_array, finegrain_array_like,
};
pub use guard::{
    GuardKind, HostData, HostGuard, MappedGuard, PinnedGuard, deregister, mapped, pinned, register,
};
pub use managed::{ManagedArray, managed_array, managed_array_attached, managed_array_like};
pub use mapped::{MappedArray, MappedOptions, mapped_array, mapped_array_like};
pub use pinned::{PinnedArray, pinned_array, pinned_array_like};

pub use view::{MappedView, MappedViewMut};

/// Lets a host array type (with `view()` and a `shape.layout`) be passed to `to_device` and
/// `device_array_like`, like any ndarray array.
macro_rules! host_array_conversions {
    ($ty:ident) => {
        impl<T: Element, D: Dimension> $crate::array::ToDevice for $ty<T, D> {
            type Elem = T;
            type Dim = D;
            fn host_view(&self) -> Option<ndarray::ArrayView<'_, T, D>> {
                Some(self.view())
            }
            fn device_array(&self) -> Option<&$crate::array::DeviceArray<T, D>> {
                None
            }
        }

        impl<T: Element, D: Dimension> $crate::array::ArrayLike for $ty<T, D> {
            type Elem = T;
            type Dim = D;
            fn like_layout(&self) -> $crate::error::Result<$crate::layout::Layout> {
                Ok(self.shape.layout.clone())
            }
        }
    };
}
pub(crate) use host_array_conversions;
