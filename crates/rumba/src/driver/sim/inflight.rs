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
//! the operation complete). Registration, the decisions below and the dependencies they add all
//! happen under one lock per driver.
//!
//! * A kernel asks for its leases **when it starts running** ([`Release::grant`]), by which time
//!   everything ordered before it has finished and removed itself. A **frozen** lease on a
//!   read-only argument is granted when the allocation is not shared (host-mapped, managed,
//!   opened from or exported to another process: memory someone outside the streams can write)
//!   and no other registered user may write it — except users queued later on the kernel's own
//!   stream, which cannot start before it ends. An **exclusive** lease on an output: not shared,
//!   no other registered user at all (with the same exception), and no other argument of the
//!   kernel addresses the allocation.
//! * From then on the kernel's users carry their lease, and every operation queued later that
//!   conflicts with it (a write against a frozen lease; anything against an exclusive one) gets
//!   the kernel as a dependency, so it cannot start before the kernel has finished; a
//!   synchronous operation (running on the calling thread) waits for it first. Only *running*
//!   kernels hold leases, and a running kernel waits for nothing, so these waits end and cannot
//!   close a cycle; they only order operations CUDA leaves unordered, which changes no result a
//!   program may rely on.
//! * Making an allocation shared (IPC export) marks it and then waits for its lease holders.
//!
//! # Soundness argument
//!
//! A frozen lease is held from the grant to the end of the kernel's work. Writers registered
//! before the grant would have refused it (other than later operations of the kernel's own
//! stream, which start after it ends); writers registered after it wait for the kernel
//! (conflict dependency, or a synchronous wait); nobody outside the streams can write an
//! unshared allocation (its bytes are reached only through this driver's operations, each of
//! which registers); the kernel itself gets the argument read-only. So no write to the
//! allocation overlaps the kernel's plain reads: no data race. The exclusive lease is the same
//! argument with reads included. Accesses the tracker cannot see — none exist for device memory:
//! it has no host address outside the simulator — would make it unsound; every new way to reach
//! device memory must register here.
//!
//! The driver's queueing entry point ([`SimDriver::enqueue_touching`]) lives here too: every
//! queued operation goes through the tracker.
//!
//! This module touches only the user lists of allocations and the streams it queues on.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::SimDriver;
use super::memory::{Region, Resolved};
use super::stream::{self, Dep, SimStream};
use crate::driver::StreamHandle;
use crate::error::Result;
use crate::sync::lock;

/// The lease a kernel argument asks for, or was granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lease {
    /// Nothing writes the allocation while the kernel runs.
    Frozen,
    /// Nothing but the kernel touches the allocation while it runs.
    Exclusive,
}

/// What one operation does to one allocation.
#[derive(Clone)]
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

    /// The same touch asking for `want`.
    pub(crate) fn with_lease(&self, want: Option<Lease>) -> Touch {
        Touch {
            want,
            ..self.clone()
        }
    }

    /// One touch per allocation of `touches` (a write if any of them writes), asking for no lease.
    pub(crate) fn merge<'a>(touches: impl Iterator<Item = &'a Touch>) -> Vec<Touch> {
        let mut merged: Vec<Touch> = Vec::new();
        for t in touches {
            match merged
                .iter_mut()
                .find(|m| Arc::ptr_eq(&m.region, &t.region))
            {
                Some(m) => m.write |= t.write,
                None => merged.push(t.with_lease(None)),
            }
        }
        merged
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

/// An operation's registration: removes its users when dropped (its work has run or was
/// skipped), and grants a kernel its leases when it starts ([`grant`](Self::grant)).
pub(crate) struct Release {
    tracker: Arc<TrackerLock>,
    /// Per touch: the allocation, the user id, and the lease asked for.
    users: Vec<(Arc<Region>, u64, Option<Lease>)>,
}

impl Drop for Release {
    fn drop(&mut self) {
        if self.users.is_empty() {
            return;
        }
        // The queueing lock: an operation that finishes before its queuer registered it must
        // not find (and miss) its users; the queuer holds this lock until it has.
        let _g = lock(&self.tracker.lock);
        for (region, id, _) in &self.users {
            lock(&region.users).list.retain(|u| u.id != *id);
        }
    }
}

impl Release {
    /// Decides the leases the operation asked for, now that it runs (see the module docs):
    /// one entry per touch, `None` when refused or not asked. Call once, at the start of the
    /// work, before touching memory.
    pub(crate) fn grant(&self) -> Vec<Option<Lease>> {
        let _g = lock(&self.tracker.lock);
        let own = |id: u64| self.users.iter().any(|(_, u, _)| *u == id);
        (0..self.users.len())
            .map(|k| {
                let (region, id, want) = &self.users[k];
                let want = (*want)?;
                let mut users = lock(&region.users);
                if users.shared {
                    return None;
                }
                let me = users.list.iter().find(|u| u.id == *id)?;
                let at = me.at.as_ref().map(clone_dep)?;
                let also_mine = self
                    .users
                    .iter()
                    .enumerate()
                    .filter(|(j, (r, _, _))| *j != k && Arc::ptr_eq(r, region));
                let mine_conflict = match want {
                    Lease::Frozen => also_mine
                        .into_iter()
                        .any(|(_, (_, j, _))| users.list.iter().any(|u| u.id == *j && u.write)),
                    Lease::Exclusive => also_mine.count() > 0,
                };
                // Later operations of the kernel's own stream start after it ends.
                let after_me = |u: &User| {
                    u.at.as_ref()
                        .is_some_and(|d| Arc::ptr_eq(&d.stream, &at.stream) && d.seq > at.seq)
                };
                let others_conflict = users.list.iter().any(|u| {
                    !own(u.id)
                        && !after_me(u)
                        && match want {
                            Lease::Frozen => u.write,
                            Lease::Exclusive => true,
                        }
                });
                if mine_conflict || others_conflict {
                    return None;
                }
                if let Some(me) = users.list.iter_mut().find(|u| u.id == *id) {
                    me.lease = Some(want);
                }
                Some(want)
            })
            .collect()
    }
}

impl Tracker {
    /// Queues an operation touching `touches` on `stream` after `deps` (its ordering
    /// dependencies, computed under the lock) and after the lease holders it conflicts with:
    /// calls `push` with the dependencies and the registration that must live inside the work,
    /// and registers the users once `push` returned the operation's sequence number.
    pub(crate) fn enqueue<R>(
        &self,
        stream: &Arc<SimStream>,
        deps: impl FnOnce() -> Vec<Dep>,
        touches: Vec<Touch>,
        push: impl FnOnce(Vec<Dep>, Release) -> (u64, R),
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
        let ids: Vec<u64> = touches
            .iter()
            .map(|_| self.shared.next_id.fetch_add(1, Ordering::Relaxed))
            .collect();
        let release = Release {
            tracker: Arc::clone(&self.shared),
            users: touches
                .iter()
                .zip(&ids)
                .map(|(t, id)| (Arc::clone(&t.region), *id, t.want))
                .collect(),
        };
        let (seq, r) = push(deps, release);
        for (t, id) in touches.iter().zip(ids) {
            lock(&t.region.users).list.push(User {
                id,
                write: t.write,
                lease: None,
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
                users.push((t.region, id, None));
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

impl SimDriver {
    /// Queues work touching `touches` on a stream, after the stream's ordering dependencies and
    /// the lease holders it conflicts with (this module); `make` builds the work around the
    /// operation's registration, which the work must keep until it is done (a kernel asks it
    /// for its leases when it starts).
    pub(super) fn enqueue_touching(
        &self,
        device: usize,
        handle: StreamHandle,
        touches: Vec<Touch>,
        make: impl FnOnce(Release) -> stream::Work,
    ) -> Result<(Arc<SimStream>, u64)> {
        let (dev, s) = self.stream(device, handle)?;
        Ok(self.inflight.enqueue(
            &s,
            || dev.ordering_deps(&s),
            touches,
            |deps, release| {
                let seq = s.push_work(deps, make(release));
                (seq, (Arc::clone(&s), seq))
            },
        ))
    }

    /// [`enqueue_touching`](Self::enqueue_touching) for work that asks for no lease.
    pub(super) fn enqueue(
        &self,
        device: usize,
        handle: StreamHandle,
        touches: Vec<Touch>,
        work: stream::Work,
    ) -> Result<(Arc<SimStream>, u64)> {
        self.enqueue_touching(device, handle, touches, |release| {
            Box::new(move || {
                // Dropped when the work has run (or, skipped, with the closure): the operation
                // no longer touches its memory.
                let _release = release;
                work()
            })
        })
    }
}
