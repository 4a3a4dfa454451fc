//! A reset frees every device allocation, blocks still handed out included: a block a cache held
//! across the reset is refused by the memory manager (its memory is gone), and a limit does not
//! count a pre-reset block given back afterwards against the memory allocated since.
//! (Its own process: the context's memory manager is this test's.)

mod common;

use std::sync::{Arc, Mutex};

use rumba::driver::StreamHandle;
use rumba::memory::{
    DeviceBlock, DeviceResource, DriverResource, LimitingAdaptor, ManagerContext, MemoryManager,
    MemoryManagerFactory, set_memory_manager,
};

/// Caches one 32-byte block and hands it out again as it came back; other sizes pass through.
struct Cache32 {
    upstream: Arc<dyn DeviceResource>,
    cached: Mutex<Option<DeviceBlock>>,
}

impl DeviceResource for Cache32 {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> rumba::Result<DeviceBlock> {
        if bytes == 32 {
            if let Some(b) = self.cached.lock().unwrap().take() {
                return Ok(b);
            }
        }
        self.upstream.allocate(bytes, stream)
    }
    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> rumba::Result<()> {
        if block.len() == 32 {
            if let Some(old) = self.cached.lock().unwrap().replace(block) {
                return self.upstream.deallocate(old, stream);
            }
            return Ok(());
        }
        self.upstream.deallocate(block, stream)
    }
    fn upstream(&self) -> Option<&dyn DeviceResource> {
        Some(&*self.upstream)
    }
}

struct CacheFactory;

impl MemoryManagerFactory for CacheFactory {
    fn name(&self) -> &str {
        "cache32"
    }
    fn create(&self, ctx: &ManagerContext) -> rumba::Result<MemoryManager> {
        let driver = Arc::new(DriverResource::new(ctx.device, Arc::clone(&ctx.driver)));
        let limited = Arc::new(LimitingAdaptor::new(driver, ctx.device, Some(1 << 20)));
        let device = Arc::new(Cache32 {
            upstream: limited,
            cached: Mutex::new(None),
        });
        Ok(MemoryManager::new(
            "cache32",
            ctx,
            device,
            ctx.host_upstream(),
        ))
    }
}

#[test]
fn blocks_of_before_a_reset_are_refused_and_not_credited() {
    common::start(|_| {});
    set_memory_manager(Arc::new(CacheFactory)).unwrap();
    let ctx = rumba::current_context().unwrap();
    let used = || {
        ctx.memory_manager()
            .device_resource()
            .limiter()
            .unwrap()
            .used()
    };
    let a = ctx.memalloc(64).unwrap();
    drop(ctx.memalloc(32).unwrap()); // cached
    assert_eq!(used(), 96);
    ctx.reset().unwrap();
    assert_eq!(used(), 0);

    // The cache hands out the block it held across the reset: its memory was freed.
    let err = ctx.memalloc(32).unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::Resource(rumba::error::ResourceError::ResetBlock { .. })
        ),
        "{err}"
    );

    // A buffer of before the reset refuses safe copies (its memory may belong to another
    // allocation by now).
    let err = rumba::copy(&a, &[0; 64]).unwrap_err();
    assert!(
        matches!(err, rumba::Error::StaleHandle { len: 64, .. }),
        "{err}"
    );

    // A pre-reset block given back is not credited against memory allocated since.
    let b = ctx.memalloc(100).unwrap();
    assert_eq!(used(), 100);
    drop(a);
    assert_eq!(
        used(),
        100,
        "the pre-reset block was counted off by the reset"
    );
    drop(b);
    assert_eq!(used(), 0);
}
