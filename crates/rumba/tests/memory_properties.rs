//! Resource properties: every resource says whether its memory is device- and/or
//! host-accessible, adaptors pass their upstream's on, and a resource whose memory the device
//! cannot use is refused as a pool's upstream and as a source of device memory — with a typed
//! error, before anything is allocated.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rumba::Error;
use rumba::driver::StreamHandle;
use rumba::error::Access;
use rumba::memory::{
    DeviceBlock, DeviceResource, FailureCallbackAdaptor, LimitingAdaptor, MemoryManager, OnFailure,
    PoolOptions, PoolResource, ResourceProperties, StatisticsAdaptor, with_resource,
};

/// A resource that declares its memory host-only (say, a staging area), and counts the
/// allocations it is asked for.
struct HostOnly {
    upstream: Arc<dyn DeviceResource>,
    asked: AtomicUsize,
}

impl DeviceResource for HostOnly {
    fn allocate(&self, bytes: usize, stream: StreamHandle) -> rumba::Result<DeviceBlock> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        self.upstream.allocate(bytes, stream)
    }
    fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> rumba::Result<()> {
        self.upstream.deallocate(block, stream)
    }
    fn upstream(&self) -> Option<&dyn DeviceResource> {
        Some(&*self.upstream)
    }
    fn properties(&self) -> ResourceProperties {
        ResourceProperties::HOST
    }
}

fn host_only() -> Arc<HostOnly> {
    common::start(|_| {});
    let mc = rumba::current_context().unwrap().manager_context();
    Arc::new(HostOnly {
        upstream: mc.device_upstream(),
        asked: AtomicUsize::new(0),
    })
}

#[test]
fn built_in_resources_say_where_their_memory_is_and_adaptors_pass_it_on() {
    common::start(|_| {});
    let ctx = rumba::current_context().unwrap();
    let mc = ctx.manager_context();
    let mm = ctx.memory_manager();
    assert_eq!(
        mm.device_resource().properties(),
        ResourceProperties::DEVICE
    );
    assert_eq!(mm.host_resource().properties(), ResourceProperties::HOST);
    let pool = Arc::new(PoolResource::new(&mc).unwrap());
    assert_eq!(pool.properties(), ResourceProperties::DEVICE);
    let h = host_only();
    let wrapped = StatisticsAdaptor::new(Arc::new(LimitingAdaptor::new(h.clone(), 0, None)));
    assert_eq!(wrapped.properties(), ResourceProperties::HOST);
    let cb = FailureCallbackAdaptor::new(h, 1, |_| OnFailure::Fail);
    assert!(!cb.properties().allows(Access::Device));
}

#[test]
fn a_host_only_resource_cannot_be_the_upstream_of_a_pool() {
    let h = host_only();
    let mc = rumba::current_context().unwrap().manager_context();
    let err = PoolResource::with_options(&mc, h.clone(), PoolOptions::default())
        .err()
        .unwrap();
    assert_eq!(
        err,
        Error::Inaccessible {
            resource: "HostOnly".into(),
            role: "the upstream of PoolResource".into(),
            needs: Access::Device,
        }
    );
    assert_eq!(
        err.to_string(),
        "HostOnly cannot be the upstream of PoolResource: its memory is not device-accessible"
    );
    // Through an adaptor too: the adaptor's memory is its upstream's.
    let over = Arc::new(LimitingAdaptor::new(h.clone(), 0, None));
    assert!(matches!(
        PoolResource::with_options(&mc, over, PoolOptions::default()),
        Err(Error::Inaccessible {
            needs: Access::Device,
            ..
        })
    ));
    assert_eq!(h.asked.load(Ordering::SeqCst), 0);
}

#[test]
fn managers_and_scopes_refuse_a_host_only_source_of_device_memory() {
    let h = host_only();
    let ctx = rumba::current_context().unwrap();
    let mc = ctx.manager_context();
    let mm = MemoryManager::new("staging", &mc, h.clone(), mc.host_upstream());
    assert!(matches!(
        mm.memalloc(64),
        Err(Error::Inaccessible {
            needs: Access::Device,
            ..
        })
    ));
    let routed = with_resource(&h, || rumba::device_array::<f32, _>(16, rumba::Order::C));
    assert!(matches!(routed, Err(Error::Inaccessible { .. })));
    assert_eq!(
        h.asked.load(Ordering::SeqCst),
        0,
        "refused before allocating"
    );
}
