//! Resource properties: where each resource's memory can be used, passed on by adaptors, and
//! checked — a resource whose memory the device cannot use is refused as a pool's upstream
//! (`cargo run -p rumba --example resource_properties`).

use std::sync::Arc;

use rumba::driver::StreamHandle;
use rumba::error::Access;
use rumba::memory::{
    DeviceBlock, DeviceResource, LimitingAdaptor, PoolOptions, PoolResource, ResourceProperties,
};

/// A resource that says its memory is for the host only.
struct Staging(Arc<dyn DeviceResource>);

impl DeviceResource for Staging {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> rumba::Result<DeviceBlock> {
        self.0.allocate(bytes, stream)
    }
    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> rumba::Result<()> {
        self.0.deallocate(block, stream)
    }
    fn properties(&self) -> ResourceProperties {
        ResourceProperties::HOST
    }
}

fn main() -> rumba::Result<()> {
    let ctx = rumba::current_context()?;
    let mc = ctx.manager_context();
    let device = mc.device_upstream();
    assert_eq!(device.properties(), ResourceProperties::DEVICE);
    assert_eq!(
        ctx.memory_manager().host_resource().properties(),
        ResourceProperties::HOST
    );
    let staging = Arc::new(Staging(device));
    let limited = Arc::new(LimitingAdaptor::new(staging, mc.device, None));
    assert!(!limited.properties().allows(Access::Device)); // adaptors pass it on
    match PoolResource::with_options(&mc, limited, PoolOptions::default()) {
        Err(
            e @ rumba::Error::Inaccessible {
                needs: Access::Device,
                ..
            },
        ) => println!("refused: {e}"),
        other => panic!(
            "a host-only upstream must be refused, got {:?}",
            other.map(|_| ())
        ),
    }
    Ok(())
}
