//! The (destination, source) pairs of the [`transfer`](super) table, each forwarding to the
//! array or host layer's method for that pair. Host slices and vectors are seen as 1-D arrays.

use ndarray::{ArrayBase, ArrayView1, ArrayViewMut1, Data, DataMut, Dimension};

use super::{CopyFrom, CopyFromIn, CopyFromOn};
use crate::array::DeviceArray;
use crate::error::Result;
use crate::host::{MappedView, MappedViewMut, PinnedArray};
use crate::layout::Element;
use crate::stream::Stream;
use crate::transfer::StreamScope;

// ---- pageable host arrays → device ----

impl<T: Element, D: Dimension, S: Data<Elem = T>, E: Dimension> CopyFrom<&ArrayBase<S, E>>
    for &DeviceArray<T, D>
{
    fn copy_from(self, src: &ArrayBase<S, E>) -> Result<()> {
        self.copy_from_host_impl(src, None)
    }
}

impl<T: Element, D: Dimension, S: Data<Elem = T>, E: Dimension> CopyFromOn<&ArrayBase<S, E>>
    for &DeviceArray<T, D>
{
    fn copy_from_on(self, src: &ArrayBase<S, E>, stream: &Stream) -> Result<()> {
        self.copy_from_host_impl(src, Some(stream))
    }
}

impl<'env, T: Element, D: Dimension, S: Data<Elem = T>, E: Dimension>
    CopyFromIn<'env, &'env ArrayBase<S, E>> for &DeviceArray<T, D>
{
    fn copy_from_in(self, src: &'env ArrayBase<S, E>, scope: &StreamScope<'_, 'env>) -> Result<()> {
        scope.copy_from_host_impl(self, src)
    }
}

/// Slices and vectors: the same as a 1-D array view of them.
macro_rules! host_sequence_source {
    ($($src:ty),*) => {$(
        impl<T: Element, D: Dimension> CopyFrom<&$src> for &DeviceArray<T, D> {
            fn copy_from(self, src: &$src) -> Result<()> {
                self.copy_from_host_impl(&ArrayView1::from(&src[..]), None)
            }
        }

        impl<T: Element, D: Dimension> CopyFromOn<&$src> for &DeviceArray<T, D> {
            fn copy_from_on(self, src: &$src, stream: &Stream) -> Result<()> {
                self.copy_from_host_impl(&ArrayView1::from(&src[..]), Some(stream))
            }
        }

        impl<'env, T: Element, D: Dimension> CopyFromIn<'env, &'env $src> for &DeviceArray<T, D> {
            fn copy_from_in(self, src: &'env $src, scope: &StreamScope<'_, 'env>) -> Result<()> {
                scope.copy_from_slice(self, &src[..])
            }
        }
    )*};
}
host_sequence_source!([T], Vec<T>);

// ---- device → pageable host arrays ----

impl<T: Element, D: Dimension, S: DataMut<Elem = T>, E: Dimension> CopyFrom<&DeviceArray<T, D>>
    for &mut ArrayBase<S, E>
{
    fn copy_from(self, src: &DeviceArray<T, D>) -> Result<()> {
        src.copy_to_host_into_on(self, None)
    }
}

impl<T: Element, D: Dimension, S: DataMut<Elem = T>, E: Dimension> CopyFromOn<&DeviceArray<T, D>>
    for &mut ArrayBase<S, E>
{
    fn copy_from_on(self, src: &DeviceArray<T, D>, stream: &Stream) -> Result<()> {
        src.copy_to_host_into_on(self, Some(stream))
    }
}

impl<'env, T: Element, D: Dimension, S: DataMut<Elem = T>, E: Dimension>
    CopyFromIn<'env, &DeviceArray<T, D>> for &'env mut ArrayBase<S, E>
{
    fn copy_from_in(self, src: &DeviceArray<T, D>, scope: &StreamScope<'_, 'env>) -> Result<()> {
        scope.copy_to_host_into_impl(src, self)
    }
}

/// Slices and vectors as destinations: the same as a 1-D mutable view of them.
macro_rules! host_sequence_destination {
    ($($dst:ty),*) => {$(
        impl<T: Element, D: Dimension> CopyFrom<&DeviceArray<T, D>> for &mut $dst {
            fn copy_from(self, src: &DeviceArray<T, D>) -> Result<()> {
                src.copy_to_host_into_on(&mut ArrayViewMut1::from(&mut self[..]), None)
            }
        }

        impl<T: Element, D: Dimension> CopyFromOn<&DeviceArray<T, D>> for &mut $dst {
            fn copy_from_on(self, src: &DeviceArray<T, D>, stream: &Stream) -> Result<()> {
                src.copy_to_host_into_on(&mut ArrayViewMut1::from(&mut self[..]), Some(stream))
            }
        }

        impl<'env, T: Element, D: Dimension> CopyFromIn<'env, &DeviceArray<T, D>> for &'env mut $dst {
            fn copy_from_in(
                self,
                src: &DeviceArray<T, D>,
                scope: &StreamScope<'_, 'env>,
            ) -> Result<()> {
                scope.copy_to_slice(src, &mut self[..])
            }
        }
    )*};
}
host_sequence_destination!([T], Vec<T>);

// ---- device → device ----

impl<T: Element, D: Dimension, E: Dimension> CopyFrom<&DeviceArray<T, E>> for &DeviceArray<T, D> {
    fn copy_from(self, src: &DeviceArray<T, E>) -> Result<()> {
        self.copy_from_device_impl(src, None)
    }
}

impl<T: Element, D: Dimension, E: Dimension> CopyFromOn<&DeviceArray<T, E>> for &DeviceArray<T, D> {
    fn copy_from_on(self, src: &DeviceArray<T, E>, stream: &Stream) -> Result<()> {
        self.copy_from_device_impl(src, Some(stream))
    }
}

impl<'env, T: Element, D: Dimension, E: Dimension> CopyFromIn<'env, &DeviceArray<T, E>>
    for &DeviceArray<T, D>
{
    fn copy_from_in(self, src: &DeviceArray<T, E>, scope: &StreamScope<'_, 'env>) -> Result<()> {
        scope.copy_from_device_impl(self, src)
    }
}

// ---- pinned host arrays ----

impl<T: Element, D: Dimension, E: Dimension> CopyFrom<&PinnedArray<T, E>> for &DeviceArray<T, D> {
    fn copy_from(self, src: &PinnedArray<T, E>) -> Result<()> {
        self.copy_from_host_impl(&src.view(), None)
    }
}

impl<T: Element, D: Dimension, E: Dimension> CopyFromOn<&PinnedArray<T, E>> for &DeviceArray<T, D> {
    fn copy_from_on(self, src: &PinnedArray<T, E>, stream: &Stream) -> Result<()> {
        self.copy_from_host_impl(&src.view(), Some(stream))
    }
}

impl<'env, T: Element, D: Dimension, E: Dimension> CopyFromIn<'env, &'env PinnedArray<T, E>>
    for &DeviceArray<T, D>
{
    fn copy_from_in(
        self,
        src: &'env PinnedArray<T, E>,
        scope: &StreamScope<'_, 'env>,
    ) -> Result<()> {
        scope.copy_from_pinned_impl(self, src)
    }
}

impl<T: Element, D: Dimension, E: Dimension> CopyFrom<&DeviceArray<T, D>>
    for &mut PinnedArray<T, E>
{
    fn copy_from(self, src: &DeviceArray<T, D>) -> Result<()> {
        src.copy_to_host_into_on(&mut self.view_mut(), None)
    }
}

impl<T: Element, D: Dimension, E: Dimension> CopyFromOn<&DeviceArray<T, D>>
    for &mut PinnedArray<T, E>
{
    fn copy_from_on(self, src: &DeviceArray<T, D>, stream: &Stream) -> Result<()> {
        src.copy_to_host_into_on(&mut self.view_mut(), Some(stream))
    }
}

impl<'env, T: Element, D: Dimension, E: Dimension> CopyFromIn<'env, &DeviceArray<T, D>>
    for &'env mut PinnedArray<T, E>
{
    fn copy_from_in(self, src: &DeviceArray<T, D>, scope: &StreamScope<'_, 'env>) -> Result<()> {
        scope.copy_to_pinned_impl(src, self)
    }
}

// ---- mapped (device-addressable) host memory: synchronous or scoped only ----

impl<T: Element, D: Dimension, E: Dimension> CopyFrom<MappedView<'_, T, E>> for &DeviceArray<T, D> {
    fn copy_from(self, src: MappedView<'_, T, E>) -> Result<()> {
        src.copy_to_device_on(self, None)
    }
}

impl<'env, T: Element, D: Dimension, E: Dimension> CopyFromIn<'env, MappedView<'env, T, E>>
    for &DeviceArray<T, D>
{
    fn copy_from_in(
        self,
        src: MappedView<'env, T, E>,
        scope: &StreamScope<'_, 'env>,
    ) -> Result<()> {
        scope.copy_from_mapped_impl(self, src)
    }
}

impl<T: Element, D: Dimension, E: Dimension> CopyFrom<&DeviceArray<T, D>>
    for &mut MappedViewMut<'_, T, E>
{
    fn copy_from(self, src: &DeviceArray<T, D>) -> Result<()> {
        self.copy_from_device_impl(src)
    }
}

impl<'env, T: Element, D: Dimension, E: Dimension> CopyFromIn<'env, &DeviceArray<T, D>>
    for MappedViewMut<'env, T, E>
{
    fn copy_from_in(self, src: &DeviceArray<T, D>, scope: &StreamScope<'_, 'env>) -> Result<()> {
        scope.copy_to_mapped_impl(self, src)
    }
}
