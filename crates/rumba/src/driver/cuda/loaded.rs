//! A cache of things loaded once per key (compiled modules' functions), where loading one key
//! never holds up another.
//!
//! Loading a CUDA module can wait for the device: `cuModuleLoadData` (and, with lazy loading,
//! the first use of a function) may need the context idle, and filling a module's constants
//! copies to the device. An earlier cache held one lock across the whole load, so while one
//! thread's load waited for a stream that a host callback held back, every other thread's launch
//! of any kernel waited for that lock — and the thread that would release the callback was among
//! them (the fourth and fifth H100 runs hung in executables whose tests ran in parallel). Here
//! the map's lock is held only to find or add a key's slot; the load runs under that slot's own
//! lock, so only callers of the same key wait for it. (With lazy loading CUDA may still load a
//! function at its first launch, and that launch may wait for the device; this cache only keeps
//! rumba's own lock out of it.)
//!
//! This module touches only its own map.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use crate::error::Result;
use crate::sync::lock;

/// A key's state: its value once loaded, else the lock a load runs under.
enum Slot<V> {
    Ready(V),
    Loading(Arc<Mutex<Option<V>>>),
}

/// Values loaded once per key; a failed load leaves the key empty for the next caller to retry.
pub(super) struct Loaded<K, V> {
    slots: Mutex<HashMap<K, Slot<V>>>,
}

impl<K, V> Default for Loaded<K, V> {
    fn default() -> Self {
        Self {
            slots: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: Eq + Hash + Clone, V: Copy> Loaded<K, V> {
    /// The value of `key`, made by `load` on first use. Callers of other keys never wait for
    /// `load`; callers of the same key wait for it and then use its value. Once loaded, a call
    /// takes one lock (every launch asks).
    ///
    /// # Errors
    /// What `load` returns; nothing is kept then.
    pub(super) fn get_or_load(&self, key: K, load: impl FnOnce() -> Result<V>) -> Result<V> {
        let slot = match lock(&self.slots)
            .entry(key.clone())
            .or_insert_with(|| Slot::Loading(Arc::default()))
        {
            Slot::Ready(v) => return Ok(*v),
            Slot::Loading(slot) => Arc::clone(slot),
        };
        let mut value = lock(&slot);
        if let Some(v) = *value {
            return Ok(v);
        }
        let v = load()?;
        *value = Some(v);
        lock(&self.slots).insert(key, Slot::Ready(v));
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn a_load_in_progress_does_not_hold_up_another_key() {
        let loaded = Arc::new(Loaded::<u32, u32>::default());
        let (started_tx, started_rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let slow = {
            let loaded = Arc::clone(&loaded);
            std::thread::spawn(move || {
                loaded.get_or_load(1, || {
                    started_tx.send(()).unwrap();
                    release_rx.recv().unwrap();
                    Ok(10)
                })
            })
        };
        started_rx.recv().unwrap();
        // Key 2 loads while key 1's load is still waiting: with one lock for the whole map this
        // would wait for key 1 (and here, forever: key 1 is released only afterwards).
        let (done_tx, done_rx) = mpsc::channel();
        {
            let loaded = Arc::clone(&loaded);
            std::thread::spawn(move || done_tx.send(loaded.get_or_load(2, || Ok(20))));
        }
        let other = done_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("key 2 loaded while key 1 was loading");
        assert_eq!(other.unwrap(), 20);
        release_tx.send(()).unwrap();
        assert_eq!(slow.join().unwrap().unwrap(), 10);
        assert_eq!(loaded.get_or_load(1, || Ok(99)).unwrap(), 10, "loaded once");
    }

    #[test]
    fn a_failed_load_is_retried_by_the_next_caller() {
        let loaded = Loaded::<u32, u32>::default();
        let err = loaded
            .get_or_load(7, || Err(crate::error::Error::InvalidArgument("no".into())))
            .unwrap_err();
        assert!(err.to_string().contains("no"), "{err}");
        assert_eq!(loaded.get_or_load(7, || Ok(3)).unwrap(), 3);
    }
}
