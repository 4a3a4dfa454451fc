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
//! A graph's replay queues many launches on one in-order queue with one wait list, on its first
//! command ([`Slot::take_all`]): it waits for the unfinished launches, of each kernel it
//! launches, whose width differs from its own, and its last command stands for all its launches
//! afterwards. A replay that launches one kernel with several widths counts as a width of its
//! own that differs from every other, its own included.
//!
//! This module touches the events it is given.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use opencl3::types::{cl_context, cl_event};

use super::raw::ClEvent;

/// A kernel in a context at a local size.
type Key = (usize, String, [usize; 3]);

/// The width of the launches of one key in a batch that launches it with several widths (a
/// graph's replay): whatever comes next waits for it, and it waits for whatever runs.
const MIXED: usize = usize::MAX;

/// The unfinished launches of one key, all of one width (or [`MIXED`]).
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

/// The local size as three dimensions.
fn local3(local: &[usize]) -> [usize; 3] {
    let mut l = [1usize; 3];
    for (k, v) in local.iter().take(3).enumerate() {
        l[k] = *v;
    }
    l
}

/// What a batch of launches (one launch, or a graph's replay) queues, per kernel and local size:
/// its width, or [`MIXED`] when the batch launches it with several. Computed once for a graph.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Launches(Vec<(String, [usize; 3], usize)>);

impl Launches {
    /// The launches of kernels `(name, global size, local size)`.
    pub(crate) fn of<'a>(
        launches: impl IntoIterator<Item = (&'a str, &'a [usize], &'a [usize])>,
    ) -> Self {
        let mut keys: Vec<(String, [usize; 3], usize)> = Vec::new();
        for (name, global, local) in launches {
            let (local, width) = (local3(local), pocl_width(global, local));
            match keys.iter_mut().find(|(n, l, _)| n == name && *l == local) {
                Some((_, _, w)) if *w != width => *w = MIXED,
                Some(_) => {}
                None => keys.push((name.to_string(), local, width)),
            }
        }
        Launches(keys)
    }

    /// Whether there are none.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One key of a [`Slot`]: the batch's width for it, the width of the launches running before,
/// and the launches of another width it waits for.
struct Taken {
    key: Key,
    width: usize,
    before: usize,
    waits: Vec<ClEvent>,
}

/// A batch of launches being queued: what it must wait for, held until its last event is
/// recorded (so that no launch of another width slips in between).
pub(crate) struct Slot {
    guard: MutexGuard<'static, Option<HashMap<Key, Running>>>,
    taken: Vec<Taken>,
    queued: bool,
}

impl Slot {
    /// Before queuing kernel `name` in `context` with `global` and `local` sizes.
    pub(crate) fn take(context: cl_context, name: &str, global: &[usize], local: &[usize]) -> Slot {
        Slot::take_all(context, &Launches::of([(name, global, local)]))
    }

    /// Before queuing `launches` in `context`, in order on one in-order queue: the batch waits
    /// (before its first command) for the unfinished launches of each of its kernels whose width
    /// differs from its own, and for all of them where it launches a kernel with several widths.
    pub(crate) fn take_all(context: cl_context, launches: &Launches) -> Slot {
        let mut guard = crate::sync::lock(&RUNNING);
        let map = guard.get_or_insert_with(HashMap::new);
        let taken = launches
            .0
            .iter()
            .map(|(name, local, width)| {
                let key = (context as usize, name.clone(), *local);
                let running = map.entry(key.clone()).or_default();
                running.events.retain(|e| !e.is_done().unwrap_or(true));
                let before = running.width;
                let differs = before != *width || *width == MIXED;
                let waits = if differs && !running.events.is_empty() {
                    std::mem::take(&mut running.events)
                } else {
                    Vec::new()
                };
                running.width = *width;
                Taken {
                    key,
                    width: *width,
                    before,
                    waits,
                }
            })
            .collect();
        Slot {
            guard,
            taken,
            queued: false,
        }
    }

    /// `deps` and the launches this batch must wait for, as one wait list.
    pub(crate) fn wait_list(&self, deps: &[cl_event]) -> Vec<cl_event> {
        deps.iter()
            .copied()
            .chain(
                self.taken
                    .iter()
                    .flat_map(|t| t.waits.iter().map(ClEvent::raw)),
            )
            .collect()
    }

    /// The launches this batch must wait for, each a reference of its own (to outlive the slot).
    pub(crate) fn waits(&self) -> Vec<ClEvent> {
        (self.taken.iter())
            .flat_map(|t| t.waits.iter().cloned())
            .collect()
    }

    /// The batch was queued; `event` completes after its last launch.
    pub(crate) fn launched(mut self, event: &ClEvent) {
        let Slot { guard, taken, .. } = &mut self;
        if let Some(map) = guard.as_mut() {
            for t in taken.iter() {
                if let Some(r) = map.get_mut(&t.key) {
                    r.width = t.width;
                    r.events.push(event.clone());
                }
            }
        }
        self.queued = true;
    }
}

impl Drop for Slot {
    /// A batch that was not queued leaves the running launches as they were.
    fn drop(&mut self) {
        if self.queued {
            return;
        }
        let Slot { guard, taken, .. } = self;
        if let Some(map) = guard.as_mut() {
            for t in taken.drain(..) {
                if let Some(r) = map.get_mut(&t.key) {
                    r.width = t.before;
                    r.events.extend(t.waits);
                }
            }
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

    #[test]
    fn a_batch_with_two_widths_of_one_kernel_is_mixed() {
        let l = [32usize, 1, 1];
        let b = Launches::of([
            ("k", &[64usize, 1, 1][..], &l[..]),
            ("k", &[64, 1, 1][..], &l[..]),
            ("j", &[32, 1, 1][..], &l[..]),
        ]);
        assert_eq!(b.0, [("k".into(), l, 64), ("j".into(), l, 32)]);
        let b = Launches::of([
            ("k", &[64usize][..], &[32usize][..]),
            ("k", &[128][..], &[32][..]),
        ]);
        assert_eq!(b.0, [("k".into(), l, MIXED)]);
        assert!(Launches::of([]).is_empty());
    }
}
