//! The order of one graph's replays on a driver that runs them itself (the sim and OpenCL): a
//! replay queued on another stream than the last one waits for the last one first, as CUDA
//! orders the launches of one executable graph. Two replays of a graph therefore never run at
//! once over the graph's memory, whatever streams they are queued on.
//!
//! The chain keeps one driver event, recorded after every replay. A replay on the stream of the
//! last one needs no wait (the stream orders them). Should the record after a replay fail, the
//! next replay on another stream synchronizes with that stream before anything is queued, or is
//! refused.
//!
//! This module touches the driver's event and stream calls only.

use std::sync::Mutex;

use super::{Driver, EventHandle, StreamHandle};
use crate::error::Result;
use crate::sync::lock;

/// Where the last replay was queued.
#[derive(Default)]
struct Last {
    /// Its stream (`None`: no replay yet).
    stream: Option<StreamHandle>,
    /// The chain's event, created at the first replay.
    event: Option<EventHandle>,
    /// Whether the event was recorded after the last replay.
    recorded: bool,
}

/// Orders the replays of one graph (see the [module docs](self)).
#[derive(Default)]
pub(crate) struct ReplayChain {
    last: Mutex<Last>,
}

impl ReplayChain {
    /// Queues a replay with `queue` on `stream`, after the last replay of the graph. Every
    /// refusal of the replay itself must have been taken before: once `queue` has run, the
    /// chain's event is recorded on `stream` whatever it returned (what it queued is ordered too).
    ///
    /// # Errors
    /// The driver's errors creating the event, waiting for it or for the last replay's stream
    /// (nothing is queued then); `queue`'s error; the error recording the event.
    pub(crate) fn queue(
        &self,
        driver: &dyn Driver,
        device: usize,
        stream: StreamHandle,
        queue: impl FnOnce() -> Result<()>,
    ) -> Result<()> {
        self.queue_recording(driver, device, stream, |event| {
            let queued = queue();
            (queued, driver.event_record(device, event, stream))
        })
    }

    /// [`queue`](Self::queue) for a driver that records the chain's event itself, with the
    /// replay's own last command: `queue` receives the event, queues the replay, records the
    /// event after it, and returns what queuing and recording gave.
    ///
    /// # Errors
    /// As [`queue`](Self::queue).
    pub(crate) fn queue_recording(
        &self,
        driver: &dyn Driver,
        device: usize,
        stream: StreamHandle,
        queue: impl FnOnce(EventHandle) -> (Result<()>, Result<()>),
    ) -> Result<()> {
        let mut last = lock(&self.last);
        let event = match last.event {
            Some(e) => e,
            None => {
                let e = driver.event_create(device, false)?;
                last.event = Some(e);
                e
            }
        };
        match last.stream {
            Some(previous) if previous != stream => {
                if last.recorded {
                    driver.stream_wait_event(device, stream, event)?;
                } else {
                    driver.stream_synchronize(device, previous)?;
                }
            }
            _ => {}
        }
        let (queued, recorded) = queue(event);
        last.stream = Some(stream);
        last.recorded = recorded.is_ok();
        queued.and(recorded)
    }

    /// Destroys the chain's event (when the graph is destroyed; queued waits keep what they
    /// waited for).
    pub(crate) fn destroy(&self, driver: &dyn Driver, device: usize) {
        if let Some(e) = lock(&self.last).event.take() {
            if let Err(err) = driver.event_destroy(device, e) {
                tracing::debug!("destroying a graph's replay event: {err}");
            }
        }
    }
}
