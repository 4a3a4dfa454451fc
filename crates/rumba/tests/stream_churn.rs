//! Issue 24 item 4: streams that come and go. One thread (then several) creates a stream,
//! allocates and fills memory on it, and drops the stream, thousands of times: every allocation
//! works — memory freed on a dropped stream never names that stream to a later allocation.
//! Run with `RUMBA_MEMORY_MANAGER=pool` for the pool.

mod common;

fn churn(rounds: usize, tag: u8, big: usize) {
    for k in 0..rounds {
        let s = rumba::stream().unwrap();
        let bytes = big + (k % 7) * 512;
        let buf = s.memalloc(bytes).unwrap_or_else(|e| {
            let snap = rumba::current_context().unwrap().memory_snapshot();
            panic!("round {k}: allocating {bytes} bytes: {e}\n{snap:?}")
        });
        s.memset(&buf, tag)
            .unwrap_or_else(|e| panic!("round {k}: memset: {e}"));
        match k % 4 {
            0 => {
                s.synchronize().unwrap();
                drop(buf);
                drop(s);
            }
            1 => {
                drop(buf);
                drop(s);
            }
            2 => {
                drop(s); // the buffer outlives its stream, and is freed on it
                drop(buf);
            }
            _ => {
                let a = rumba::device_array::<u32, _>(bytes / 4, rumba::Order::C)
                    .unwrap_or_else(|e| panic!("round {k}: device_array: {e}"))
                    .bind(&s);
                a.fill(7).unwrap_or_else(|e| panic!("round {k}: fill: {e}"));
                drop(s);
                drop(buf);
                drop(a);
            }
        }
    }
}

#[test]
fn allocations_on_streams_that_come_and_go_never_fail() {
    // A small device: the pool's caches of thousands of dropped streams fill it, and with 24 MiB
    // buffers an allocation must wait for memory that a dropped stream's queued work still holds.
    common::start(|c| c.sim_memory = Some(64 << 20));
    churn(3000, 1, 4096);
    churn(20, 2, 24 << 20);
    let threads: Vec<_> = (0..4u8)
        .map(|t| std::thread::spawn(move || churn(200, t, 1 << 20)))
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let ctx = rumba::current_context().unwrap();
    rumba::synchronize().unwrap();
    ctx.flush_deallocations().unwrap();
}
