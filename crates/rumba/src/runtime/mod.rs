//! The process-wide runtime: which driver is in use, the per-device contexts, and the calling
//! thread's current device — Numba's device-management functions.
//!
//! | file | what it holds |
//! | --- | --- |
//! | `mod.rs` | starting the runtime, [`configure`], [`current_context`], [`close`], the process-wide memory functions |
//! | [`context`] | [`Context`]: one device's memory manager, deferred releases and holds |
//! | `device.rs` | [`Device`], [`gpus`], [`select_device`], [`current_device`], [`DeviceGuard`] |
//! | `detect.rs` | [`detect`] and its [`DetectReport`] |
//!
//! The runtime starts on the first call that needs it, from [`configure`]'s configuration if one
//! was given, else from the environment ([`Config::from_env`]). A malformed variable makes every
//! call return the same [`Error::InvalidConfig`] rather than panicking. Each host thread has its
//! own current device (default 0); contexts are shared between threads (see [`crate::runtime::context`]).

pub mod context;
mod detect;
mod device;

pub use detect::{DetectReport, OpenClPlatform, detect};
pub use device::{Device, DeviceGuard, current_device, gpus, select_device};

use std::cell::{Cell, RefCell};
use std::sync::{Arc, Mutex, OnceLock};

use crate::config::Config;
use crate::driver::{self, Driver};
use crate::error::{Error, Result};
use crate::runtime::context::{Context, DeferCleanup};
use crate::sync::lock;

struct Slot {
    ctx: Option<Context>,
    attached: usize,
}

struct Runtime {
    driver: Arc<dyn Driver>,
    config: Config,
    fallback: Option<String>,
    slots: Mutex<Vec<Slot>>,
}

static RUNTIME: OnceLock<Result<Runtime>> = OnceLock::new();
static CONFIG: Mutex<Option<Config>> = Mutex::new(None);

thread_local! {
    static CURRENT_DEVICE: Cell<usize> = const { Cell::new(0) };
    static ATTACHED: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

fn runtime() -> Result<&'static Runtime> {
    RUNTIME
        .get_or_init(|| {
            let config = match lock(&CONFIG).take() {
                Some(c) => c,
                None => Config::from_env()?,
            };
            // Every setting is checked when the runtime starts, so a bad one is the same typed
            // error from every entry point (`gpus`, `detect`, the first array): the manager's
            // name too, which names a factory registered by then (or built in).
            crate::memory::factory_for(config.memory_manager.name())?;
            if let Some(path) = &config.memory_history {
                crate::memory::history::record_program(path)?;
            }
            let (driver, fallback) = driver::open(&config)?;
            let slots = (0..driver.device_count())
                .map(|_| Slot {
                    ctx: None,
                    attached: 0,
                })
                .collect();
            Ok(Runtime {
                driver,
                config,
                fallback,
                slots: Mutex::new(slots),
            })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Sets the configuration the runtime starts with, instead of reading the environment.
///
/// Must be called before the first call that starts the runtime; afterwards it is refused.
///
/// # Errors
/// [`Error::AlreadyStarted`] when the runtime has already started (any earlier rumba call that
/// touches a device starts it); the configuration is not changed then.
///
/// ```
/// // In a fresh process, before anything else:
/// let cfg = rumba::Config { sim_memory: Some(256 << 20), ..rumba::Config::from_env().unwrap() };
/// match rumba::configure(cfg) {
///     Ok(()) => {}
///     Err(e) => assert!(matches!(e, rumba::Error::AlreadyStarted)),
/// }
/// ```
pub fn configure(config: Config) -> Result<()> {
    if RUNTIME.get().is_some() {
        return Err(Error::AlreadyStarted);
    }
    *lock(&CONFIG) = Some(config);
    Ok(())
}

/// The configuration the runtime is running with.
///
/// # Errors
/// The errors of [starting the runtime](crate::current_context#errors).
///
/// ```
/// assert!(rumba::runtime_config().unwrap().max_pending_deallocs_count > 0);
/// ```
pub fn runtime_config() -> Result<Config> {
    Ok(runtime()?.config.clone())
}

/// The driver in use.
///
/// # Errors
/// The errors of [starting the runtime](crate::current_context#errors).
///
/// ```
/// assert!(rumba::backend_driver().unwrap().device_count() >= 1);
/// ```
pub fn backend_driver() -> Result<Arc<dyn Driver>> {
    Ok(Arc::clone(&runtime()?.driver))
}

/// Which backend the runtime runs on (what `RUMBA_BACKEND=auto` chose, or the one asked for):
/// code and examples that show a feature some backend lacks branch on it.
///
/// # Errors
/// The runtime could not start (a malformed `RUMBA_*` variable, a backend that was asked for
/// and is unavailable).
///
/// ```
/// use rumba::driver::BackendKind;
/// let b = rumba::backend().unwrap();
/// assert!(matches!(b, BackendKind::Sim | BackendKind::Cuda | BackendKind::OpenCl));
/// assert_eq!(b, rumba::backend_driver().unwrap().backend());
/// ```
pub fn backend() -> Result<crate::driver::BackendKind> {
    Ok(runtime()?.driver.backend())
}

/// The context of the current device, created on first use.
///
/// # Errors
/// Starting the runtime (the first call of a process that touches a device) reports, on this and
/// every later call: [`Error::InvalidConfig`] for a malformed setting (`RUMBA_*` variable or
/// [`Config`] field) or a memory manager name that no factory is registered under;
/// [`Error::BackendUnavailable`] when the chosen backend (`cuda`, `opencl`) cannot be used here,
/// with the reason. Creating the context reports the memory manager's errors (its set-up, and
/// [`Error::InterfaceVersion`] for a manager of another plugin-interface version).
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// assert_eq!(ctx.device_id(), rumba::current_device().unwrap().id());
/// ```
pub fn current_context() -> Result<Context> {
    context_for(CURRENT_DEVICE.with(Cell::get))
}

/// The context of device `id` (created if needed), whatever the thread's current device is.
pub(crate) fn context_for(id: usize) -> Result<Context> {
    let rt = runtime()?;
    let mut slots = lock(&rt.slots);
    let count = slots.len();
    let slot = slots
        .get_mut(id)
        .ok_or(Error::InvalidDevice { id, count })?;
    let ctx = match &slot.ctx {
        Some(c) => c.clone(),
        None => {
            let c = Context::create(id, Arc::clone(&rt.driver), rt.config.clone())?;
            slot.ctx = Some(c.clone());
            c
        }
    };
    let newly = ATTACHED.with(|a| {
        let mut a = a.borrow_mut();
        let fresh = !a.contains(&id);
        if fresh {
            a.push(id);
        }
        fresh
    });
    if newly {
        slot.attached += 1;
    }
    Ok(ctx)
}

/// Detaches the calling thread from every context it uses. A context that no thread uses any
/// more is reset (its device memory freed) and forgotten; the next call creates a new one.
///
/// With `RUMBA_MEMORY_HISTORY` set, also writes the [memory history](crate::memory::history)
/// recorded so far to its file.
///
/// # Errors
/// The first error of resetting a context that no thread uses any more (see
/// [`Context::reset`](crate::Context::reset)); every such context is still forgotten. Then
/// [`HistoryError::Io`](crate::error::HistoryError::Io) when the history cannot be written.
///
/// ```
/// let _ = rumba::current_context().unwrap();
/// rumba::close().unwrap();
/// let again = rumba::current_context().unwrap(); // created lazily again
/// assert_eq!(again.device_id(), 0);
/// ```
pub fn close() -> Result<()> {
    let rt = runtime()?;
    let devices = ATTACHED.with(|a| std::mem::take(&mut *a.borrow_mut()));
    let mut to_reset = Vec::new();
    {
        let mut slots = lock(&rt.slots);
        for id in devices {
            if let Some(slot) = slots.get_mut(id) {
                slot.attached = slot.attached.saturating_sub(1);
                if slot.attached == 0 {
                    to_reset.extend(slot.ctx.take());
                }
            }
        }
    }
    let mut result = Ok(());
    for ctx in to_reset {
        let r = ctx.reset();
        if result.is_ok() {
            result = r;
        }
    }
    if let Some(path) = &rt.config.memory_history {
        let dumped = crate::memory::history::dump(path);
        if result.is_ok() {
            result = dumped;
        }
    }
    result
}

/// Waits for all work on every stream of the current device.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); the first unreported error of
/// the device's work; [`Error::InCallback`] when called from a stream callback.
///
/// ```
/// let s = rumba::stream().unwrap();
/// s.memset(&s.memalloc(1 << 16).unwrap(), 1).unwrap();
/// rumba::synchronize().unwrap(); // waits for `s` too
/// assert!(s.query().unwrap());
/// ```
pub fn synchronize() -> Result<()> {
    current_context()?.synchronize()
}

/// `(free, total)` bytes of the current device's memory.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Driver`] when the
/// backend's query fails.
///
/// ```
/// let (free, total) = rumba::get_memory_info().unwrap();
/// assert!(free <= total);
/// ```
pub fn get_memory_info() -> Result<(usize, usize)> {
    current_context()?.get_memory_info()
}

/// Counters of the current context's memory manager (see [`Context::memory_stats`]).
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Resource`] from a
/// manager that keeps no counters (the `default` manager).
///
/// ```
/// match rumba::memory_stats() {
///     Ok(stats) => assert!(stats.peak_bytes >= stats.current_bytes),
///     // The `default` manager keeps no counters.
///     Err(e) => assert!(matches!(e, rumba::Error::Resource(rumba::error::ResourceError::Unsupported { .. })), "{e}"),
/// }
/// ```
pub fn memory_stats() -> Result<crate::memory::MemoryStats> {
    current_context()?.memory_stats()
}

/// Segments and blocks of the current context's memory manager (see [`Context::memory_snapshot`]).
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Resource`] from a
/// manager that caches nothing (the `default` manager).
///
/// ```
/// match rumba::memory_snapshot() {
///     Ok(snap) => println!("{snap}"), // a caching manager (the `pool`)
///     Err(e) => assert!(matches!(e, rumba::Error::Resource(rumba::error::ResourceError::Unsupported { .. })), "{e}"),
/// }
/// ```
pub fn memory_snapshot() -> Result<crate::memory::MemorySnapshot> {
    current_context()?.memory_snapshot()
}

/// Returns the current context's cached, unused device memory to the device.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors) and of
/// [`Context::empty_cache`](crate::Context::empty_cache).
///
/// ```
/// let d = rumba::device_array::<u8, _>(1 << 20, rumba::Order::C).unwrap();
/// drop(d); // released into the deferred queue (or the pool's cache)
/// rumba::empty_cache().unwrap();
/// assert_eq!(rumba::current_context().unwrap().deallocations().memory.count, 0);
/// ```
pub fn empty_cache() -> Result<()> {
    current_context()?.empty_cache()
}

/// Suspends releases in the current context while the guard lives (nestable, any thread). Leaving
/// the guard does not flush; flushing resumes at the next trigger. The guard is released on every
/// exit path, including errors and panics.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors).
///
/// ```
/// let ctx = rumba::current_context().unwrap();
/// {
///     let _guard = rumba::defer_cleanup().unwrap();
///     drop(ctx.memalloc(8).unwrap());
///     ctx.flush_deallocations().unwrap(); // no-op while deferred
///     assert!(ctx.deallocations().memory.count >= 1);
/// }
/// ctx.flush_deallocations().unwrap();
/// assert_eq!(ctx.deallocations().memory.count, 0);
/// ```
pub fn defer_cleanup() -> Result<DeferCleanup> {
    Ok(current_context()?.defer_cleanup())
}
