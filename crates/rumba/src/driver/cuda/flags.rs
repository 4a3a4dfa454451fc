//! Translations between rumba's raw vocabulary and CUDA's: host-allocation and registration
//! flags, event flags, and stream handles.
//!
//! Pure code, unit-tested without a driver. Stream handles map 1:1: 0 is the NULL stream (legacy
//! default semantics unless the program was built for per-thread default streams), 1 is
//! `CU_STREAM_LEGACY`, 2 is `CU_STREAM_PER_THREAD`, and any other value is a `CUstream` pointer.
//!
//! This module touches nothing but cudarc's types.

use cudarc::driver::sys;

use crate::driver::{EventHandle, HostAllocFlags, ManagedAttach, StreamHandle};
use crate::error::{Error, Result};

/// `cuMemHostAlloc` flags for `flags`.
pub(crate) fn host_alloc_flags(flags: HostAllocFlags) -> u32 {
    let mut f = 0;
    if flags.portable {
        f |= sys::CU_MEMHOSTALLOC_PORTABLE;
    }
    if flags.mapped {
        f |= sys::CU_MEMHOSTALLOC_DEVICEMAP;
    }
    if flags.write_combined {
        f |= sys::CU_MEMHOSTALLOC_WRITECOMBINED;
    }
    f
}

/// `cuMemHostRegister` flags for `flags`. CUDA cannot make existing memory write-combined.
pub(crate) fn host_register_flags(flags: HostAllocFlags) -> Result<u32> {
    if flags.write_combined {
        return Err(Error::Unsupported {
            backend: "cuda".into(),
            feature: "write-combined memory made from existing host memory".into(),
            reason: "write-combined memory can only be allocated".into(),
        });
    }
    let mut f = 0;
    if flags.portable {
        f |= sys::CU_MEMHOSTREGISTER_PORTABLE;
    }
    if flags.mapped {
        f |= sys::CU_MEMHOSTREGISTER_DEVICEMAP;
    }
    Ok(f)
}

/// `cuMemAllocManaged` flags for an attachment.
pub(crate) fn managed_attach_flags(attach: ManagedAttach) -> u32 {
    match attach {
        ManagedAttach::Global => sys::CUmemAttach_flags::CU_MEM_ATTACH_GLOBAL as u32,
        ManagedAttach::Host => sys::CUmemAttach_flags::CU_MEM_ATTACH_HOST as u32,
    }
}

/// Event creation flags.
pub(crate) fn event_flags(timing: bool) -> sys::CUevent_flags {
    if timing {
        sys::CUevent_flags::CU_EVENT_DEFAULT
    } else {
        sys::CUevent_flags::CU_EVENT_DISABLE_TIMING
    }
}

/// The handle CUDA is given for `handle`: the default stream (0) is `CU_STREAM_PER_THREAD` when
/// per-thread default streams are configured (what code built with `--default-stream
/// per-thread` means by the NULL stream), else itself.
pub(crate) fn default_resolved(handle: StreamHandle, per_thread_default: bool) -> StreamHandle {
    if handle == StreamHandle::DEFAULT && per_thread_default {
        StreamHandle::PER_THREAD
    } else {
        handle
    }
}

/// The `CUstream` a handle stands for.
pub(crate) fn cu_stream(handle: StreamHandle) -> sys::CUstream {
    handle.0 as usize as sys::CUstream
}

/// The handle of a created `CUstream`.
pub(crate) fn stream_handle(stream: sys::CUstream) -> StreamHandle {
    StreamHandle(stream as usize as u64)
}

/// The `CUevent` a handle stands for.
pub(crate) fn cu_event(handle: EventHandle) -> sys::CUevent {
    handle.0 as usize as sys::CUevent
}

/// The handle of a created `CUevent`.
pub(crate) fn event_handle(event: sys::CUevent) -> EventHandle {
    EventHandle(event as usize as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_flags_translate_bit_for_bit() {
        let all = HostAllocFlags {
            portable: true,
            mapped: true,
            write_combined: true,
        };
        assert_eq!(host_alloc_flags(HostAllocFlags::default()), 0);
        assert_eq!(host_alloc_flags(all), 1 | 2 | 4);
        let mapped = HostAllocFlags {
            mapped: true,
            ..Default::default()
        };
        assert_eq!(host_register_flags(mapped).unwrap(), 2);
        assert!(
            host_register_flags(all).is_err(),
            "registration cannot be write-combined"
        );
    }

    #[test]
    fn the_default_stream_is_the_per_thread_stream_only_when_configured() {
        let d = StreamHandle::DEFAULT;
        assert!(cu_stream(default_resolved(d, false)).is_null());
        assert_eq!(cu_stream(default_resolved(d, true)) as usize, 0x2);
        for h in [
            StreamHandle::LEGACY,
            StreamHandle::PER_THREAD,
            StreamHandle(0x7f00),
        ] {
            assert_eq!(default_resolved(h, true), h);
            assert_eq!(default_resolved(h, false), h);
        }
    }

    #[test]
    fn managed_attachments_are_cudas_attach_flags() {
        // CU_MEM_ATTACH_GLOBAL = 1, CU_MEM_ATTACH_HOST = 2 (cuda.h).
        assert_eq!(managed_attach_flags(ManagedAttach::Global), 1);
        assert_eq!(managed_attach_flags(ManagedAttach::Host), 2);
    }

    #[test]
    fn built_in_stream_handles_are_cudas_special_values() {
        assert!(cu_stream(StreamHandle::DEFAULT).is_null());
        assert_eq!(cu_stream(StreamHandle::LEGACY) as usize, 0x1);
        assert_eq!(cu_stream(StreamHandle::PER_THREAD) as usize, 0x2);
        let h = StreamHandle(0x7f00_1234_5678);
        assert_eq!(stream_handle(cu_stream(h)), h);
        assert_eq!(event_handle(cu_event(EventHandle(42))), EventHandle(42));
        assert_eq!(
            event_flags(false),
            sys::CUevent_flags::CU_EVENT_DISABLE_TIMING
        );
    }
}
