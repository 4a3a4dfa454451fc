//! Issue 24 item 12: static plus dynamic shared memory per block is held to the device's limit
//! (`DeviceInfo::max_shared_memory_per_block`: 48 KiB on the simulator, the work-group's local
//! memory on OpenCL — 2 MiB on PoCL) by one rule on every backend. The launch refused dynamic
//! shared memory beyond the simulator's 48 KiB on every backend, and OpenCL did not count the
//! kernel's static shared memory. Dynamic memory beyond the device's limit is refused at launch
//! everywhere; with the static memory beside it, OpenCL refuses at launch (it knows the
//! compiled kernel's) and the simulator faults when the array is made.
//!
//! One test, alone in its binary: a fault is reported at the stream's next synchronization.

mod common;

use rumba::kernel::prelude::*;

/// A 1 KiB static shared array beside the dynamic shared memory.
#[kernel]
fn both_shared(t: &Thread, o: &mut Arr<u32>) {
    let i = t.thread_idx().x as usize;
    let fixed = t.shared_array::<u32>(256);
    let dynamic = t.dynamic_shared::<u32>();
    fixed[i] = i as u32;
    dynamic[i] = 2 * i as u32;
    let last = dynamic.len() - 1;
    if i == 0 {
        dynamic[last] = 7;
    }
    t.syncthreads();
    o[i] = fixed[i] + dynamic[i] + dynamic[last];
}

fn run(dynamic: usize) -> rumba::Result<Vec<u32>> {
    let s = rumba::stream().unwrap();
    let out = rumba::device_array::<u32, _>(32, rumba::Order::C).unwrap();
    both_shared()
        .configure(1, 32)
        .dynamic_shared_bytes(dynamic)
        .stream(&s)
        .launch((&out,))?;
    s.synchronize()?;
    Ok(out.copy_to_host()?.to_vec())
}

/// A refusal of too much shared memory: at launch, or (the simulator's static arrays) the
/// kernel's fault.
fn refused(r: rumba::Result<Vec<u32>>, what: &str) {
    match r {
        Err(rumba::Error::InvalidLaunch { reason, .. }) => {
            assert!(reason.contains("shared memory"), "{what}: {reason}")
        }
        Err(rumba::Error::KernelFault { message, .. }) => {
            assert!(message.contains("does not fit"), "{what}: {message}")
        }
        other => panic!("{what}: expected a refusal, got {other:?}"),
    }
}

#[test]
fn static_and_dynamic_shared_memory_are_held_to_the_devices_limit() {
    common::start(|_| {});
    let limit = rumba::current_context()
        .unwrap()
        .driver()
        .device_info(0)
        .unwrap()
        .max_shared_memory_per_block;
    let want: Vec<u32> = (0..32).map(|i| 3 * i + 7).collect();
    // Exactly the limit with the 1 KiB static array: runs.
    assert_eq!(run(limit - 1024).unwrap(), want);
    // One byte more than the device has, dynamic alone: refused at launch on every backend.
    match run(limit + 1) {
        Err(rumba::Error::InvalidLaunch { reason, .. }) => {
            assert!(reason.contains(&limit.to_string()), "{reason}")
        }
        other => panic!("expected the launch refused, got {other:?}"),
    }
    // The device's limit in dynamic memory, and the static array beside it: refused.
    refused(run(limit), "limit + 1 KiB static");
    // The reviewer's case, 48 KiB + 1 KiB: the simulator's 48 KiB refuse it, PoCL's 2 MiB hold it.
    let r = run(48 << 10);
    if (48 << 10) + 1024 <= limit {
        assert_eq!(r.unwrap(), want);
    } else {
        refused(r, "48 KiB + 1 KiB");
    }
}
