use rumba::memory::history::{self, HistoryOptions};
use rumba::memory::{DeviceBlock, DeviceResource, PoolResource};
use std::sync::Arc;
use std::time::Instant;
const OPS: usize = 10_000;
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}
fn work(mm: &dyn DeviceResource, max_size: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut live: Vec<(DeviceBlock, usize)> = Vec::with_capacity(OPS);
    let mut used = 0usize;
    for _ in 0..OPS {
        let size = 1 + (rng.next() as usize) % max_size;
        if live.is_empty() || (rng.next() % 100 < 73 && used + size <= 4 << 30) {
            let p = mm.allocate_sync(size).unwrap();
            live.push((std::hint::black_box(p), size));
            used += size;
        } else {
            let i = (rng.next() as usize) % live.len();
            let (p, s) = live.swap_remove(i);
            mm.deallocate_sync(p).unwrap();
            used -= s;
        }
    }
    for (p, _) in live {
        mm.deallocate_sync(p).unwrap();
    }
}
fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().unwrap())
        .unwrap_or(100_000);
    let cfg = rumba::Config {
        backend: rumba::config::BackendChoice::Sim,
        sim_memory: Some(64 << 30),
        ..rumba::Config::default()
    };
    rumba::configure(cfg).unwrap();
    let ctx = rumba::current_context().unwrap();
    let pool = Arc::new(PoolResource::new(&ctx.manager_context()).unwrap());
    let mut best = [f64::MAX; 2];
    let mut all = [Vec::new(), Vec::new()];
    let mut seed = 1;
    for _round in 0..15 {
        for on in [false, true] {
            if on {
                history::start(HistoryOptions {
                    max_entries: max,
                    ..HistoryOptions::default()
                })
                .unwrap();
            }
            for _ in 0..20 {
                seed += 1;
                let t = Instant::now();
                work(&*pool, 1 << 20, seed);
                let dt = t.elapsed().as_secs_f64() * 1e3;
                best[on as usize] = best[on as usize].min(dt);
                all[on as usize].push(dt);
            }
            history::stop();
        }
    }
    for a in &mut all {
        a.sort_by(|x, y| x.partial_cmp(y).unwrap());
    }
    let med = |a: &Vec<f64>| a[a.len() / 2];
    println!(
        "max_entries {max}: off min {:.3} med {:.3} | on min {:.3} med {:.3} | ratio min {:.3} med {:.3}",
        best[0],
        med(&all[0]),
        best[1],
        med(&all[1]),
        best[1] / best[0],
        med(&all[1]) / med(&all[0])
    );
}
