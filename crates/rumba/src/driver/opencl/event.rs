//! Events on OpenCL: a rumba event is a slot holding the marker of its most recent record.
//!
//! Recording queues a marker on the stream (with the stream's ordering wait list, so a record on
//! the legacy default stream completes after the blocking streams' earlier work, as on CUDA);
//! waiting, querying and stream-waits-event use that marker; timing reads the markers'
//! `CL_PROFILING_COMMAND_END` (every queue is created with profiling where the device offers it).
//! Handles are small integers from a counter, so a made-up handle is a typed error.
//!
//! This module touches only the events it holds.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use opencl3::event::CL_PROFILING_COMMAND_END;

use super::raw::ClEvent;
use crate::driver::EventHandle;
use crate::error::{Error, Result};
use crate::sync::lock;

struct Slot {
    device: usize,
    timing: bool,
    record: Option<ClEvent>,
}

/// Every event of one driver.
pub(crate) struct Events {
    next: AtomicU64,
    slots: Mutex<HashMap<u64, Slot>>,
}

impl Events {
    pub(crate) fn new() -> Events {
        Events {
            next: AtomicU64::new(0x100),
            slots: Mutex::new(HashMap::new()),
        }
    }

    pub(crate) fn create(&self, device: usize, timing: bool) -> EventHandle {
        let h = self.next.fetch_add(1, Ordering::Relaxed);
        lock(&self.slots).insert(
            h,
            Slot {
                device,
                timing,
                record: None,
            },
        );
        EventHandle(h)
    }

    pub(crate) fn destroy(&self, device: usize, event: EventHandle) -> Result<()> {
        let mut slots = lock(&self.slots);
        check_device(slots.get(&event.0), event, device)?;
        slots.remove(&event.0);
        Ok(())
    }

    /// Fails unless `event` is an event of `device`.
    pub(crate) fn check(&self, device: usize, event: EventHandle) -> Result<()> {
        check_device(lock(&self.slots).get(&event.0), event, device)
    }

    /// Replaces the event's record with `marker`.
    pub(crate) fn set_record(
        &self,
        device: usize,
        event: EventHandle,
        marker: ClEvent,
    ) -> Result<()> {
        let mut slots = lock(&self.slots);
        check_device(slots.get(&event.0), event, device)?;
        if let Some(slot) = slots.get_mut(&event.0) {
            slot.record = Some(marker);
        }
        Ok(())
    }

    /// The marker of the most recent record (`None`: never recorded).
    pub(crate) fn record(&self, device: usize, event: EventHandle) -> Result<Option<ClEvent>> {
        let slots = lock(&self.slots);
        let slot = slots.get(&event.0);
        check_device(slot, event, device)?;
        Ok(slot.and_then(|s| s.record.clone()))
    }

    fn completed_at(&self, device: usize, event: EventHandle, which: &str) -> Result<u64> {
        let (timing, record) = {
            let slots = lock(&self.slots);
            let slot = slots.get(&event.0);
            check_device(slot, event, device)?;
            let s = slot.ok_or_else(|| unknown(event))?;
            (s.timing, s.record.clone())
        };
        if !timing {
            return Err(Error::EventNotTimed {
                which: which.to_owned(),
            });
        }
        let record = record.ok_or_else(|| Error::EventNotRecorded {
            which: which.to_owned(),
        })?;
        let status = record.status()?;
        if status > 0 {
            return Err(Error::NotReady(format!(
                "the {which} event has not completed yet"
            )));
        }
        if status < 0 {
            return Err(super::error::map("the work before the event", status));
        }
        record.profiling(CL_PROFILING_COMMAND_END)
    }

    /// Milliseconds from `start`'s record to `end`'s.
    pub(crate) fn elapsed_ms(
        &self,
        device: usize,
        start: EventHandle,
        end: EventHandle,
    ) -> Result<f32> {
        let a = self.completed_at(device, start, "start")?;
        let b = self.completed_at(device, end, "end")?;
        Ok(((b as i128 - a as i128) as f64 / 1e6) as f32)
    }
}

fn unknown(event: EventHandle) -> Error {
    Error::InvalidHandle {
        kind: "event",
        handle: event.0,
        reason: "not an event created by rumba, or already destroyed".into(),
    }
}

fn check_device(slot: Option<&Slot>, event: EventHandle, device: usize) -> Result<()> {
    match slot {
        None => Err(unknown(event)),
        Some(s) if s.device != device => Err(Error::WrongDevice {
            what: format!("event 0x{:x}", event.0),
            expected: device,
            found: s.device,
        }),
        Some(_) => Ok(()),
    }
}
