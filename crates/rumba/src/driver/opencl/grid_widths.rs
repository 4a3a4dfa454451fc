//! Launch ordering that keeps PoCL's cache of work-group functions consistent.
//!
//! PoCL's CPU devices (3.x, the one Debian ships) load each kernel's compiled work-group function
//! with `dlopen` and keep the handle in a process-wide cache, one entry per kernel, local size and
//! *widest grid* the entry serves (the grid width of the launch that made it; a wider launch
//! makes another entry and puts it first). A launch takes a reference to the first entry that
//! serves it; when it finishes, it gives the reference back to the first entry with the same
//! kernel and local size — ignoring the width. With launches of two widths of one kernel running
//! at once, that is sometimes another entry than the one it took, whose count then drops to zero
//! early, and the next release of it aborts the process
//! (`pocl_release_dlhandle_cache: Assertion 'found->ref_count > 0' failed`).
//!
//! The pattern that triggers it is ordinary: one kernel (a built-in strided copy, or a program's
//! kernel) at one block size with grids of different widths, queued from several streams. So a
//! launch here waits, on the device (its wait list, never the host), for the unfinished launches
//! of the same kernel and local size in the same context whose grid width differs from its own.
//! Launches of one width run together as before; all of them take and give back the same entry.
//! Widths are compared as PoCL computes them: the widest of the first two dimensions of the
//! global size and the square of the third local size (sic). Kernels are told apart by name (two
//! programs' kernels of one name are ordered as one kernel: conservative, not unsafe).
//!
//! This module touches the events it is given.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use opencl3::types::{cl_context, cl_event};

use super::raw::ClEvent;

/// A kernel in a context at a local size.
type Key = (usize, String, [usize; 3]);

/// The unfinished launches of one key, all of one width.
#[derive(Default)]
struct Running {
    width: usize,
    events: Vec<ClEvent>,
}

static RUNNING: Mutex<Option<HashMap<Key, Running>>> = Mutex::new(None);

/// The grid width PoCL's cache compares (`pocl_cmd_max_grid_dim_width`).
fn pocl_width(global: &[usize], local: &[usize]) -> usize {
    let at = |v: &[usize], k: usize| v.get(k).copied().unwrap_or(1);
    at(global, 0)
        .max(at(global, 1))
        .max(at(local, 2).saturating_mul(at(local, 2)))
}

/// A launch being queued: what it must wait for, held until its event is recorded (so that no
/// launch of another width slips in between).
pub(crate) struct Slot {
    guard: MutexGuard<'static, Option<HashMap<Key, Running>>>,
    key: Key,
    /// The launch's width, and the width of the launches running before it.
    width: usize,
    before: usize,
    /// Launches of another width still running: the launch waits for them.
    waits: Vec<ClEvent>,
    queued: bool,
}

impl Slot {
    /// Before queuing kernel `name` in `context` with `global` and `local` sizes.
    pub(crate) fn take(context: cl_context, name: &str, global: &[usize], local: &[usize]) -> Slot {
        let mut guard = crate::sync::lock(&RUNNING);
        let mut l = [1usize; 3];
        for (k, v) in local.iter().take(3).enumerate() {
            l[k] = *v;
        }
        let key = (context as usize, name.to_string(), l);
        let width = pocl_width(global, local);
        let running = guard
            .get_or_insert_with(HashMap::new)
            .entry(key.clone())
            .or_default();
        running.events.retain(|e| !e.is_done().unwrap_or(true));
        let before = running.width;
        let waits = if before != width && !running.events.is_empty() {
            std::mem::take(&mut running.events)
        } else {
            Vec::new()
        };
        running.width = width;
        Slot {
            guard,
            key,
            width,
            before,
            waits,
            queued: false,
        }
    }

    fn running(&mut self) -> Option<&mut Running> {
        self.guard.as_mut().and_then(|m| m.get_mut(&self.key))
    }

    /// `deps` and the launches this one must wait for, as one wait list.
    pub(crate) fn wait_list(&self, deps: &[cl_event]) -> Vec<cl_event> {
        deps.iter()
            .copied()
            .chain(self.waits.iter().map(ClEvent::raw))
            .collect()
    }

    /// The launch was queued as `event`.
    pub(crate) fn launched(mut self, event: &ClEvent) {
        let width = self.width;
        if let Some(r) = self.running() {
            r.width = width;
            r.events.push(event.clone());
        }
        self.queued = true;
    }
}

impl Drop for Slot {
    /// A launch that was not queued leaves the running launches as they were.
    fn drop(&mut self) {
        if self.queued {
            return;
        }
        let (before, waits) = (self.before, std::mem::take(&mut self.waits));
        if let Some(r) = self.running() {
            r.width = before;
            r.events.extend(waits);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_pocls() {
        assert_eq!(pocl_width(&[640, 1, 1], &[32, 1, 1]), 640);
        assert_eq!(pocl_width(&[64, 256, 1], &[8, 8, 1]), 256);
        assert_eq!(
            pocl_width(&[8, 8, 8], &[2, 2, 4]),
            16,
            "the third local size, squared"
        );
        assert_eq!(pocl_width(&[100], &[50]), 100);
    }
}
