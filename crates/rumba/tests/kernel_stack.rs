//! Kernels that run out of stack on the simulator fault like any other kernel — a
//! `KernelFault` naming kernel, block and thread — and the runtime stays usable (issue 14,
//! item 5). Recursion in the kernel language goes through `#[rumba::device]` functions calling
//! each other (a function calling itself is a compile error, `tests/ui/device_recursion.rs`);
//! such functions begin with a stack check. Both host engines and both coroutine paths are
//! covered. On the GPU backends recursion is not part of the language (OpenCL C refuses it), so
//! these tests are simulator-only.

mod common;

use rumba::Order;
use rumba::driver::HostEngine;
use rumba::kernel::prelude::*;
use rumba::kernel::{
    ExecOptions, LaunchConfig, STACK_MARGIN, STACK_RESERVE, check_stack, run_grid_with,
};

#[device]
fn ping(n: u32) -> u32 {
    if n == 0 { 0 } else { 1 + pong(n - 1) }
}

#[device]
fn pong(n: u32) -> u32 {
    if n == 0 { 0 } else { 1 + ping(n - 1) }
}

/// Thread `i` recurses `base + i` levels deep through `ping`/`pong`.
#[kernel]
fn depth(t: &Thread, base: u32, out: &mut Arr<u32>) {
    let i = t.grid1();
    if i < out.len() {
        out[i] = ping(base + i as u32);
    }
}

/// The same recursion after a barrier, so that every thread runs as a coroutine.
#[kernel]
fn depth_after_barrier(t: &Thread, base: u32, out: &mut Arr<u32>) {
    t.syncthreads();
    let i = t.grid1();
    if i < out.len() {
        out[i] = ping(base + i as u32);
    }
}

/// A 1 MiB per-thread array: local memory, never the stack.
#[kernel]
fn big_local(t: &Thread, out: &mut Arr<f32>) {
    let l = t.local_array::<f32>(262_144);
    let i = t.grid1();
    l[262_143] = i as f32;
    if i < out.len() {
        out[i] = l[262_143];
    }
}

/// Why the recursion tests are simulator-only.
const NO_GPU_RECURSION: &str =
    "recursion is not part of the kernel language on GPUs (OpenCL C refuses it)";

/// Runs `k` over 64 threads with `base`, returning the depths or the fault.
fn run(k: &Kernel<(u32, Arr<u32>)>, base: u32) -> rumba::Result<Vec<u32>> {
    let out = rumba::device_array::<u32, _>(64, Order::C)?;
    k.configure(2, 32).launch((base, &out))?;
    out.copy_to_host().map(|a| a.to_vec())
}

fn expect_overflow(r: rumba::Result<Vec<u32>>, kernel: &str) {
    match r {
        Err(rumba::Error::KernelFault {
            kernel: k,
            block,
            thread,
            message,
        }) => {
            assert_eq!(k, kernel);
            assert!(message.contains("stack overflow"), "{message}");
            // Every thread overflows; the lowest block reports, and within it a real thread.
            assert_eq!(block, [0, 0, 0]);
            assert!(thread[0] < 32, "{thread:?}");
        }
        other => panic!("{kernel}: expected a stack-overflow fault, got {other:?}"),
    }
}

#[test]
fn runaway_recursion_through_device_functions_is_a_kernel_fault_on_every_engine() {
    if common::sim_only(NO_GPU_RECURSION) {
        return;
    }
    // Faults are reported at the next synchronisation of the stream: one test at a time.
    let _one = common::serial();
    let cases = [
        ("depth", HostEngine::Coroutines, depth()),
        ("depth", HostEngine::WorkItemLoops, depth()),
        (
            "depth_after_barrier",
            HostEngine::Coroutines,
            depth_after_barrier(),
        ),
        (
            "depth_after_barrier",
            HostEngine::WorkItemLoops,
            depth_after_barrier(),
        ),
    ];
    for (name, engine, k) in cases {
        let k = &k.with_engine(engine);
        // Shallow recursion runs and gives the depth.
        let shallow = run(k, 100).unwrap();
        assert_eq!(k.last_engine(), Some(engine), "{name}");
        assert_eq!(shallow, (100..164).collect::<Vec<u32>>(), "{name}");
        // A billion levels cannot fit any stack: a fault, not a crash.
        expect_overflow(run(k, 1_000_000_000), name);
        // The runtime is usable afterwards: same kernel, same engine.
        assert_eq!(run(k, 7).unwrap()[63], 70, "{name} after the fault");
    }
}

#[test]
fn the_fault_leaves_no_stack_or_memory_behind() {
    if common::sim_only(NO_GPU_RECURSION) {
        return;
    }
    // Faults are reported at the next synchronisation of the stream: one test at a time.
    let _one = common::serial();
    // Many faulting launches in a row: each unwinds its threads and returns their stacks;
    // a leak of stacks or device memory would show as an allocation failure or a crash.
    let k = depth_after_barrier();
    for _ in 0..20 {
        expect_overflow(run(&k, u32::MAX / 2), "depth_after_barrier");
    }
    assert_eq!(run(&k, 3).unwrap()[0], 3);
}

#[test]
fn closure_kernels_call_the_check_in_their_recursive_helpers() {
    if common::sim_only("closure kernels have no GPU form") {
        return;
    }
    // Faults are reported at the next synchronisation of the stream: one test at a time.
    let _one = common::serial();
    fn down(n: u64) -> u64 {
        check_stack();
        let frame = std::hint::black_box([n; 32]);
        if frame[0] == 0 {
            0
        } else {
            1 + down(frame[1] - 1)
        }
    }
    for options in [
        ExecOptions {
            fast_path: true,
            parallel: true,
        },
        ExecOptions {
            fast_path: false,
            parallel: false,
        },
    ] {
        let cfg = LaunchConfig::new(3, 16);
        let err = run_grid_with("down", &cfg, &options, |t| {
            if t.block_idx().x == 1 && t.thread_idx().x == 5 {
                down(u64::MAX);
            }
        })
        .unwrap_err();
        let (block, thread, message) = common::fault(Err(err));
        assert_eq!((block, thread), ([1, 0, 0], [5, 0, 0]), "{options:?}");
        assert!(message.contains("stack overflow"), "{message}");
        assert!(message.contains(&STACK_MARGIN.to_string()), "{message}");
        run_grid_with("down", &cfg, &options, |_| assert_eq!(down(100), 100)).unwrap();
    }
}

/// Set in the child process of the test below: which path overflows.
const OVERFLOW_CHILD: &str = "RUMBA_TEST_STACK_OVERFLOW_CHILD";

/// A closure kernel whose thread (5, 0, 0) of block (1, 0, 0) puts `N` bytes on its stack.
fn big_frame<const N: usize>(options: &ExecOptions) -> rumba::Result<()> {
    run_grid_with("big_frame", &LaunchConfig::new(3, 16), options, |t| {
        if t.block_idx().x == 1 && t.thread_idx().x == 5 {
            fill::<N>();
        }
    })
}

/// A frame of `N` bytes (out of line: the kernel's own frame stays small for other threads).
#[inline(never)]
fn fill<const N: usize>() {
    let frame = std::hint::black_box([7u8; N]);
    std::hint::black_box(&frame);
}

#[test]
fn an_unchecked_overflow_into_the_reserve_is_a_fault_and_the_runtime_goes_on() {
    // Issue 24 item 10: a closure kernel whose frame does not fit its stack (a 1 MiB local, four
    // times the coroutine stack, no check anywhere) aborted the process. Its stack's reserve takes
    // the overflow, and the thread faults when its body returns: a `KernelFault` naming kernel,
    // block and thread — on a coroutine and on the fast path's plain loop — and the stacks are
    // reused, reserve closed again, launch after launch.
    if common::sim_only("closure kernels have no GPU form") {
        return;
    }
    let serial = ExecOptions {
        fast_path: false,
        parallel: false,
    };
    for options in [serial, ExecOptions::default()] {
        for _ in 0..20 {
            let err = big_frame::<{ 1 << 20 }>(&options).unwrap_err();
            match &err {
                rumba::Error::KernelFault {
                    kernel,
                    block,
                    thread,
                    message,
                } => {
                    assert_eq!(kernel, "big_frame");
                    assert_eq!((*block, *thread), ([1, 0, 0], [5, 0, 0]), "{message}");
                    assert!(message.contains("stack overflow"), "{message}");
                    assert!(message.contains("reserve"), "{message}");
                }
                other => panic!("expected a kernel fault, got {other:?}"),
            }
            big_frame::<64>(&options).unwrap();
        }
    }
}

#[test]
fn an_overflow_past_the_reserve_names_kernel_block_and_thread_before_the_process_aborts() {
    // In the child: a frame larger than the stack and its reserve together, without a check, on
    // a coroutine (every thread of a non-fast-path launch) and in the fast path's plain loop.
    const PAST: usize = STACK_RESERVE + (1 << 20);
    match std::env::var(OVERFLOW_CHILD).as_deref() {
        Ok("coroutine") => {
            let serial = ExecOptions {
                fast_path: false,
                parallel: false,
            };
            let r = big_frame::<PAST>(&serial);
            println!("CHILD-SURVIVED {r:?}");
            return;
        }
        Ok("plain") => {
            let r = big_frame::<PAST>(&ExecOptions::default());
            println!("CHILD-SURVIVED {r:?}");
            return;
        }
        _ => {}
    }
    if common::sim_only("closure kernels have no GPU form") {
        return;
    }
    for path in ["coroutine", "plain"] {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "an_overflow_past_the_reserve_names_kernel_block_and_thread_before_the_process_aborts",
                "--nocapture",
            ])
            .env(OVERFLOW_CHILD, path)
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(!out.status.success(), "{path}: {stdout}");
        assert!(!stdout.contains("CHILD-SURVIVED"), "{path}: {stdout}");
        let expected =
            "rumba: kernel `big_frame` overflowed its stack in block (1, 0, 0), thread (5, 0, 0)";
        assert!(
            stderr.contains(expected),
            "{path}: {}\n{stderr}",
            out.status
        );
    }
}

#[test]
fn a_megabyte_local_array_is_a_fault_naming_the_local_memory_limit() {
    // A kernel's arrays live in local memory, whose per-thread size is checked: a 1 MiB array
    // is a fault, not a stack overflow.
    if common::sim_only("the 512 KiB of local memory per thread is the simulator's limit") {
        return;
    }
    let _one = common::serial();
    let out = rumba::device_array::<f32, _>(64, Order::C).unwrap();
    let r = big_local()
        .configure(2, 32)
        .launch((&out,))
        .and_then(|()| out.copy_to_host().map(drop));
    let (block, _, message) = common::fault(r);
    assert_eq!(block, [0, 0, 0]);
    assert!(
        message.contains("does not fit") && message.contains("bytes of local memory per thread"),
        "{message}"
    );
    // Usable afterwards.
    assert_eq!(run(&depth(), 1).unwrap()[0], 1);
}
