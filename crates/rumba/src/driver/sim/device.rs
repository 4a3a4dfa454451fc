//! One simulated device: its address space, its legacy default stream and created streams, the
//! blocking streams the legacy-default-stream rules order against, and its events.
//!
//! This module touches only the device's own state.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use super::event::SimEvent;
use super::memory::AddressSpace;
use super::stream::{Dep, SimStream, StreamOwner};
use crate::sync::lock;

/// One simulated device: its address space and streams, and the events made on it.
pub(super) struct SimDevice {
    pub(super) ordinal: usize,
    pub(super) memory: AddressSpace,
    pub(super) legacy: StreamOwner,
    pub(super) streams: Mutex<HashMap<u64, StreamOwner>>,
    /// Every blocking stream of the device except the legacy one (weak: owners live elsewhere).
    pub(super) blocking: Mutex<Vec<Weak<SimStream>>>,
    /// Destroyed streams, which still run the work queued before (weak: a stream's worker holds
    /// it until its queue is drained).
    pub(super) retiring: Mutex<Vec<Weak<SimStream>>>,
    pub(super) events: Mutex<HashMap<u64, Arc<SimEvent>>>,
}

impl SimDevice {
    pub(super) fn register_blocking(&self, s: &Arc<SimStream>) {
        let mut list = lock(&self.blocking);
        list.retain(|w| w.strong_count() > 0);
        list.push(Arc::downgrade(s));
    }

    /// Dependencies an operation on `s` must wait for under the legacy-default-stream rules.
    pub(super) fn ordering_deps(&self, s: &Arc<SimStream>) -> Vec<Dep> {
        if !s.blocking {
            return Vec::new();
        }
        if Arc::ptr_eq(s, &self.legacy.0) {
            lock(&self.blocking)
                .iter()
                .filter_map(Weak::upgrade)
                .filter_map(|b| b.current_point())
                .collect()
        } else {
            self.legacy.0.current_point().into_iter().collect()
        }
    }

    /// Every stream of the device that may still run work: live ones, and destroyed ones whose
    /// queued work has not drained.
    pub(super) fn all_streams(&self) -> Vec<Arc<SimStream>> {
        let mut all = vec![Arc::clone(&self.legacy.0)];
        all.extend(lock(&self.streams).values().map(|o| Arc::clone(&o.0)));
        let mut retiring = lock(&self.retiring);
        retiring.retain(|w| w.strong_count() > 0);
        let blocking = lock(&self.blocking);
        for s in blocking
            .iter()
            .chain(retiring.iter())
            .filter_map(Weak::upgrade)
        {
            if !all.iter().any(|a| Arc::ptr_eq(a, &s)) {
                all.push(s);
            }
        }
        all
    }

    /// A stream was destroyed: its queued work still runs, and device-wide waits wait for it.
    pub(super) fn retire(&self, s: &Arc<SimStream>) {
        let mut retiring = lock(&self.retiring);
        retiring.retain(|w| w.strong_count() > 0);
        retiring.push(Arc::downgrade(s));
    }
}
