//! docs/design/behaviour.md §7: the memory-manager plugin interface — a recording manager sees
//! `initialize` before its first allocation, every allocation with its size, and `reset`; version
//! mismatches are refused.

mod common;

use std::sync::{Arc, Mutex};

use rumba::driver::StreamHandle;
use rumba::memory::{
    DefaultManagerFactory, DeviceBlock, DeviceResource, ManagerContext, MemoryManager,
    MemoryManagerFactory, set_memory_manager,
};

type Log = Arc<Mutex<Vec<String>>>;

/// A plugin that records what it sees: a plain (safe) `impl` of two methods and `upstream`.
struct Recording {
    upstream: Arc<dyn DeviceResource>,
    log: Log,
}

impl Recording {
    fn note(&self, s: String) {
        self.log.lock().unwrap().push(s);
    }
}

impl DeviceResource for Recording {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> rumba::Result<DeviceBlock> {
        self.note(format!("memalloc {bytes}"));
        self.upstream.allocate(bytes, stream)
    }
    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> rumba::Result<()> {
        self.note(format!("memfree {}", block.len()));
        self.upstream.deallocate(block, stream)
    }
    fn upstream(&self) -> Option<&dyn DeviceResource> {
        Some(&*self.upstream)
    }
    fn reset(&self, token: &rumba::memory::ResetToken) -> rumba::Result<()> {
        self.note("reset".into());
        self.upstream.reset(token)
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
    fn create(&self, ctx: &ManagerContext) -> rumba::Result<MemoryManager> {
        self.log.lock().unwrap().push("initialize".into());
        let inner = DefaultManagerFactory.create(ctx)?;
        let device = Arc::new(Recording {
            upstream: Arc::clone(inner.device_resource()),
            log: Arc::clone(&self.log),
        });
        Ok(MemoryManager::new(
            "recording",
            ctx,
            device,
            Arc::clone(inner.host_resource()),
        ))
    }
}

#[test]
fn a_recording_manager_sees_initialize_allocations_and_reset() {
    let log: Log = Arc::default();
    common::start(|_| {});
    let wrong = set_memory_manager(Arc::new(RecordingFactory {
        log: Arc::clone(&log),
        version: 1,
    }))
    .unwrap_err();
    assert_eq!(
        wrong.to_string(),
        "memory manager 'recording' implements interface version 1, but this rumba requires version 2"
    );
    set_memory_manager(Arc::new(RecordingFactory {
        log: Arc::clone(&log),
        version: 2,
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
