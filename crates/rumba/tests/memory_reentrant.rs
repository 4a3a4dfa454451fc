//! Issue 24 item 6: a program's `DeviceResource` under the pool may ask rumba for the memory
//! statistics and snapshot from its own `allocate` and `deallocate` (the pool no longer holds its
//! lock while it calls its upstream). Before, this deadlocked. (Its own process: the context's
//! memory manager is this test's.)

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rumba::driver::StreamHandle;
use rumba::memory::{
    DeviceBlock, DeviceResource, ManagerContext, MemoryManager, MemoryManagerFactory, PoolOptions,
    PoolResource, set_memory_manager,
};

/// Asks for the statistics and the snapshot on every call, then passes it on.
struct Curious {
    upstream: Arc<dyn DeviceResource>,
    asked: AtomicUsize,
}

impl Curious {
    fn ask(&self) {
        let stats = rumba::memory_stats().expect("the pool keeps statistics");
        let snap = rumba::memory_snapshot().expect("the pool has a snapshot");
        assert!(snap.segments.len() as u64 <= stats.device_allocations);
        self.asked.fetch_add(1, Ordering::SeqCst);
    }
}

impl DeviceResource for Curious {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> rumba::Result<DeviceBlock> {
        self.ask();
        self.upstream.allocate(bytes, stream)
    }
    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> rumba::Result<()> {
        self.ask();
        self.upstream.deallocate(block, stream)
    }
    fn upstream(&self) -> Option<&dyn DeviceResource> {
        Some(&*self.upstream)
    }
}

struct CuriousPool;

impl MemoryManagerFactory for CuriousPool {
    fn name(&self) -> &str {
        "curious-pool"
    }
    fn create(&self, ctx: &ManagerContext) -> rumba::Result<MemoryManager> {
        let curious = Arc::new(Curious {
            upstream: ctx.device_upstream(),
            asked: AtomicUsize::new(0),
        });
        let pool = PoolResource::with_options(ctx, curious, PoolOptions::default())?;
        Ok(MemoryManager::new(
            "curious-pool",
            ctx,
            Arc::new(pool),
            ctx.host_upstream(),
        ))
    }
}

#[test]
fn a_resource_under_the_pool_may_ask_for_statistics_and_snapshots() {
    common::start(|_| {});
    set_memory_manager(Arc::new(CuriousPool)).unwrap();
    common::within(60, "allocations through a curious upstream", || {
        let ctx = rumba::current_context().unwrap();
        // Segments come from the upstream (asking), and go back to it when emptied and reset.
        let a = ctx.memalloc(1 << 20).unwrap();
        let b = ctx.memalloc(8 << 20).unwrap();
        a.memset(1).unwrap();
        drop((a, b));
        ctx.empty_cache().unwrap();
        let c = ctx.memalloc(1 << 20).unwrap();
        ctx.reset().unwrap();
        drop(c);
        let stats = rumba::memory_stats().unwrap();
        assert!(
            stats.device_allocations >= 3 && stats.device_frees >= 3,
            "{stats:?}"
        );
    });
}
