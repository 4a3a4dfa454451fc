//! What the picture shows, computed from a history: each allocation as a band stacked on the
//! ones still live below it (a band moves down when one below it is freed), the pool's reserved
//! and used bytes, and the live allocations at each out-of-memory failure.
//!
//! The x axis is the event's position in the history (as PyTorch's memory viewer does), so a burst
//! of allocations is as wide as a slow stretch; times are in the hover text. The largest
//! allocations get bands of their own (at most `max_bands`); the rest are summed into one band
//! on top of the stack.
//!
//! This module is arithmetic on the history only.

use std::collections::{HashMap, HashSet};

use rumba::memory::history::{Event, EventKind, History};

/// One allocation's band.
pub struct Band {
    pub ptr: u64,
    pub device: usize,
    pub stream: u64,
    pub bytes: usize,
    pub chain: Vec<String>,
    pub frames: Vec<String>,
    /// Event positions: allocated, released by the program (queued or deferred), freed.
    pub start: usize,
    pub held: Option<usize>,
    pub end: usize,
    /// `(x, offset)`: the band's bottom from `x` on (the first entry is at `start`).
    pub steps: Vec<(usize, usize)>,
}

/// The state at one out-of-memory failure.
pub struct OomState {
    pub at: usize,
    pub time_ns: u64,
    pub device: usize,
    pub stream: u64,
    pub requested: usize,
    pub detail: String,
    pub chain: Vec<String>,
    pub live_bytes: usize,
    pub live_count: usize,
    /// The largest live allocations: (bytes, stream, innermost frame).
    pub largest: Vec<(usize, u64, Option<String>)>,
}

/// One pool's figures over time: `(x, reserved, used)` at each of its events.
pub struct PoolSeries {
    pub id: u64,
    pub points: Vec<(usize, usize, usize)>,
}

/// Everything the picture draws.
pub struct Timeline {
    /// Number of events (the x axis runs from 0 to this).
    pub n: usize,
    pub times_ns: Vec<u64>,
    pub bands: Vec<Band>,
    /// The summed small allocations: `(x, bottom, bytes)` from `x` on.
    pub other: Vec<(usize, usize, usize)>,
    /// Highest live total.
    pub peak: usize,
    pub pools: Vec<PoolSeries>,
    pub ooms: Vec<OomState>,
    /// Allocations seen, and how many of them got a band.
    pub allocations: usize,
}

enum Live {
    Band(usize),
    Other(usize),
}

fn key(e: &Event) -> (usize, u64) {
    (e.device, e.ptr)
}

/// Lays out `history`, giving the `max_bands` largest allocations bands of their own.
pub fn layout(history: &History, max_bands: usize) -> Timeline {
    let events = &history.events;
    let mut sizes: Vec<(usize, usize)> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind.opens())
        .map(|(i, e)| (e.bytes, i))
        .collect();
    let allocations = sizes.len();
    sizes.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let tracked: HashSet<usize> = sizes.iter().take(max_bands).map(|&(_, i)| i).collect();

    let mut t = Timeline {
        n: events.len(),
        times_ns: events.iter().map(|e| e.time_ns).collect(),
        bands: Vec::new(),
        other: vec![(0, 0, 0)],
        peak: 0,
        pools: Vec::new(),
        ooms: Vec::new(),
        allocations,
    };
    let mut stack: Vec<usize> = Vec::new();
    let mut live: HashMap<(usize, u64), Live> = HashMap::new();
    let (mut height, mut other) = (0usize, 0usize);
    let mut pools: HashMap<u64, usize> = HashMap::new();
    for (i, e) in events.iter().enumerate() {
        match e.kind {
            k if k.opens() => {
                // An address handed out again without a free seen (the ring dropped it): the
                // earlier allocation ends here.
                close(
                    &mut t,
                    &mut stack,
                    &mut live,
                    &mut height,
                    &mut other,
                    key(e),
                    i,
                );
                if tracked.contains(&i) {
                    t.bands.push(Band {
                        ptr: e.ptr,
                        device: e.device,
                        stream: e.stream,
                        bytes: e.bytes,
                        chain: e.chain.clone(),
                        frames: e.frames.clone(),
                        start: i,
                        held: None,
                        end: events.len(),
                        steps: vec![(i, height)],
                    });
                    stack.push(t.bands.len() - 1);
                    live.insert(key(e), Live::Band(t.bands.len() - 1));
                    height += e.bytes;
                } else {
                    other += e.bytes;
                    live.insert(key(e), Live::Other(e.bytes));
                }
            }
            k if k.holds() => {
                if let Some(Live::Band(b)) = live.get(&key(e)) {
                    t.bands[*b].held.get_or_insert(i);
                }
            }
            k if k.closes() => {
                close(
                    &mut t,
                    &mut stack,
                    &mut live,
                    &mut height,
                    &mut other,
                    key(e),
                    i,
                );
            }
            EventKind::Oom => t.ooms.push(oom_state(&t, &stack, other, e, i)),
            _ => {}
        }
        if let Some(p) = e.pool {
            let at = *pools.entry(p.id).or_insert_with(|| {
                t.pools.push(PoolSeries {
                    id: p.id,
                    points: Vec::new(),
                });
                t.pools.len() - 1
            });
            t.pools[at].points.push((i, p.reserved, p.used));
        }
        if t.other
            .last()
            .is_some_and(|&(_, b, o)| (b, o) != (height, other))
        {
            t.other.push((i, height, other));
        }
        t.peak = t.peak.max(height + other);
    }
    t
}

/// Ends the allocation at `key` (if live) at event `i`, moving the bands above it down.
fn close(
    t: &mut Timeline,
    stack: &mut Vec<usize>,
    live: &mut HashMap<(usize, u64), Live>,
    height: &mut usize,
    other: &mut usize,
    key: (usize, u64),
    i: usize,
) {
    match live.remove(&key) {
        Some(Live::Other(bytes)) => *other -= bytes,
        Some(Live::Band(b)) => {
            let bytes = t.bands[b].bytes;
            t.bands[b].end = i;
            let pos = stack.iter().position(|&s| s == b).unwrap_or(stack.len());
            stack.remove(pos);
            for &above in &stack[pos..] {
                let band = &mut t.bands[above];
                let bottom = band.steps.last().map_or(0, |s| s.1) - bytes;
                band.steps.push((i, bottom));
            }
            *height -= bytes;
        }
        None => {}
    }
}

fn oom_state(t: &Timeline, stack: &[usize], other: usize, e: &Event, i: usize) -> OomState {
    let mut largest: Vec<(usize, u64, Option<String>)> = stack
        .iter()
        .map(|&b| {
            let band = &t.bands[b];
            (band.bytes, band.stream, band.frames.first().cloned())
        })
        .collect();
    largest.sort_by_key(|b| std::cmp::Reverse(b.0));
    largest.truncate(5);
    let tracked: usize = stack.iter().map(|&b| t.bands[b].bytes).sum();
    OomState {
        at: i,
        time_ns: e.time_ns,
        device: e.device,
        stream: e.stream,
        requested: e.bytes,
        detail: e.detail.clone().unwrap_or_default(),
        chain: e.chain.clone(),
        live_bytes: tracked + other,
        live_count: stack.len() + usize::from(other > 0),
        largest,
    }
}

/// `bytes` in the largest binary unit that keeps the number at least 1: `64.0 MiB`.
pub fn human(bytes: usize) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// A time since the recording started: `12.345 ms` below a second, `46.23 s` above.
pub fn ms(ns: u64) -> String {
    if ns < 1_000_000_000 {
        format!("{:.3} ms", ns as f64 / 1e6)
    } else {
        format!("{:.2} s", ns as f64 / 1e9)
    }
}

/// `text` cut into lines of at most `width` characters, at spaces where it can.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use rumba::memory::history::PoolFigures;

    fn ev(seq: u64, kind: EventKind, bytes: usize, ptr: u64) -> Event {
        Event {
            seq,
            time_ns: seq * 10,
            kind,
            device: 0,
            stream: 0,
            bytes,
            ptr,
            chain: vec![],
            frames: vec![],
            pool: None,
            detail: None,
        }
    }

    #[test]
    fn a_free_below_moves_the_bands_above_down() {
        let mut h = History::empty(100);
        h.events = vec![
            ev(0, EventKind::Alloc, 100, 1),
            ev(1, EventKind::Alloc, 50, 2),
            ev(2, EventKind::FreeQueued, 100, 1),
            ev(3, EventKind::FreeFlushed, 100, 1),
            ev(4, EventKind::Alloc, 7, 3),
        ];
        h.events[4].pool = Some(PoolFigures {
            id: 9,
            reserved: 512,
            used: 7,
        });
        let t = layout(&h, 2);
        assert_eq!(t.bands.len(), 2);
        assert_eq!(
            (t.bands[0].start, t.bands[0].held, t.bands[0].end),
            (0, Some(2), 3)
        );
        assert_eq!(t.bands[1].steps, [(1, 100), (3, 0)]);
        assert_eq!(t.peak, 150);
        // The smallest allocation is summed on top of the stack.
        assert_eq!(t.other.last(), Some(&(4, 50, 7)));
        assert_eq!(t.pools[0].points, [(4, 512, 7)]);
        assert_eq!(t.allocations, 3);
    }

    #[test]
    fn an_oom_lists_the_largest_live_allocations() {
        let mut h = History::empty(100);
        h.events = vec![
            ev(0, EventKind::Alloc, 10, 1),
            ev(1, EventKind::Alloc, 30, 2),
            ev(2, EventKind::Oom, 1000, 0),
        ];
        let t = layout(&h, 10);
        let o = &t.ooms[0];
        assert_eq!(
            (o.at, o.requested, o.live_bytes, o.live_count),
            (2, 1000, 40, 2)
        );
        assert_eq!(o.largest[0].0, 30);
        assert_eq!(human(3 << 20), "3.0 MiB");
        assert_eq!(human(12), "12 B");
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(ms(1_500_000), "1.500 ms");
        assert_eq!(ms(46_231_000_000), "46.23 s");
    }
}
