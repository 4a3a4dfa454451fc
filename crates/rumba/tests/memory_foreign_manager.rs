//! A memory-manager factory that builds its manager for another driver instance than the
//! context's is refused when the context is created (its blocks' addresses would mean nothing to
//! the context's driver, and may alias its allocations). Its own process: the factory is global.

mod common;

use std::sync::Arc;

use rumba::memory::{
    DefaultManagerFactory, ManagerContext, MemoryManager, MemoryManagerFactory, set_memory_manager,
};

struct Foreign;

impl MemoryManagerFactory for Foreign {
    fn name(&self) -> &str {
        "foreign"
    }
    fn create(&self, ctx: &ManagerContext) -> rumba::Result<MemoryManager> {
        let (other, _) = rumba::driver::open(&ctx.config)?;
        let foreign = ManagerContext {
            driver: other,
            ..ctx.clone()
        };
        DefaultManagerFactory.create(&foreign)
    }
}

#[test]
fn a_manager_built_for_another_driver_is_refused() {
    common::start(|_| {});
    set_memory_manager(Arc::new(Foreign)).unwrap();
    let err = rumba::current_context().unwrap_err();
    assert!(
        matches!(
            err,
            rumba::Error::Resource(rumba::error::ResourceError::FactoryMismatch { .. })
        ),
        "{err}"
    );
}
