//! Issue 14, item 7: a panic whose payload panics again when dropped — in a stream callback, in
//! queued work or in a kernel body — is contained: the stream keeps its worker, synchronizing
//! reports instead of hanging, and the runtime stays usable.

mod common;

use std::sync::mpsc;
use std::time::Duration;

use rumba::kernel::{Arr, Kernel};

/// A panic payload whose drop panics, with a payload whose drop panics, …
struct Nasty(u32);

impl Drop for Nasty {
    fn drop(&mut self) {
        if self.0 > 0 {
            std::panic::panic_any(Nasty(self.0 - 1));
        }
    }
}

#[test]
fn a_callback_panicking_with_a_nasty_payload_leaves_the_stream_working() {
    common::start(|_| {});
    let s = rumba::stream().unwrap();
    s.add_callback(|_, _| std::panic::panic_any(Nasty(3)))
        .unwrap();
    common::within(20, "synchronize after the nasty callback", {
        let s = s.clone();
        move || s.synchronize().unwrap()
    });
    let (tx, rx) = mpsc::channel();
    s.add_callback(move |_, status| tx.send(status.is_ok()).unwrap())
        .unwrap();
    assert!(rx.recv_timeout(Duration::from_secs(20)).unwrap());
    let d = rumba::to_device(&[1u8, 2, 3]).unwrap();
    s.copy(&d, &ndarray::arr1(&[4u8, 5, 6])).unwrap();
    s.synchronize().unwrap();
    assert_eq!(d.copy_to_host().unwrap().to_vec(), [4, 5, 6]);
}

#[test]
fn a_kernel_panicking_with_a_nasty_payload_is_a_fault_and_the_next_launch_runs() {
    if common::sim_only("closure kernels (Rust bodies) run on the simulator only") {
        return;
    }
    let s = rumba::stream().unwrap();
    let k = Kernel::<(Arr<u32>,)>::new("nasty", |t, (a,)| {
        if t.grid1() == 3 {
            std::panic::panic_any(Nasty(3));
        }
        a.set(t.grid1(), 1);
    });
    let d = rumba::device_array::<u32, _>(64, rumba::Order::C).unwrap();
    let r = common::within(20, "a launch whose thread panics nastily", {
        let (k, d, s) = (k.clone(), d.clone(), s.clone());
        move || {
            k.configure(2, 32).stream(&s).launch((&d,)).unwrap();
            s.synchronize()
        }
    });
    match r {
        Err(rumba::Error::KernelFault {
            kernel,
            block,
            thread,
            message,
        }) => {
            assert_eq!(
                (kernel.as_str(), block, thread),
                ("nasty", [0, 0, 0], [3, 0, 0])
            );
            assert!(message.contains("panicked"), "{message}");
        }
        other => panic!("expected a kernel fault, got {other:?}"),
    }
    let fine = Kernel::<(Arr<u32>,)>::new("fine", |t, (a,)| a.set(t.grid1(), 2));
    fine.configure(2, 32).stream(&s).launch((&d,)).unwrap();
    s.synchronize().unwrap();
    assert_eq!(d.copy_to_host().unwrap().to_vec(), [2; 64]);
}
