//! One simulated device: its address space, its legacy default stream and created streams, the
//! blocking streams the legacy-default-stream rules order against, and its events.
//!
//! This module touches only the device's own state.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use super::event::SimEvent;
use super::memory::{AddressSpace, lock};
use super::stream::{Dep, SimStream, StreamOwner};

/// One simulated device: its address space and streams, and the events made on it.
pub(super) struct SimDevice {
    pub(super) ordinal: usize,
    pub(super) memory: AddressSpace,
    pub(super) legacy: StreamOwner,
    pub(super) streams: Mutex<HashMap<u64, StreamOwner>>,
    /// Every blocking stream of the device except the legacy one (weak: owners live elsewhere).
    pub(super) blocking: Mutex<Vec<Weak<SimStream>>>,
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

    /// Every live stream of the device.
    pub(super) fn all_streams(&self) -> Vec<Arc<SimStream>> {
        let mut all = vec![Arc::clone(&self.legacy.0)];
        all.extend(lock(&self.streams).values().map(|o| Arc::clone(&o.0)));
        for s in lock(&self.blocking).iter().filter_map(Weak::upgrade) {
            if !all.iter().any(|a| Arc::ptr_eq(a, &s)) {
                all.push(s);
            }
        }
        all
    }
}
