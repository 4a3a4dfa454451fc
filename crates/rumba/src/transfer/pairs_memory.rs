//! The pairs of the [`transfer`](super) table that are not device arrays and `ndarray` host
//! arrays: raw device buffers with host bytes and with each other, and grained host arrays queued
//! on a stream. Each forwards to the memory or host layer's implementation for that pair.

use ndarray::Dimension;

use super::{CopyFrom, CopyFromIn, CopyFromOn};
use crate::array::DeviceArray;
use crate::error::Result;
use crate::host::{Grain, GrainedArray};
use crate::layout::Element;
use crate::memory::DeviceBuffer;
use crate::stream::Stream;
use crate::transfer::StreamScope;

// ---- host bytes ↔ device buffers (equal lengths) ----

/// Byte slices, arrays and vectors into and out of a device buffer, synchronously or on a scope.
macro_rules! host_bytes {
    ($([$($n:tt)*] $bytes:ty),*) => {$(
        impl<$($n)*> CopyFrom<&$bytes> for &DeviceBuffer {
            fn copy_from(self, src: &$bytes) -> Result<()> {
                self.same_len(src.len())?;
                self.copy_from_host_at_impl(0, &src[..])
            }
        }

        impl<'env, $($n)*> CopyFromIn<'env, &'env $bytes> for &DeviceBuffer {
            fn copy_from_in(self, src: &'env $bytes, scope: &StreamScope<'_, 'env>) -> Result<()> {
                self.same_len(src.len())?;
                scope.copy_to_device_impl(self, 0, &src[..])
            }
        }

        impl<$($n)*> CopyFrom<&DeviceBuffer> for &mut $bytes {
            fn copy_from(self, src: &DeviceBuffer) -> Result<()> {
                src.same_len(self.len())?;
                src.copy_to_host_at_impl(0, &mut self[..])
            }
        }

        impl<'env, $($n)*> CopyFromIn<'env, &DeviceBuffer> for &'env mut $bytes {
            fn copy_from_in(self, src: &DeviceBuffer, scope: &StreamScope<'_, 'env>) -> Result<()> {
                src.same_len(self.len())?;
                scope.copy_to_host_impl(&mut self[..], src, 0)
            }
        }
    )*};
}
host_bytes!([] [u8], [] Vec<u8>, [const N: usize] [u8; N]);

// ---- device buffer → device buffer (equal lengths; another device's is a peer copy) ----

impl CopyFrom<&DeviceBuffer> for &DeviceBuffer {
    fn copy_from(self, src: &DeviceBuffer) -> Result<()> {
        self.copy_from_device_impl(src)
    }
}

impl CopyFromOn<&DeviceBuffer> for &DeviceBuffer {
    fn copy_from_on(self, src: &DeviceBuffer, stream: &Stream) -> Result<()> {
        stream.copy_device_impl(self, src)
    }
}

impl<'env> CopyFromIn<'env, &DeviceBuffer> for &DeviceBuffer {
    fn copy_from_in(self, src: &DeviceBuffer, scope: &StreamScope<'_, 'env>) -> Result<()> {
        scope.stream().copy_device_impl(self, src)
    }
}

// ---- grained host arrays, on a stream (the array records the stream) ----

impl<T: Element, D: Dimension, E: Dimension, G: Grain> CopyFromOn<&GrainedArray<T, E, G>>
    for &DeviceArray<T, D>
{
    fn copy_from_on(self, src: &GrainedArray<T, E, G>, stream: &Stream) -> Result<()> {
        src.copy_to_device_on_impl(self, stream)
    }
}

impl<T: Element, D: Dimension, E: Dimension, G: Grain> CopyFromOn<&DeviceArray<T, D>>
    for &mut GrainedArray<T, E, G>
{
    fn copy_from_on(self, src: &DeviceArray<T, D>, stream: &Stream) -> Result<()> {
        self.copy_from_device_on_impl(src, stream)
    }
}
