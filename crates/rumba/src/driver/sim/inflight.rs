//! Which queued or running operations touch each allocation, and the two leases built on that:
//! **frozen** (nothing writes the allocation while a kernel runs, so it may read it with plain
//! loads) and **exclusive** (nothing but the kernel touches it, so it may store to it with plain
//! stores). This is what lets the work-item-loop engine leave relaxed atomics for global memory
//! where they are provably not needed (`engine::wil`, issue #12).
//!
//! # How it works
//!
//! Every operation that reads or writes device memory — asynchronous and synchronous copies,
//! memsets, strided copies, kernels (one touch per array argument) — registers a **user** on the
//! allocation ([`Region`]) of each range it touches, from the moment it is queued until its
//! work has run or been skipped (a guard inside the work removes it, before the stream counts
//! the operation complete). Queueing happens under one lock per driver, so the decisions below
//! and the registration they rely on are atomic with respect to every other operation.
//!
//! * A kernel asks for a **frozen** lease on a read-only argument. It is granted when the
//!   allocation is not shared (host-mapped, managed, opened from or exported to another
//!   process: memory someone outside the streams can write) and every registered user that may
//!   write it is *ordered before* the kernel — queued earlier on the same stream, or named by one
//!   of the kernel's own dependencies — so has finished before the kernel starts, and no other
//!   argument of the kernel writes it.
//! * An **exclusive** lease on an output: not shared, *every* registered user ordered before
//!   the kernel, and no other argument of the kernel addresses the allocation.
//! * A lease holder is registered like any user, but with its lease: every operation queued
//!   later that conflicts with it (a write against a frozen lease; anything against an exclusive
//!   one) gets the holder as a dependency, so it cannot start before the kernel has finished. A
//!   synchronous operation (running on the calling thread) waits for those holders first. This
//!   only orders operations CUDA leaves unordered, so it changes no result a program may rely
//!   on; dependencies only ever name operations queued earlier, so no cycle can form.
//! * Making an allocation shared (IPC export) marks it and then waits for its lease holders.
//!
//! # Soundness argument
//!
//! A frozen lease is held from the kernel's queueing to the end of its work. Writers registered
//! before it were ordered before the kernel (granting condition); writers registered after it
//! wait for it (conflict dependency); nobody outside the streams can write an unshared
//! allocation (its bytes are reached only through this driver's operations, each of which
//! registers); the kernel itself gets the argument read-only. So no write to the allocation
//! overlaps the kernel's plain reads: no data race. The exclusive lease is the same argument
//! with reads included. Accesses the tracker cannot see — none exist for device memory: it has
//! no host address outside the simulator — would make it unsound; every new way to reach device
//! memory must register here.
//!
//! This module touches only the user lists of allocations and the streams' dependency lists.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::memory::{Region, Resolved, lock};
use super::stream::{Dep, SimStream};

/// The lease a kernel argument asks for, or was granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lease {
    /// Nothing writes the allocation while the kernel runs.
    Frozen,
    /// Nothing but the kernel touches the allocation while it runs.
    Exclusive,
}

/// What one operation does to one allocation.
pub(crate) struct Touch {
    region: Arc<Region>,
    write: bool,
    want: Option<Lease>,
}

impl Touch {
    /// Reads the range.
    pub(crate) fn read(r: &Resolved) -> Touch {
        Touch {
            region: Arc::clone(r.region()),
            write: false,
            want: None,
        }
    }

    /// Writes (and maybe reads) the range.
    pub(crate) fn write(r: &Resolved) -> Touch {
        Touch {
            region: Arc::clone(r.region()),
            write: true,
            want: None,
        }
    }

    /// A kernel argument: `write` if the kernel may write it, asking for `want`.
    pub(crate) fn kernel_arg(r: &Resolved, write: bool, want: Option<Lease>) -> Touch {
        Touch {
            region: Arc::clone(r.region()),
            write,
            want,
        }
    }
}

/// The users of one allocation (kept in its [`Region`]).
#[derive(Default)]
pub(crate) struct Users {
    /// Writable from outside the streams: never leased.
    shared: bool,
    list: Vec<User>,
}

impl Users {
    /// The user list of a fresh allocation; `shared` for memory the host or another process
    /// can write directly.
    pub(crate) fn new(shared: bool) -> Self {
        Users {
            shared,
            list: Vec::new(),
        }
    }
}

struct User {
    id: u64,
    write: bool,
    lease: Option<Lease>,
    /// The operation's place in its stream; `None` for a synchronous operation.
    at: Option<Dep>,
}

impl User {
    /// Whether an operation touching the allocation (`write`) must wait for this user.
    fn blocks(&self, write: bool) -> bool {
        match self.lease {
            Some(Lease::Exclusive) => true,
            Some(Lease::Frozen) => write,
            None => false,
        }
    }
}

fn clone_dep(d: &Dep) -> Dep {
    Dep {
        stream: Arc::clone(&d.stream),
        seq: d.seq,
    }
}

/// Whether `user` is certain to finish before an operation queued on `stream` after `deps`.
fn ordered_before(user: &User, stream: &Arc<SimStream>, deps: &[Dep]) -> bool {
    let Some(at) = &user.at else { return false };
    Arc::ptr_eq(&at.stream, stream)
        || deps
            .iter()
            .any(|d| Arc::ptr_eq(&d.stream, &at.stream) && d.seq >= at.seq)
}

/// The driver's tracker: the queueing lock and user ids.
#[derive(Default)]
pub(crate) struct Tracker {
    shared: Arc<TrackerLock>,
}

#[derive(Default)]
struct TrackerLock {
    lock: Mutex<()>,
    next_id: AtomicU64,
}

/// Removes an operation's users when dropped (its work has run or was skipped).
pub(crate) struct Release {
    tracker: Arc<TrackerLock>,
    users: Vec<(Arc<Region>, u64)>,
}

impl Drop for Release {
    fn drop(&mut self) {
        if self.users.is_empty() {
            return;
        }
        // The queueing lock: an operation that finishes before its queuer registered it must
        // not find (and miss) its users; the queuer holds this lock until it has.
        let _g = lock(&self.tracker.lock);
        for (region, id) in &self.users {
            lock(&region.users).list.retain(|u| u.id != *id);
        }
    }
}

impl Tracker {
    /// Queues an operation touching `touches` on `stream` after `deps` (its ordering
    /// dependencies): adds the lease holders it conflicts with to `deps`, decides the leases it
    /// asks for (one entry per touch, `None` when refused or not asked), and calls `push` with
    /// the dependencies, the grants and the guard that must live inside the work. Registers the
    /// users once `push` returned the operation's sequence number.
    pub(crate) fn enqueue<R>(
        &self,
        stream: &Arc<SimStream>,
        deps: impl FnOnce() -> Vec<Dep>,
        touches: Vec<Touch>,
        push: impl FnOnce(Vec<Dep>, Vec<Option<Lease>>, Release) -> (u64, R),
    ) -> R {
        let _g = lock(&self.shared.lock);
        let mut deps = deps();
        for t in &touches {
            let users = lock(&t.region.users);
            for u in users.list.iter().filter(|u| u.blocks(t.write)) {
                if let Some(at) = &u.at {
                    deps.push(clone_dep(at));
                }
            }
        }
        let grants: Vec<Option<Lease>> = touches
            .iter()
            .enumerate()
            .map(|(k, t)| {
                let want = t.want?;
                let users = lock(&t.region.users);
                if users.shared {
                    return None;
                }
                let others = touches
                    .iter()
                    .enumerate()
                    .filter(|(j, o)| *j != k && Arc::ptr_eq(&o.region, &t.region));
                let ok = match want {
                    Lease::Frozen => {
                        !others.into_iter().any(|(_, o)| o.write)
                            && users
                                .list
                                .iter()
                                .filter(|u| u.write)
                                .all(|u| ordered_before(u, stream, &deps))
                    }
                    Lease::Exclusive => {
                        others.count() == 0
                            && users.list.iter().all(|u| ordered_before(u, stream, &deps))
                    }
                };
                ok.then_some(want)
            })
            .collect();
        let ids: Vec<u64> = touches
            .iter()
            .map(|_| self.shared.next_id.fetch_add(1, Ordering::Relaxed))
            .collect();
        let release = Release {
            tracker: Arc::clone(&self.shared),
            users: touches
                .iter()
                .zip(&ids)
                .map(|(t, id)| (Arc::clone(&t.region), *id))
                .collect(),
        };
        let (seq, r) = push(deps, grants.clone(), release);
        for ((t, id), lease) in touches.iter().zip(ids).zip(grants) {
            lock(&t.region.users).list.push(User {
                id,
                write: t.write,
                lease,
                at: Some(Dep {
                    stream: Arc::clone(stream),
                    seq,
                }),
            });
        }
        r
    }

    /// Registers a synchronous operation touching `touches` and waits for the lease holders it
    /// conflicts with; the operation runs while the returned guard lives.
    pub(crate) fn begin_sync(&self, touches: Vec<Touch>) -> Release {
        let mut wait = Vec::new();
        let mut users = Vec::with_capacity(touches.len());
        {
            let _g = lock(&self.shared.lock);
            for t in touches {
                let mut list = lock(&t.region.users);
                wait.extend(
                    list.list
                        .iter()
                        .filter(|u| u.blocks(t.write))
                        .filter_map(|u| u.at.as_ref().map(clone_dep)),
                );
                let id = self.shared.next_id.fetch_add(1, Ordering::Relaxed);
                list.list.push(User {
                    id,
                    write: t.write,
                    lease: None,
                    at: None,
                });
                drop(list);
                users.push((t.region, id));
            }
        }
        for d in wait {
            d.stream.wait_for(d.seq);
        }
        Release {
            tracker: Arc::clone(&self.shared),
            users,
        }
    }

    /// Marks `region` shared (writable from outside the streams: never leased again) and waits
    /// until its current lease holders have finished.
    pub(crate) fn share(&self, region: &Arc<Region>) {
        let wait: Vec<Dep> = {
            let _g = lock(&self.shared.lock);
            let mut users = lock(&region.users);
            users.shared = true;
            users
                .list
                .iter()
                .filter(|u| u.lease.is_some())
                .filter_map(|u| u.at.as_ref().map(clone_dep))
                .collect()
        };
        for d in wait {
            d.stream.wait_for(d.seq);
        }
    }
}
