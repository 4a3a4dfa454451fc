//! The process-wide runtime: which driver is in use, the per-device contexts, and the calling
//! thread's current device — the functions of SPEC §1.
//!
//! The runtime starts on the first call that needs it, from [`configure`]'s configuration if one
//! was given, else from the environment ([`Config::from_env`]). A malformed variable makes every
//! call return the same [`Error::InvalidConfig`] rather than panicking. Each host thread has its
//! own current device (default 0); contexts are shared between threads (see [`crate::context`]).
//!
//! This module touches the driver layer and the contexts it creates.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use crate::config::{Config, human_bytes};
use crate::context::{Context, DeferCleanup};
use crate::driver::{self, BackendKind, DeviceInfo, Driver, PageLocking};
use crate::error::{Error, Result};

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
            let config = match CONFIG.lock().unwrap_or_else(|e| e.into_inner()).take() {
                Some(c) => c,
                None => Config::from_env()?,
            };
            // Every setting is checked when the runtime starts, so a bad one is the same typed
            // error from every entry point (`gpus`, `detect`, the first array): the manager's
            // name too, which names a factory registered by then (or built in).
            crate::memory::factory_for(config.memory_manager.name())?;
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
/// [`Error::InvalidOperation`] when the runtime has already started (any earlier rumba call that
/// touches a device starts it); the configuration is not changed then.
///
/// ```
/// // In a fresh process, before anything else:
/// let cfg = rumba::Config { sim_memory: Some(256 << 20), ..rumba::Config::from_env().unwrap() };
/// match rumba::configure(cfg) {
///     Ok(()) => {}
///     Err(e) => assert!(e.to_string().contains("already started")),
/// }
/// ```
pub fn configure(config: Config) -> Result<()> {
    if RUNTIME.get().is_some() {
        return Err(Error::InvalidOperation(
            "the runtime has already started; call configure before any other rumba call".into(),
        ));
    }
    *CONFIG.lock().unwrap_or_else(|e| e.into_inner()) = Some(config);
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

/// A device of the running backend.
///
/// ```
/// let dev = rumba::current_device().unwrap();
/// assert_eq!(dev.id(), 0);
/// assert!(dev.info().unwrap().total_memory > 0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Device {
    id: usize,
}

impl Device {
    /// The device ordinal.
    ///
    /// ```
    /// assert_eq!(rumba::gpus().unwrap()[0].id(), 0);
    /// ```
    pub fn id(&self) -> usize {
        self.id
    }

    /// Static facts: name, memory, compute capability, multiprocessors, warp size (the width
    /// of the warps kernels see, which their warp operations and `t.warp_size()` use: 32 on
    /// every backend — on OpenCL the warps are emulated over consecutive work-items, whatever the
    /// hardware's SIMD width, which `rumba detect` lists).
    ///
    /// # Errors
    /// The errors of [starting the runtime](crate::current_context#errors); [`Error::Driver`] when the
    /// backend cannot be queried about this device.
    ///
    /// ```
    /// let info = rumba::current_device().unwrap().info().unwrap();
    /// assert_eq!(info.warp_size, 32);
    /// ```
    pub fn info(&self) -> Result<DeviceInfo> {
        runtime()?.driver.device_info(self.id)
    }

    /// The device's context, created if needed (the calling thread attaches to it).
    ///
    /// # Errors
    /// As [`current_context`](crate::current_context), for this device.
    ///
    /// ```
    /// let ctx = rumba::current_device().unwrap().context().unwrap();
    /// assert_eq!(ctx.device_id(), 0);
    /// ```
    pub fn context(&self) -> Result<Context> {
        context_for(self.id)
    }

    /// Makes this device current for the calling thread until the returned guard is dropped,
    /// which restores the device that was current before — also when the scope is left by an
    /// error or a panic (Numba's `with cuda.gpus[1]:`). The device's context is created if
    /// needed. Guards nest; each restores what it replaced. The guard belongs to the thread that
    /// made it (it is not `Send`).
    ///
    /// # Errors
    /// The runtime failed to start, or the device's context could not be created (the current
    /// device is then unchanged).
    ///
    /// ```
    /// let outer = rumba::current_device().unwrap();
    /// {
    ///     let _on = rumba::gpus().unwrap()[0].activate().unwrap();
    ///     assert_eq!(rumba::current_device().unwrap().id(), 0);
    /// }
    /// assert_eq!(rumba::current_device().unwrap(), outer);
    /// ```
    pub fn activate(&self) -> Result<DeviceGuard> {
        let previous = current_device()?.id;
        select_device(self.id)?;
        Ok(DeviceGuard {
            previous,
            _thread: std::marker::PhantomData,
        })
    }

    /// Whether this device can access `peer`'s memory directly (Numba's
    /// `ctx.can_access_peer(peer)`, CUDA's `cuDeviceCanAccessPeer`). A device is not its own
    /// peer. Copies between devices do not need it ([`DeviceArray::copy_from_device`] with a
    /// source on another device is a peer copy either way).
    ///
    /// [`DeviceArray::copy_from_device`]: crate::DeviceArray::copy_from_device
    ///
    /// # Errors
    /// A backend that cannot tell ([`Error::Unsupported`]).
    ///
    /// ```
    /// let gpus = rumba::gpus().unwrap();
    /// assert!(!gpus[0].can_access_peer(&gpus[0]).unwrap());
    /// ```
    pub fn can_access_peer(&self, peer: &Device) -> Result<bool> {
        runtime()?.driver.device_can_access_peer(self.id, peer.id)
    }
}

/// Restores the previously current device when dropped (see [`Device::activate`]).
///
/// ```
/// let guard = rumba::current_device().unwrap().activate().unwrap();
/// assert_eq!(guard.previous().id(), 0);
/// ```
#[must_use = "the device stays current only while the guard lives"]
pub struct DeviceGuard {
    previous: usize,
    /// Not `Send`: the current device is per thread, so the guard must drop where it was made.
    _thread: std::marker::PhantomData<*const ()>,
}

impl DeviceGuard {
    /// The device that becomes current again when the guard drops.
    ///
    /// ```
    /// let g = rumba::gpus().unwrap()[0].activate().unwrap();
    /// assert_eq!(g.previous(), rumba::current_device().unwrap());
    /// ```
    pub fn previous(&self) -> Device {
        Device { id: self.previous }
    }
}

impl Drop for DeviceGuard {
    fn drop(&mut self) {
        // The previous device was a valid id; restoring is only the thread's choice (contexts
        // are created lazily), which cannot fail.
        CURRENT_DEVICE.with(|c| c.set(self.previous));
    }
}

impl std::fmt::Debug for DeviceGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceGuard(restores device {})", self.previous)
    }
}

/// Every device of the running backend.
///
/// # Errors
/// The errors of [starting the runtime](crate::current_context#errors).
///
/// ```
/// assert!(!rumba::gpus().unwrap().is_empty());
/// ```
pub fn gpus() -> Result<Vec<Device>> {
    Ok((0..runtime()?.driver.device_count())
        .map(|id| Device { id })
        .collect())
}

/// Makes device `id` current for the calling thread and creates its context.
///
/// # Errors
/// [`Error::InvalidDevice`] naming `id` and the device count; the errors of
/// [creating a context](crate::current_context#errors).
///
/// ```
/// assert_eq!(rumba::select_device(0).unwrap().id(), 0);
/// assert!(matches!(rumba::select_device(99), Err(rumba::Error::InvalidDevice { id: 99, .. })));
/// ```
pub fn select_device(id: usize) -> Result<Device> {
    let count = runtime()?.driver.device_count();
    if id >= count {
        return Err(Error::InvalidDevice { id, count });
    }
    CURRENT_DEVICE.with(|c| c.set(id));
    context_for(id)?;
    Ok(Device { id })
}

/// The calling thread's current device (device 0 unless [`select_device`] chose another).
///
/// # Errors
/// The errors of [starting the runtime](crate::current_context#errors).
///
/// ```
/// let dev = rumba::current_device().unwrap();
/// assert_eq!(dev.id(), 0); // no select_device on this thread yet
/// assert_eq!(rumba::current_context().unwrap().device_id(), dev.id());
/// ```
pub fn current_device() -> Result<Device> {
    runtime()?;
    Ok(Device {
        id: CURRENT_DEVICE.with(Cell::get),
    })
}

/// The context of the current device, created on first use.
///
/// # Errors
/// Starting the runtime (the first call of a process that touches a device) reports, on this and
/// every later call: [`Error::InvalidConfig`] for a malformed setting (`RUMBA_*` variable or
/// [`Config`](crate::Config) field) or a memory manager name that no factory is registered under;
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
    let mut slots = rt.slots.lock().unwrap_or_else(|e| e.into_inner());
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
/// # Errors
/// The first error of resetting a context that no thread uses any more (see
/// [`Context::reset`](crate::Context::reset)); every such context is still forgotten.
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
        let mut slots = rt.slots.lock().unwrap_or_else(|e| e.into_inner());
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
    result
}

/// Waits for all work on every stream of the current device.
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); the first unreported error of
/// the device's work; [`Error::InvalidOperation`] when called from a stream callback.
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
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Unsupported`] from a
/// manager that keeps no counters (the `default` manager).
///
/// ```
/// match rumba::memory_stats() {
///     Ok(stats) => assert!(stats.peak_bytes >= stats.current_bytes),
///     // The `default` manager keeps no counters.
///     Err(e) => assert!(matches!(e, rumba::Error::Unsupported(_)), "{e}"),
/// }
/// ```
pub fn memory_stats() -> Result<crate::memory::MemoryStats> {
    current_context()?.memory_stats()
}

/// Segments and blocks of the current context's memory manager (see [`Context::memory_snapshot`]).
///
/// # Errors
/// The errors of [`current_context`](crate::current_context#errors); [`Error::Unsupported`] from a
/// manager that caches nothing (the `default` manager).
///
/// ```
/// match rumba::memory_snapshot() {
///     Ok(snap) => println!("{snap}"), // a caching manager (the `pool`)
///     Err(e) => assert!(matches!(e, rumba::Error::Unsupported(_)), "{e}"),
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

/// A printable summary of the backend and its devices.
///
/// ```
/// let report = rumba::detect().unwrap();
/// assert!(report.to_string().contains(&report.backend.to_string()));
/// ```
#[derive(Debug, Clone)]
pub struct DetectReport {
    /// The backend in use.
    pub backend: BackendKind,
    /// Why CUDA was not chosen, when `auto` fell back to the sim.
    pub fallback_reason: Option<String>,
    /// Each device with its `(free, total)` memory.
    pub devices: Vec<(DeviceInfo, (usize, usize))>,
    /// Every OpenCL platform and device of the machine with its capabilities, or why there is
    /// none (listed whatever backend runs; `None` in a build without the `opencl` feature).
    pub opencl: Option<std::result::Result<Vec<OpenClPlatform>, String>>,
}

/// One OpenCL platform as `detect` lists it.
#[cfg(feature = "opencl")]
pub type OpenClPlatform = crate::driver::opencl::PlatformSurvey;
/// One OpenCL platform as `detect` lists it (a build without the `opencl` feature has none).
#[cfg(not(feature = "opencl"))]
pub type OpenClPlatform = String;

#[cfg(feature = "opencl")]
fn opencl_survey() -> Option<std::result::Result<Vec<OpenClPlatform>, String>> {
    Some(crate::driver::opencl::survey())
}

#[cfg(not(feature = "opencl"))]
fn opencl_survey() -> Option<std::result::Result<Vec<OpenClPlatform>, String>> {
    None
}

/// Describes the backend and every device.
///
/// # Errors
/// The errors of [starting the runtime](crate::current_context#errors); [`Error::Driver`] when a
/// device cannot be queried.
///
/// ```
/// let r = rumba::detect().unwrap();
/// assert!(!r.devices.is_empty());
/// ```
pub fn detect() -> Result<DetectReport> {
    let rt = runtime()?;
    let devices = (0..rt.driver.device_count())
        .map(|d| Ok((rt.driver.device_info(d)?, rt.driver.mem_info(d)?)))
        .collect::<Result<Vec<_>>>()?;
    Ok(DetectReport {
        backend: rt.driver.backend(),
        fallback_reason: rt.fallback.clone(),
        devices,
        opencl: opencl_survey(),
    })
}

impl fmt::Display for DetectReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Found {} device(s) on backend {}",
            self.devices.len(),
            self.backend
        )?;
        if let Some(why) = &self.fallback_reason {
            writeln!(f, "CUDA not used: {why}")?;
        }
        for (info, (free, total)) in &self.devices {
            writeln!(f, "id {}  {}", info.ordinal, info.name)?;
            writeln!(
                f,
                "      memory: {} total, {} free",
                human_bytes(*total),
                human_bytes(*free)
            )?;
            match (info.compute_capability, self.backend) {
                (Some((a, b)), _) => writeln!(f, "      compute capability: {a}.{b}")?,
                (None, BackendKind::OpenCl) => {
                    writeln!(f, "      compute capability: none (OpenCL)")?
                }
                (None, _) => writeln!(f, "      compute capability: sim")?,
            }
            writeln!(
                f,
                "      multiprocessors: {}, warp size: {}, max threads per block: {}, shared memory per block: {}",
                info.multiprocessors,
                info.warp_size,
                info.max_threads_per_block,
                human_bytes(info.max_shared_memory_per_block)
            )?;
            match &info.page_locking {
                PageLocking::Available => writeln!(f, "      pinned host memory: page-locked")?,
                PageLocking::Refused(why) => writeln!(
                    f,
                    "      pinned host memory: NOT page-locked ({why}); pinned copies stay asynchronous"
                )?,
            }
        }
        match &self.opencl {
            None => writeln!(f, "OpenCL: not built in (cargo feature `opencl`)")?,
            Some(Err(why)) => writeln!(f, "OpenCL: unavailable: {why}")?,
            Some(Ok(platforms)) => {
                writeln!(
                    f,
                    "OpenCL: {} platform(s) (RUMBA_BACKEND=opencl uses them)",
                    platforms.len()
                )?;
                for p in platforms {
                    write!(f, "{p}")?;
                }
            }
        }
        write!(
            f,
            "Summary: {}/{} devices usable",
            self.devices.len(),
            self.devices.len()
        )
    }
}
