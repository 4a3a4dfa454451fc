//! docs/design/behaviour.md §1: many host threads use the runtime at once.

mod common;

#[test]
fn ten_threads_select_copy_synchronize_and_close() {
    common::start(|_| {});
    let handles: Vec<_> = (0..10u8)
        .map(|t| {
            std::thread::spawn(move || -> rumba::Result<()> {
                rumba::select_device(0)?;
                let s = rumba::stream()?;
                let ctx = rumba::current_context()?;
                let data = vec![t; 1 << 16];
                let mut back = vec![0u8; data.len()];
                let buf = ctx.memalloc(data.len())?;
                s.auto_synchronize(|scope| -> rumba::Result<()> {
                    scope.copy(&buf, &data)?;
                    scope.copy(&mut back, &buf)
                })?;
                assert_eq!(back, data, "thread {t} got its own data back");
                s.synchronize()?;
                drop((buf, s));
                rumba::close()
            })
        })
        .collect();
    for h in handles {
        h.join().expect("thread panicked").expect("thread failed");
    }
    // The runtime is still usable afterwards: a new context is created lazily.
    let ctx = rumba::current_context().unwrap();
    ctx.memalloc(16).unwrap().memset(1).unwrap();
}
