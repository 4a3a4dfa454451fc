//! Starting and ending MPI: [`init`] and the [`Universe`] it returns.

use std::cell::RefCell;
use std::rc::Rc;

use mpi::Threading;

use super::comm::Communicator;
use super::raw;
use super::settings::{DeviceChoice, DistSettings};
use crate::error::{Error, Result};
use crate::runtime::{backend, gpus, select_device};

/// What every communicator of a universe shares.
pub(crate) struct Shared {
    pub settings: DistSettings,
    /// The first poisoning of any communicator: the message for `MPI_Abort`.
    pub poisoned: RefCell<Option<Error>>,
    /// MPI is finalized: communicators must not be freed any more.
    pub finalized: RefCell<bool>,
    /// The MPI says it takes CUDA device pointers (`MPIX_Query_cuda_support`), if it can say.
    pub cuda_support: Option<bool>,
}

/// MPI, started by [`init`]; ends it when dropped.
///
/// Dropping a universe one of whose communicators was poisoned (an operation timed out, or MPI
/// failed inside one) waits one more `RUMBA_DIST_TIMEOUT` (so that ranks still running can take
/// the poison notice as a typed error), then calls `MPI_Abort` after printing why: MPI cannot be
/// finalized while operations it started may never complete, and the other ranks would wait
/// for them forever.
/// Otherwise dropping finalizes MPI; drop every communicator first.
pub struct Universe {
    mpi: Option<mpi::environment::Universe>,
    shared: Rc<Shared>,
    rank: usize,
    size: usize,
}

impl std::fmt::Debug for Universe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Universe(rank {} of {})", self.rank, self.size)
    }
}

/// Starts MPI (thread level "serialized": one thread at a time calls MPI) and selects this
/// rank's device from `RUMBA_DIST_DEVICE` (by default `local_rank % device count`).
///
/// # Errors
/// [`Error::Dist`] (operation `init`) when MPI was already started in this process;
/// [`Error::InvalidConfig`] for a bad `RUMBA_DIST_*` variable; [`Error::Dist`] when MPI cannot
/// describe the world; the runtime's errors when selecting the device fails.
///
/// Run under `mpirun -n 4 prog`; outside `mpirun` a program is one rank of one.
pub fn init() -> Result<Universe> {
    let settings = DistSettings::from_env()?;
    let (mpi, _level) =
        mpi::initialize_with_threading(Threading::Serialized).ok_or_else(|| Error::Dist {
            rank: 0,
            op: "init".into(),
            reason: "MPI was already initialized in this process".into(),
        })?;
    raw::set_errors_return(raw::comm_world());
    let (rank, size) = raw::rank_size(raw::comm_world())?;
    let shared = Rc::new(Shared {
        settings,
        poisoned: RefCell::new(None),
        finalized: RefCell::new(false),
        cuda_support: raw::query_cuda_support(),
    });
    let u = Universe {
        mpi: Some(mpi),
        shared,
        rank,
        size,
    };
    if u.shared.settings.device == DeviceChoice::LocalRank {
        let world = u.world()?;
        let count = gpus()?.len();
        if count > 0 {
            select_device(world.local_rank() % count)?;
        }
    }
    Ok(u)
}

impl Universe {
    /// A communicator of every rank (a duplicate of `MPI_COMM_WORLD`).
    ///
    /// # Errors
    /// [`Error::Dist`] when MPI cannot duplicate the world communicator;
    /// [`Error::Unsupported`] when `RUMBA_DIST_CUDA_AWARE=1` on a backend other than CUDA.
    pub fn world(&self) -> Result<Communicator> {
        Communicator::from_parent(Rc::clone(&self.shared), raw::comm_world(), self.rank)
    }

    /// This process's rank in the world.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Number of ranks in the world.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The settings read at [`init`].
    pub fn settings(&self) -> &DistSettings {
        &self.shared.settings
    }

    /// Whether the MPI library says it takes CUDA device pointers, where it can say
    /// (`MPIX_Query_cuda_support`, OpenMPI); `None` where it cannot.
    pub fn mpi_cuda_support(&self) -> Option<bool> {
        self.shared.cuda_support
    }

    /// The backend the ranks' arrays live on (for reports).
    ///
    /// # Errors
    /// The runtime's, when no backend can be loaded.
    pub fn backend(&self) -> Result<crate::driver::BackendKind> {
        backend()
    }
}

impl Drop for Universe {
    fn drop(&mut self) {
        let poisoned = self.shared.poisoned.borrow().clone();
        if let Some(err) = poisoned {
            // The other ranks were sent the poison notice; a rank that calls its next operation
            // within one more timeout still takes it as a typed error before the job ends.
            if let Some(t) = self.shared.settings.timeout {
                std::thread::sleep(t);
            }
            eprintln!(
                "rumba::dist: rank {} aborts the MPI job: a communicator was poisoned ({err}); \
                 MPI cannot be finalized while its operations may never complete",
                self.rank
            );
            // SAFETY: MPI is initialized (this universe started it) and not finalized.
            unsafe {
                mpi::ffi::MPI_Abort(raw::comm_world(), 1);
            }
        }
        *self.shared.finalized.borrow_mut() = true;
        drop(self.mpi.take()); // MPI_Finalize
    }
}
