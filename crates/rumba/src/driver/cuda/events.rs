//! CUDA events for [`CudaDriver`]: creation with or without timing, records (refused inside a
//! capture where they would be internal to it), waits and queries, and elapsed time.
//!
//! The driver keeps a table of the events it created, so a made-up handle is a typed error
//! instead of a pointer handed to CUDA, and so timing an untimed or never-recorded event is
//! [`Error::EventNotTimed`] / [`Error::EventNotRecorded`]: CUDA answers both with
//! `CUDA_ERROR_INVALID_HANDLE`.
//!
//! This module touches the CUDA driver's event calls.

use cudarc::driver::sys::{self, CUresult};

use super::driver::{CudaDriver, unknown};
use super::error::{check, map};
use super::flags::{cu_event, event_flags, event_handle};
use crate::driver::{EventHandle, StreamHandle};
use crate::error::{Error, Result};
use crate::sync::lock;

/// What the driver remembers of an event it created.
#[derive(Clone, Copy)]
pub(super) struct EventState {
    /// Created with timing (without `CU_EVENT_DISABLE_TIMING`).
    timing: bool,
    /// Recorded at least once.
    recorded: bool,
}

impl CudaDriver {
    /// Remembers that `event` has been recorded (so timing it asks CUDA).
    pub(super) fn note_recorded(&self, event: EventHandle) {
        if let Some(state) = lock(&self.events).get_mut(&event.0) {
            state.recorded = true;
        }
    }

    /// The `CUevent` behind `handle`, if this driver created it.
    pub(super) fn event(&self, handle: EventHandle) -> Result<sys::CUevent> {
        if lock(&self.events).contains_key(&handle.0) {
            Ok(cu_event(handle))
        } else {
            Err(unknown("event", handle.0))
        }
    }

    pub(super) fn create_event(&self, device: usize, timing: bool) -> Result<EventHandle> {
        self.bind(device)?;
        let mut e = std::ptr::null_mut();
        // SAFETY: writes one event handle; a context is current.
        check("cuEventCreate", unsafe {
            sys::cuEventCreate(&mut e, event_flags(timing) as u32)
        })?;
        let h = event_handle(e);
        lock(&self.events).insert(
            h.0,
            EventState {
                timing,
                recorded: false,
            },
        );
        Ok(h)
    }

    pub(super) fn destroy_event(&self, device: usize, event: EventHandle) -> Result<()> {
        let e = self.event(event)?;
        self.bind(device)?;
        lock(&self.events).remove(&event.0);
        // SAFETY: an event created here.
        check("cuEventDestroy", unsafe { sys::cuEventDestroy_v2(e) })
    }

    pub(super) fn record_event(
        &self,
        device: usize,
        event: EventHandle,
        stream: StreamHandle,
    ) -> Result<()> {
        let (e, s) = (self.event(event)?, self.stream(stream)?);
        self.bind(device)?;
        self.graphs.captures.refuse(
            device,
            stream,
            "recording an event",
            crate::driver::graph::INTERNAL_EVENT,
        )?;
        // SAFETY: valid handles.
        check("cuEventRecord", unsafe { sys::cuEventRecord(e, s) })?;
        self.note_recorded(event);
        // Outside a capture: an earlier record of the event inside one is forgotten.
        self.graphs.captures.record_event(device, event, stream);
        Ok(())
    }

    pub(super) fn synchronize_event(&self, device: usize, event: EventHandle) -> Result<()> {
        crate::driver::callback::refuse_wait("event synchronize", "")?;
        let captures = &self.graphs.captures;
        captures.refuse_captured_event(device, event, "event synchronize")?;
        let e = self.event(event)?;
        self.bind(device)?;
        // SAFETY: a valid event.
        let waited = check("cuEventSynchronize", unsafe { sys::cuEventSynchronize(e) });
        self.settle(device, None);
        waited
    }

    pub(super) fn query_event(&self, device: usize, event: EventHandle) -> Result<bool> {
        self.graphs
            .captures
            .refuse_captured_event(device, event, "event query")?;
        let e = self.event(event)?;
        self.bind(device)?;
        // SAFETY: a valid event.
        match unsafe { sys::cuEventQuery(e) } {
            CUresult::CUDA_SUCCESS => Ok(true),
            CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            r => Err(map("cuEventQuery", r)),
        }
    }

    pub(super) fn elapsed_ms(
        &self,
        device: usize,
        start: EventHandle,
        end: EventHandle,
    ) -> Result<f32> {
        let (a, b) = (self.event(start)?, self.event(end)?);
        self.bind(device)?;
        for (which, handle) in [("start", start), ("end", end)] {
            let state = lock(&self.events).get(&handle.0).copied();
            match state {
                Some(EventState { timing: false, .. }) => {
                    return Err(Error::EventNotTimed {
                        which: which.to_owned(),
                    });
                }
                Some(EventState {
                    recorded: false, ..
                }) => {
                    return Err(Error::EventNotRecorded {
                        which: which.to_owned(),
                    });
                }
                _ => {}
            }
        }
        let mut ms = 0f32;
        // SAFETY: valid events; writes one float.
        check("cuEventElapsedTime", unsafe {
            sys::cuEventElapsedTime(&mut ms, a, b)
        })?;
        Ok(ms)
    }
}
