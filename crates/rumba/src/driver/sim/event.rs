//! Simulated events: a record is a notification queued on a stream that stamps the time at which
//! the stream reached it, so `elapsed_ms` measures real execution time, not queueing time. A
//! record on an idle stream with nothing to wait for is complete when it is made: it is stamped
//! on the calling thread, with no allocation and no hop to the stream's worker.
//!
//! This module touches only events and the streams they are recorded on.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use super::stream::{Dep, SimStream};
use crate::error::{Error, Result};
use crate::sync::lock;

/// The most recent record of an event.
#[derive(Clone)]
struct Record {
    stream: Arc<SimStream>,
    seq: u64,
    at: Stamp,
}

/// When the stream reached a record.
#[derive(Clone)]
enum Stamp {
    /// Completed when it was made.
    Now(Instant),
    /// Set by the queued notification when the stream reaches it.
    Later(Arc<OnceLock<Instant>>),
}

impl Stamp {
    fn get(&self) -> Option<Instant> {
        match self {
            Stamp::Now(t) => Some(*t),
            Stamp::Later(at) => at.get().copied(),
        }
    }
}

/// One simulated event.
pub(crate) struct SimEvent {
    pub(crate) timing: bool,
    record: Mutex<Option<Record>>,
}

impl SimEvent {
    pub(crate) fn new(timing: bool) -> Self {
        SimEvent {
            timing,
            record: Mutex::new(None),
        }
    }

    /// Records the event on `stream` after `deps`.
    pub(crate) fn record(&self, stream: &Arc<SimStream>, deps: Vec<Dep>) {
        if deps.is_empty()
            && let Some(seq) = stream.complete_if_idle()
        {
            let record = Record {
                stream: Arc::clone(stream),
                seq,
                at: Stamp::Now(Instant::now()),
            };
            *lock(&self.record) = Some(record);
            return;
        }
        let at = Arc::new(OnceLock::new());
        let stamp = Arc::clone(&at);
        let seq = stream.push_notify(
            deps,
            Box::new(move |_| {
                let _ = stamp.set(Instant::now());
            }),
        );
        *lock(&self.record) = Some(Record {
            stream: Arc::clone(stream),
            seq,
            at: Stamp::Later(at),
        });
    }

    /// A dependency on the most recent record, if it has not completed yet.
    pub(crate) fn dependency(&self) -> Option<Dep> {
        let rec = lock(&self.record).clone()?;
        (!rec.stream.is_done(rec.seq)).then_some(Dep {
            stream: rec.stream,
            seq: rec.seq,
        })
    }

    /// True when the most recent record has completed (or there is none).
    pub(crate) fn query(&self) -> bool {
        lock(&self.record)
            .as_ref()
            .is_none_or(|r| r.stream.is_done(r.seq))
    }

    /// Waits for the most recent record.
    pub(crate) fn synchronize(&self) -> Result<()> {
        let Some(rec) = lock(&self.record).clone() else {
            return Ok(());
        };
        if rec.stream.is_own_worker() && !rec.stream.is_done(rec.seq) {
            return Err(Error::InCallback {
                operation: "event synchronize".into(),
                reason: "the event is recorded on the stream that runs the callback, so it would wait forever",
                instead: "",
            });
        }
        rec.stream.wait_for(rec.seq);
        Ok(())
    }

    fn completed_at(&self, which: &str) -> Result<Instant> {
        if !self.timing {
            return Err(Error::EventNotTimed {
                which: which.to_owned(),
            });
        }
        let rec = lock(&self.record)
            .clone()
            .ok_or_else(|| Error::EventNotRecorded {
                which: which.to_owned(),
            })?;
        match rec.at.get() {
            Some(t) if rec.stream.is_done(rec.seq) => Ok(t),
            _ => Err(Error::NotReady(format!(
                "the {which} event has not completed yet"
            ))),
        }
    }

    /// Milliseconds from `self` to `end`.
    pub(crate) fn elapsed_ms(&self, end: &SimEvent) -> Result<f32> {
        let a = self.completed_at("start")?;
        let b = end.completed_at("end")?;
        let ms = if b >= a {
            b.duration_since(a).as_secs_f64() * 1e3
        } else {
            -(a.duration_since(b).as_secs_f64() * 1e3)
        };
        Ok(ms as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::StreamHandle;

    #[test]
    fn a_record_on_an_idle_stream_is_complete_and_stamped_when_made() {
        let s = SimStream::spawn(StreamHandle(110), true).unwrap();
        let (a, b) = (SimEvent::new(true), SimEvent::new(true));
        a.record(&s, Vec::new());
        assert!(a.query(), "complete without the worker");
        b.record(&s, Vec::new());
        assert!(b.query());
        assert!(a.elapsed_ms(&b).unwrap() >= 0.0);
        s.close();
    }
}
