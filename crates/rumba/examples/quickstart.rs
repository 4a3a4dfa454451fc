//! The README's example: a device array, a strided assignment and a kernel on a stream.

use rumba::kernel::{Arr, Kernel};
use rumba::ndarray::{Array1, s};

fn main() -> rumba::Result<()> {
    let a = rumba::to_device(&Array1::from_iter(0..8).mapv(|x| x as f32))?; // host -> device
    a.slice(s![..;2])?.assign(-1.0f32)?; // strided assignment on the device
    let double = Kernel::<(Arr<f32>,)>::new("double", |t, (x,)| {
        let i = t.grid1();
        if i < x.len() {
            x.set(i, 2.0 * x.get(i));
        }
    });
    let s = rumba::stream()?;
    double.configure(1, 32).stream(&s).launch((&a,))?; // asynchronous on `s`
    s.synchronize()?;
    println!("{}", a.copy_to_host()?); // [-2, 2, -2, 6, -2, 10, -2, 14]
    Ok(())
}
