//! Block barriers: what a thread reports when it reaches `syncthreads*`, and how the block
//! runner decides, once every live thread has either arrived or exited, whether the barrier
//! completes (and with which value) or is divergent.
//!
//! CUDA requires every thread of a block to reach the *same* `__syncthreads()`; anything else
//! hangs or misbehaves on hardware. The simulator identifies a barrier by its call site
//! (`#[track_caller]`), so it reports two kinds of divergence instead of hanging:
//! some threads wait while others have exited, or threads wait at different call sites.
//! Pure bookkeeping: touches no memory and runs no threads.

use std::panic::Location;

use super::dim::Dim3;

/// Which barrier primitive a thread called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BarrierKind {
    /// `syncthreads()`.
    Sync,
    /// `syncthreads_count(pred)`.
    Count,
    /// `syncthreads_and(pred)`.
    And,
    /// `syncthreads_or(pred)`.
    Or,
}

impl BarrierKind {
    fn name(self) -> &'static str {
        match self {
            BarrierKind::Sync => "syncthreads",
            BarrierKind::Count => "syncthreads_count",
            BarrierKind::And => "syncthreads_and",
            BarrierKind::Or => "syncthreads_or",
        }
    }
}

/// A thread's arrival at a barrier: where, which kind, and its predicate.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Arrival {
    pub(crate) site: &'static Location<'static>,
    pub(crate) kind: BarrierKind,
    pub(crate) pred: bool,
}

impl Arrival {
    fn same_barrier(&self, other: &Arrival) -> bool {
        std::ptr::eq(self.site, other.site) || self.site == other.site
    }

    fn describe(&self) -> String {
        format!("{} at {}", self.kind.name(), self.site)
    }
}

/// How a round of the block ended.
#[derive(Debug, PartialEq)]
pub(crate) enum Outcome {
    /// Every thread exited: the block is done.
    Finished,
    /// Every live thread waits at the same barrier: resume them all with this value.
    Release(i32),
    /// The barrier cannot complete: report this message against this thread (linear id).
    Divergent { thread: u32, message: String },
}

/// The arrivals and exits of one round (one pass over the live threads of a block).
pub(crate) struct Round {
    first: Option<(u32, Arrival)>,
    other_site: Option<(u32, Arrival)>,
    first_exited: Option<u32>,
    arrived: u32,
    true_count: u32,
}

impl Round {
    pub(crate) fn new() -> Self {
        Round {
            first: None,
            other_site: None,
            first_exited: None,
            arrived: 0,
            true_count: 0,
        }
    }

    /// Thread `tid` reached a barrier.
    #[inline(always)]
    pub(crate) fn arrive(&mut self, tid: u32, a: Arrival) {
        self.arrived += 1;
        self.true_count += a.pred as u32;
        match &self.first {
            // The common case, once per thread and barrier: the same call site as the first
            // arrival (one `Location` per call site, so the pointers are equal).
            Some((_, f)) if std::ptr::eq(f.site, a.site) => {}
            None => self.first = Some((tid, a)),
            Some(_) => self.arrive_elsewhere(tid, a),
        }
    }

    /// [`arrive`](Self::arrive) when the site pointer differs from the first arrival's: the same
    /// site reached through another `Location` copy, or a divergent barrier.
    #[cold]
    #[inline(never)]
    fn arrive_elsewhere(&mut self, tid: u32, a: Arrival) {
        if let Some((_, f)) = &self.first {
            if self.other_site.is_none() && !f.same_barrier(&a) {
                self.other_site = Some((tid, a));
            }
        }
    }

    /// Thread `tid` returned from the kernel body.
    #[inline]
    pub(crate) fn exit(&mut self, tid: u32) {
        if self.first_exited.is_none() {
            self.first_exited = Some(tid);
        }
    }

    /// Decides the round. `block_dim` and `threads` (threads alive at the start of the round)
    /// are used for the message.
    pub(crate) fn outcome(&self, block_dim: Dim3, threads: u32) -> Outcome {
        let Some((tid, first)) = self.first else {
            return Outcome::Finished;
        };
        let coord = |t: u32| Dim3::from_linear(t as u64, block_dim);
        if let Some(exited) = self.first_exited {
            return Outcome::Divergent {
                thread: tid,
                message: format!(
                    "divergent barrier: thread {} waits at {} but thread {} exited without reaching it ({} of {threads} threads arrived)",
                    coord(tid),
                    first.describe(),
                    coord(exited),
                    self.arrived
                ),
            };
        }
        if let Some((other, a)) = self.other_site {
            return Outcome::Divergent {
                thread: tid,
                message: format!(
                    "divergent barrier: thread {} waits at {} but thread {} waits at {}",
                    coord(tid),
                    first.describe(),
                    coord(other),
                    a.describe()
                ),
            };
        }
        let value = match first.kind {
            BarrierKind::Sync => 0,
            BarrierKind::Count => self.true_count as i32,
            BarrierKind::And => (self.true_count == self.arrived) as i32,
            BarrierKind::Or => (self.true_count > 0) as i32,
        };
        Outcome::Release(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn here(kind: BarrierKind, pred: bool) -> Arrival {
        Arrival {
            site: Location::caller(),
            kind,
            pred,
        }
    }

    #[test]
    fn values_of_the_reducing_barriers() {
        let dim = Dim3::new(4, 1, 1);
        for (kind, preds, want) in [
            (BarrierKind::Count, [true, false, true, true], 3),
            (BarrierKind::And, [true, false, true, true], 0),
            (BarrierKind::And, [true; 4], 1),
            (BarrierKind::Or, [false, false, true, false], 1),
            (BarrierKind::Or, [false; 4], 0),
            (BarrierKind::Sync, [false; 4], 0),
        ] {
            let mut r = Round::new();
            for (t, p) in preds.into_iter().enumerate() {
                // One call site for all four threads, as in a kernel.
                let a = Arrival {
                    pred: p,
                    ..here(kind, false)
                };
                r.arrive(t as u32, a);
            }
            assert_eq!(r.outcome(dim, 4), Outcome::Release(want), "{kind:?}");
        }
    }

    #[test]
    fn exits_and_other_sites_diverge() {
        let dim = Dim3::new(2, 2, 1);
        let mut r = Round::new();
        r.exit(0);
        r.arrive(2, here(BarrierKind::Sync, false));
        let Outcome::Divergent { thread, message } = r.outcome(dim, 4) else {
            panic!()
        };
        assert_eq!(thread, 2);
        assert!(
            message.contains("thread (0, 1, 0) waits at syncthreads at"),
            "{message}"
        );
        assert!(message.contains("thread (0, 0, 0) exited"), "{message}");

        let mut r = Round::new();
        r.arrive(0, here(BarrierKind::Sync, false));
        r.arrive(1, here(BarrierKind::Sync, false));
        let Outcome::Divergent { thread, message } = r.outcome(dim, 2) else {
            panic!()
        };
        assert_eq!(thread, 0);
        assert!(
            message.contains("but thread (1, 0, 0) waits at syncthreads at"),
            "{message}"
        );

        assert_eq!(Round::new().outcome(dim, 4), Outcome::Finished);
    }
}
