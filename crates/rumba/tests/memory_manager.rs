//! SPEC §7: the memory-manager plugin interface — a recording manager sees `initialize` before
//! its first allocation, every allocation with its size, and `reset`; version mismatches are
//! refused.

mod common;

use std::sync::{Arc, Mutex};

use rumba::driver::{DevicePtr, HostAllocFlags};
use rumba::memory::{
    DefaultMemoryManager, ManagerContext, MemoryManager, MemoryManagerFactory, PendingStats,
    set_memory_manager,
};

type Log = Arc<Mutex<Vec<String>>>;

struct Recording {
    inner: DefaultMemoryManager,
    log: Log,
}

impl Recording {
    fn note(&self, s: String) {
        self.log.lock().unwrap().push(s);
    }
}

// SAFETY: host memory is the inner default manager's (forwarded unchanged).
unsafe impl MemoryManager for Recording {
    fn name(&self) -> &str {
        "recording"
    }
    fn initialize(&self) -> rumba::Result<()> {
        self.note("initialize".into());
        self.inner.initialize()
    }
    fn memalloc(&self, bytes: usize) -> rumba::Result<DevicePtr> {
        self.note(format!("memalloc {bytes}"));
        self.inner.memalloc(bytes)
    }
    fn memfree(&self, ptr: DevicePtr, bytes: usize) {
        self.note(format!("memfree {bytes}"));
        self.inner.memfree(ptr, bytes)
    }
    fn memhostalloc(&self, bytes: usize, flags: HostAllocFlags) -> rumba::Result<*mut u8> {
        self.inner.memhostalloc(bytes, flags)
    }
    unsafe fn memhostfree(&self, ptr: *mut u8, bytes: usize) {
        // SAFETY: forwarded.
        unsafe { self.inner.memhostfree(ptr, bytes) }
    }
    unsafe fn mempin(
        &self,
        ptr: *mut u8,
        bytes: usize,
        flags: HostAllocFlags,
    ) -> rumba::Result<()> {
        // SAFETY: forwarded.
        unsafe { self.inner.mempin(ptr, bytes, flags) }
    }
    unsafe fn memunpin(&self, ptr: *mut u8) -> rumba::Result<()> {
        // SAFETY: forwarded.
        unsafe { self.inner.memunpin(ptr) }
    }
    fn get_memory_info(&self) -> rumba::Result<(usize, usize)> {
        self.inner.get_memory_info()
    }
    fn reset(&self) -> rumba::Result<()> {
        self.note("reset".into());
        self.inner.reset()
    }
    fn defer_cleanup_enter(&self) {
        self.inner.defer_cleanup_enter()
    }
    fn defer_cleanup_exit(&self) {
        self.inner.defer_cleanup_exit()
    }
    fn flush(&self) -> rumba::Result<()> {
        self.inner.flush()
    }
    fn pending(&self) -> PendingStats {
        self.inner.pending()
    }
}

struct RecordingFactory {
    log: Log,
    version: u32,
}

impl MemoryManagerFactory for RecordingFactory {
    fn name(&self) -> &str {
        "recording"
    }
    fn interface_version(&self) -> u32 {
        self.version
    }
    fn create(&self, ctx: &ManagerContext) -> rumba::Result<Arc<dyn MemoryManager>> {
        Ok(Arc::new(Recording {
            inner: DefaultMemoryManager::new(ctx)?,
            log: Arc::clone(&self.log),
        }))
    }
}

#[test]
fn a_recording_manager_sees_initialize_allocations_and_reset() {
    let log: Log = Arc::default();
    common::start(|_| {});
    let wrong = set_memory_manager(Arc::new(RecordingFactory {
        log: Arc::clone(&log),
        version: 2,
    }))
    .unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "memory manager 'recording' implements interface version 2, but this rumba requires version 1"
    );
    set_memory_manager(Arc::new(RecordingFactory {
        log: Arc::clone(&log),
        version: 1,
    }))
    .unwrap();

    let ctx = rumba::current_context().unwrap();
    assert_eq!(ctx.memory_manager().name(), "recording");
    let bufs: Vec<_> = [100, 2000, 30_000]
        .iter()
        .map(|&n| ctx.memalloc(n).unwrap())
        .collect();
    let _empty = ctx.memalloc(0).unwrap(); // zero bytes: no allocation at all
    {
        let l = log.lock().unwrap();
        assert_eq!(
            l[0], "initialize",
            "initialize comes before the first allocation"
        );
        let allocs: Vec<&String> = l.iter().filter(|s| s.starts_with("memalloc")).collect();
        assert_eq!(allocs, ["memalloc 100", "memalloc 2000", "memalloc 30000"]);
    }
    drop(bufs);
    assert_eq!(
        log.lock()
            .unwrap()
            .iter()
            .filter(|s| s.starts_with("memfree"))
            .count(),
        3
    );
    ctx.reset().unwrap();
    assert_eq!(log.lock().unwrap().last().unwrap(), "reset");
}
