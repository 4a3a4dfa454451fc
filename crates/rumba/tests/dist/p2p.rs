//! Point to point, every element type, contiguous and strided, checked against what the peer's
//! data must be.

use crate::Case;
use crate::cases::{Dev, TestElem, expect_eq, values};
use rumba::dist::Communicator;

/// Elements per transfer: a few 64 KiB chunks for the wider types.
const N: usize = 20_000;

fn ring<T: TestElem>(c: &Communicator, strided: bool, salt: i64) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let (next, prev) = ((r + 1) % n, (r + n - 1) % n);
    let send = Dev::new(&values::<T>(r, N, salt), strided);
    let recv = Dev::new(&values::<T>(r, N, salt + 1), strided);
    c.sendrecv(&send.view, next, &recv.view, prev, 3)
        .map_err(|e| e.to_string())?;
    expect_eq("sendrecv", &recv.get()?, &values::<T>(prev, N, salt))?;
    expect_eq("the sent array", &send.get()?, &values::<T>(r, N, salt))
}

fn pairs<T: TestElem>(c: &Communicator, strided: bool, salt: i64) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    // Even ranks send to the next odd one, which receives; a last even rank of an odd count
    // sits out.
    if r % 2 == 0 && r + 1 < n {
        let a = Dev::new(&values::<T>(r, N, salt), strided);
        c.send(&a.view, r + 1, 9).map_err(|e| e.to_string())?;
    } else if r % 2 == 1 {
        let a = Dev::new(&values::<T>(r, N, salt + 5), strided);
        c.recv(&a.view, r - 1, 9).map_err(|e| e.to_string())?;
        expect_eq("recv", &a.get()?, &values::<T>(r - 1, N, salt))?;
    }
    Ok(())
}

fn nonblocking<T: TestElem>(c: &Communicator, strided: bool, salt: i64) -> Result<(), String> {
    let (r, n) = (c.rank(), c.size());
    let (next, prev) = ((r + 1) % n, (r + n - 1) % n);
    let s = rumba::stream().unwrap();
    let on = c.on(&s);
    let send = Dev::new(&values::<T>(r, N, salt), strided);
    let recv = Dev::new(&values::<T>(r, N, salt + 2), strided);
    // Receive first, then send: each request answers the other's header while either waits.
    let rq = on.irecv(&recv.view, prev, 4).map_err(|e| e.to_string())?;
    let sq = on.isend(&send.view, next, 4).map_err(|e| e.to_string())?;
    let _ = rq.test().map_err(|e| e.to_string())?;
    sq.wait().map_err(|e| e.to_string())?;
    rq.wait().map_err(|e| e.to_string())?;
    s.synchronize().map_err(|e| e.to_string())?;
    expect_eq("irecv", &recv.get()?, &values::<T>(prev, N, salt))
}

fn add<T: TestElem>(cases: &mut Vec<Case>, name: &str) {
    for strided in [false, true] {
        let layout = if strided { "strided" } else { "contiguous" };
        cases.push((
            format!("p2p::sendrecv::{name}::{layout}"),
            Box::new(move |c| ring::<T>(c, strided, 1)),
        ));
        cases.push((
            format!("p2p::send_recv::{name}::{layout}"),
            Box::new(move |c| pairs::<T>(c, strided, 2)),
        ));
        cases.push((
            format!("p2p::isend_irecv::{name}::{layout}"),
            Box::new(move |c| nonblocking::<T>(c, strided, 3)),
        ));
    }
}

pub fn cases(cases: &mut Vec<Case>) {
    crate::each_type!(add, cases);
    add::<bool>(cases, "bool");
    cases.push((
        "p2p::stream_order".into(),
        Box::new(|c: &Communicator| {
            // Work queued on the stream before the send is what is sent; work queued after the
            // receive sees what arrived, with no host synchronization in between.
            let (r, n) = (c.rank(), c.size());
            let (next, prev) = ((r + 1) % n, (r + n - 1) % n);
            let s = rumba::stream().unwrap();
            let send = rumba::device_array::<i32, _>(N, rumba::Order::C).unwrap();
            let recv = rumba::device_array::<i32, _>(N, rumba::Order::C).unwrap();
            send.assign_on(r as i32 + 100, &s).unwrap();
            c.on(&s)
                .sendrecv(&send, next, &recv, prev, 1)
                .map_err(|e| e.to_string())?;
            let copy = rumba::device_array::<i32, _>(N, rumba::Order::C).unwrap();
            s.copy(&copy, &recv).unwrap();
            let host = copy.copy_to_host_on(&s).map_err(|e| e.to_string())?;
            expect_eq(
                "after the stream",
                &host.to_vec(),
                &vec![prev as i32 + 100; N],
            )
        }),
    ));
}
