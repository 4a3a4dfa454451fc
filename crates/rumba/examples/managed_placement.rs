//! Managed-memory placement: prefetch a managed array to the device before device work and back
//! to the host before reading it, with read-mostly advice for a table many readers share. On the
//! simulator the page table says where every page is and counts the moves
//! (`cargo run -p rumba --example managed_placement`).

use rumba::driver::{Advice, Location};

fn main() -> rumba::Result<()> {
    let s = rumba::stream()?;
    let mut a = rumba::managed_array::<f32, _>(1 << 18, rumba::Order::C)?; // 1 MiB
    a.prefetch(Location::Device(0), &s)?; // before the device works on it
    a.device_mut().fill(2.0)?;
    a.prefetch(Location::Host, &s)?; // before the host reads it
    s.synchronize()?;
    assert!(a.view().iter().all(|&x| x == 2.0));
    assert_eq!(a.location(), Some(Location::Host));

    let table = rumba::managed_array::<f32, _>(1 << 16, rumba::Order::C)?;
    table.advise(Advice::ReadMostly(true))?;
    let _ = table.device().device_ptr(0)?; // readers get copies: nothing moves

    match (a.residency(), table.residency()) {
        (Some(r), Some(t)) => {
            // The sim: 16 pages went to the device and came back, by prefetch only.
            assert_eq!((r.migrations.to_device, r.migrations.to_host), (16, 16));
            assert_eq!((r.host_pages, t.migrations.pages()), (16, 0));
            println!(
                "pages moved: {} to the device, {} back; the read-mostly table: none",
                r.migrations.to_device, r.migrations.to_host
            );
        }
        _ => println!("placement given as hints (this backend does not report where pages are)"),
    }
    Ok(())
}
