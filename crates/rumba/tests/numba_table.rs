//! README's "From Numba" table: every row's rumba side runs here, so the table names working API.
//! Rows are grouped as in the table; each assertion checks what the row claims.

mod common;

use std::sync::Arc;

use ndarray::{Array1, Array2, array};
use rumba::config::{BackendChoice, ManagerChoice};
use rumba::interop::{Side, SmartArray};
use rumba::kernel::prelude::*;
use rumba::kernel::{In, Out};
use rumba::prelude::*;

fn setup() {
    common::start(|_| {});
}

#[test]
fn device_arrays_and_transfers() {
    setup();
    let a = array![[1i32, 2, 3], [4, 5, 6]];
    let s = stream().unwrap();
    // cuda.to_device(a) / (a, stream=s) / (a, to=d) / (a, copy=False)
    let d = to_device(&a).unwrap();
    let d_on = to_device_on(&a, &s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(d_on.copy_to_host().unwrap(), a);
    let to = device_array::<i32, _>((2, 3), Order::C).unwrap();
    rumba::copy(&to, &a).unwrap();
    assert_eq!(to.copy_to_host().unwrap(), a);
    let alloc = rumba::to_device_alloc(&a).unwrap();
    assert_eq!(alloc.shape(), &[2, 3]);
    // device_array(.., strides=), device_array_like
    let strided = rumba::device_array_with_strides::<i32, _>((2, 3), &[4, 8]).unwrap();
    assert!(strided.is_f_contiguous());
    assert!(device_array_like(&strided).unwrap().is_f_contiguous());
    // copy_to_host(), (ary), (stream=s); copy_to_device(a, stream=s); device to device
    let mut back = Array2::<i32>::zeros((2, 3));
    rumba::copy(&mut back, &d).unwrap();
    assert_eq!(back, a);
    let mut back = Array2::<i32>::zeros((2, 3));
    s.copy(&mut back, &d).unwrap();
    assert_eq!(back, a);
    s.copy(&to, &(&a * 2)).unwrap();
    s.synchronize().unwrap();
    rumba::copy(&alloc, &to).unwrap();
    assert_eq!(alloc.copy_to_host().unwrap(), &a * 2);
    // d[1:, ::2] and d[1:, ::2] = x
    assert_eq!(
        d.slice(s![1.., ..;2]).unwrap().copy_to_host().unwrap(),
        array![[4, 6]]
    );
    d.slice(s![1.., ..;2]).unwrap().assign(0).unwrap();
    assert_eq!(d.copy_to_host().unwrap(), array![[1, 2, 3], [0, 5, 0]]);
    // reshape, ravel, view, T, transpose, split, squeeze, bind
    assert_eq!(d.reshape_dyn(&[3, -1], Order::C).unwrap().shape(), &[3, 2]);
    assert_eq!(d.ravel(Order::C).unwrap().len(), 6);
    assert_eq!(d.view::<u32>().unwrap().shape(), &[2, 3]);
    assert_eq!(d.t().shape(), &[3, 2]);
    assert_eq!(d.transpose(&[1, 0]).unwrap().shape(), &[3, 2]);
    assert!(d.transpose_copy(None).unwrap().is_c_contiguous());
    assert_eq!(
        d.ravel(Order::C).unwrap().split(4).unwrap().len(),
        2 // ceil(6 / 4) parts
    );
    let one = device_array::<u8, _>((1, 4), Order::C).unwrap();
    assert_eq!(one.squeeze(None).unwrap().shape(), &[4]);
    assert_eq!(d.bind(&s).stream().unwrap().handle(), s.handle());
}

#[test]
fn host_memory() {
    setup();
    let d = to_device(&[1u32, 2, 3, 4]).unwrap();
    // pinned_array / pinned_array_like
    let p = pinned_array::<u32, _>(4, Order::C).unwrap();
    let p = default_stream()
        .unwrap()
        .download(&d, p)
        .unwrap()
        .wait()
        .unwrap();
    assert_eq!(p.view().to_vec(), [1, 2, 3, 4]);
    assert_eq!(pinned_array_like(&d).unwrap().shape(), &[4]);
    // with cuda.pinned(a, b):
    let (mut a, mut b) = (vec![0u8; 64], vec![0u8; 64]);
    let g = pinned([&mut a, &mut b]).unwrap();
    g.release().unwrap();
    // mapped_array(.., portable=True) / mapped_array_like
    let mut m = mapped_array::<u32, _>(4, Order::C, MappedOptions::new().portable(true)).unwrap();
    assert!(m.is_portable());
    rumba::copy(&mut m.device_mut(), &d).unwrap();
    assert_eq!(m.view().to_vec(), [1, 2, 3, 4]);
    let like = rumba::mapped_array_like(&d, MappedOptions::new()).unwrap();
    assert_eq!(like.shape(), &[4]);
    // managed_array
    let managed = managed_array::<f64, _>((2, 2), Order::C).unwrap();
    assert_eq!(managed.view().sum(), 0.0);
    // roc.register / deregister; coarse- and fine-grained arrays
    let mut v = vec![0u32; 16];
    rumba::deregister(rumba::register([&mut v]).unwrap()).unwrap();
    let c = rumba::coarsegrain_array::<u8, _>(8, Order::C).unwrap();
    let f = rumba::finegrain_array::<u8, _>(8, Order::C).unwrap();
    assert_eq!((c.shape(), f.shape()), (&[8][..], &[8][..]));
    // with cuda.mapped(a) as m:
    if common::not_on(
        &[BackendChoice::OpenCl],
        "host_memory (mapped guard)",
        "mapping existing memory needs fine-grained system SVM",
    ) {
        return;
    }
    let mut host = vec![0u32; 4];
    {
        let mut g = mapped([&mut host]).unwrap();
        rumba::copy(&mut g.device_mut(0).unwrap(), &d).unwrap();
    }
    assert_eq!(host, [1, 2, 3, 4]);
}

#[test]
fn streams_events_and_devices() {
    setup();
    let s = stream().unwrap();
    // default, legacy default, per-thread default, external streams
    assert_eq!(rumba::legacy_default_stream().unwrap().handle().0, 1);
    assert_eq!(rumba::per_thread_default_stream().unwrap().handle().0, 2);
    default_stream().unwrap().synchronize().unwrap();
    let ctx = current_context().unwrap();
    let raw = ctx.driver().stream_create(0, false).unwrap();
    // SAFETY: `raw` is a live stream of device 0, destroyed only after `ext` is gone.
    let ext = unsafe { rumba::external_stream(raw) }.unwrap();
    ext.synchronize().unwrap();
    drop(ext);
    ctx.driver().stream_destroy(0, raw).unwrap();
    // with s.auto_synchronize():
    let d = to_device(&[5u8, 6, 7]).unwrap();
    let mut a = Array1::<u8>::zeros(3);
    s.auto_synchronize(|scope| scope.copy(&mut a, &d)).unwrap();
    assert_eq!(a.to_vec(), [5, 6, 7]);
    // add_callback, async_done
    let (tx, rx) = std::sync::mpsc::channel();
    s.add_callback(move |_, status| tx.send(status.is_ok()).unwrap())
        .unwrap();
    assert!(rx.recv().unwrap());
    let done = common::block_on(s.async_done().unwrap()).unwrap();
    assert_eq!(done.handle(), s.handle());
    // event(timing=True), record, wait, elapsed_time, event_elapsed_time
    let (start, end) = (
        event(EventOptions::new()).unwrap(),
        event(EventOptions::new()).unwrap(),
    );
    assert!(!event(EventOptions::untimed()).unwrap().timing());
    start.record(&s).unwrap();
    end.record(&s).unwrap();
    end.wait(&default_stream().unwrap()).unwrap();
    end.synchronize().unwrap();
    assert!(start.elapsed_time(&end).unwrap() >= 0.0);
    assert!(rumba::event_elapsed_time(&start, &end).unwrap() >= 0.0);
    // defer_cleanup
    let guard = defer_cleanup().unwrap();
    drop(device_array::<u8, _>(64, Order::C).unwrap());
    assert!(ctx.deallocations().memory.count >= 1);
    drop(guard);
    // gpus, select_device, with gpus[i], close, detect, memory info, synchronize
    assert!(!gpus().unwrap().is_empty());
    assert_eq!(select_device(0).unwrap().id(), 0);
    {
        let _on = gpus().unwrap()[0].activate().unwrap();
        assert_eq!(rumba::current_device().unwrap().id(), 0);
    }
    assert!(!rumba::detect().unwrap().devices.is_empty());
    let (free, total) = current_context().unwrap().get_memory_info().unwrap();
    assert!(free <= total);
    synchronize().unwrap();
    // set_memory_manager and the typed selection
    assert_eq!(
        "pool".parse::<ManagerChoice>().unwrap(),
        rumba::Config {
            memory_manager: ManagerChoice::Pool,
            ..Default::default()
        }
        .memory_manager
    );
    rumba::memory::set_memory_manager(Arc::new(rumba::memory::DefaultManagerFactory)).unwrap();
}

/// An EMM plugin: a safe `impl DeviceResource` (here counting allocations over the default
/// chain), a factory returning `MemoryManager::new(..)`, and Numba's names on the facade.
#[test]
fn an_emm_plugin_ports_as_a_device_resource() {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use rumba::driver::StreamHandle;
    use rumba::memory::{
        DefaultManagerFactory, DeviceBlock, DeviceResource, ManagerContext, MemoryManager,
        MemoryManagerFactory,
    };

    struct M {
        upstream: Arc<dyn DeviceResource>,
        allocations: Arc<AtomicUsize>,
    }
    impl DeviceResource for M {
        fn allocate(&self, bytes: usize, stream: StreamHandle) -> rumba::Result<DeviceBlock> {
            self.allocations.fetch_add(1, Ordering::Relaxed);
            self.upstream.allocate(bytes, stream)
        }
        fn deallocate(&self, block: DeviceBlock, stream: StreamHandle) -> rumba::Result<()> {
            self.upstream.deallocate(block, stream)
        }
        fn upstream(&self) -> Option<&dyn DeviceResource> {
            Some(&*self.upstream)
        }
    }
    struct Factory(Arc<AtomicUsize>);
    impl MemoryManagerFactory for Factory {
        fn name(&self) -> &str {
            "m"
        }
        fn create(&self, ctx: &ManagerContext) -> rumba::Result<MemoryManager> {
            let inner = DefaultManagerFactory.create(ctx)?;
            let device = Arc::new(M {
                upstream: Arc::clone(inner.device_resource()),
                allocations: Arc::clone(&self.0),
            });
            Ok(MemoryManager::new(
                "m",
                ctx,
                device,
                Arc::clone(inner.host_resource()),
            ))
        }
    }

    setup();
    let count = Arc::new(AtomicUsize::new(0));
    let mm = Factory(Arc::clone(&count))
        .create(&current_context().unwrap().manager_context())
        .unwrap();
    let buf = mm.memalloc(64).unwrap(); // memalloc
    assert_eq!(count.load(Ordering::Relaxed), 1);
    match mm.get_ipc_handle(&buf) {
        Ok(h) => assert_eq!(h.bytes, 64),
        Err(e) => assert!(matches!(e, rumba::Error::Unsupported { .. }), "{e}"), // OpenCL
    }
    let guard = mm.defer_cleanup(); // defer_cleanup
    drop(buf);
    assert_eq!(mm.pending().count, 1, "held back under the guard");
    drop(guard);
    mm.flush().unwrap();
    assert_eq!(mm.pending().count, 0);
}

/// Shared, local and constant arrays, a barrier and an atomic: each lane reads the constant
/// table through shared memory in reverse and counts itself.
#[rumba::kernel]
fn table_kernel(t: &Thread, c: &ConstArr<i32>, out: &mut Arr<i32>, count: &mut Arr<i32>) {
    let sm = t.shared_array::<i32>(32);
    let l = t.local_array::<i32>(1);
    let i = t.grid1();
    sm[i] = c[i];
    t.syncthreads();
    l[0] = sm[31 - i];
    out[i] = l[0];
    count.atomic_add(0, 1);
}

/// Dynamic shared memory sized at launch.
#[rumba::kernel]
fn dynamic_kernel(t: &Thread, x: &Arr<f32>, out: &mut Arr<f32>) {
    let d = t.dynamic_shared::<f32>();
    let i = t.grid1();
    d[i] = x[i] * 2.0;
    t.syncthreads();
    out[i] = d[31 - i];
}

#[test]
fn kernels() {
    setup();
    let c = rumba::const_array_like(&Array1::from_iter(0..32i32)).unwrap();
    let out = device_array::<i32, _>(32, Order::C).unwrap();
    let count = to_device(&[0i32]).unwrap();
    let s = stream().unwrap();
    table_kernel()
        .configure(1, 32)
        .stream(&s)
        .launch((&c, &out, &count))
        .unwrap();
    s.synchronize().unwrap();
    assert_eq!(
        out.copy_to_host().unwrap().to_vec(),
        (0..32).rev().collect::<Vec<_>>()
    );
    assert_eq!(count.copy_to_host().unwrap()[0], 32);
    // In / Out of host arrays, and dynamic shared memory
    let x = Array1::from_iter((0..32).map(|v| v as f32));
    let mut y = Array1::<f32>::zeros(32);
    dynamic_kernel()
        .configure(1, 32)
        .dynamic_shared_bytes(32 * 4)
        .launch((In(&x), Out(&mut y)))
        .unwrap();
    assert_eq!(y[0], 62.0);
    assert_eq!(y[31], 0.0);
}

#[test]
fn interchange() {
    setup();
    let d = to_device(&[1.0f32, 2.0]).unwrap();
    // DLPack works everywhere
    let t = d.to_dlpack(None).unwrap();
    let back = rumba::from_dlpack::<f32, ndarray::Ix1>(t).unwrap();
    assert_eq!(back.copy_to_host().unwrap().to_vec(), [1.0, 2.0]);
    // SmartArray(a), .get('gpu'), .mark_changed('host')
    let mut sa = SmartArray::from_host(array![1u8, 2]);
    sa.get(Side::Device).unwrap();
    sa.host_mut().unwrap()[0] = 9;
    sa.mark_changed(Side::Host);
    assert_eq!(
        sa.device().unwrap().copy_to_host().unwrap().to_vec(),
        [9, 2]
    );
    if common::not_on(
        &[BackendChoice::OpenCl],
        "interchange (CUDA Array Interface, IPC)",
        "OpenCL has neither",
    ) {
        return;
    }
    // __cuda_array_interface__, as_cuda_array, is_cuda_array
    assert_eq!(d.cuda_array_interface().typestr, "<f4");
    assert!(rumba::is_cuda_array(&d));
    let same = rumba::as_cuda_array::<f32, ndarray::Ix1, _>(d.clone()).unwrap();
    assert_eq!(same.device_ptr(), d.device_ptr());
    // get_ipc_handle (open is for another process: here it is refused)
    let handle = d.get_ipc_handle().unwrap();
    assert!(handle.open::<f32, ndarray::Ix1>().is_err());
}
