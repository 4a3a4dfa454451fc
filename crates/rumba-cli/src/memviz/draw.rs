//! The picture as an SVG document (the `svg` crate composes and escapes it): live bytes stacked
//! by allocation, the pool's reserved and used bytes, and the state at each out-of-memory
//! failure. Every band and marker carries a `<title>` (the hover text of an SVG viewer) and a
//! class the HTML page's script uses.
//!
//! This module draws; it reads only the [`Timeline`].

use svg::Document;
use svg::node::element::path::Data;
use svg::node::element::{Group, Line, Path, Rectangle, Text, Title};

use super::timeline::{Band, Timeline, human, ms, wrap};

const W: f64 = 1280.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 30.0;
const LIVE_TOP: f64 = 80.0;
const LIVE_H: f64 = 360.0;
const POOL_TOP: f64 = 520.0;
const POOL_H: f64 = 140.0;
const OOM_TOP: f64 = 720.0;
const LINE: f64 = 17.0;
const PALETTE: [&str; 10] = [
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7",
    "#9c755f", "#8cd17d",
];

/// Maps event positions and byte counts of one panel to pixels.
struct Scale {
    n: f64,
    top: f64,
    height: f64,
    max: f64,
}

impl Scale {
    fn x(&self, i: usize) -> f64 {
        round(LEFT + (W - LEFT - RIGHT) * i as f64 / self.n.max(1.0))
    }
    fn y(&self, bytes: usize) -> f64 {
        round(self.top + self.height - self.height * bytes as f64 / self.max.max(1.0))
    }
}

fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

fn text(x: f64, y: f64, content: impl Into<String>) -> Text {
    Text::new(content).set("x", x).set("y", y)
}

/// A step of 1, 2 or 5 × a power of 1024 that divides `max` into at most six intervals.
fn byte_step(max: usize) -> usize {
    let mut unit = 1usize;
    loop {
        for m in [1, 2, 5, 10, 20, 50, 100, 200, 500] {
            let step = m * unit;
            if max / step <= 6 {
                return step;
            }
        }
        unit = unit.saturating_mul(1024);
    }
}

/// A step of 1, 2 or 5 × a power of ten that divides `n` into at most eight intervals.
fn event_step(n: usize) -> usize {
    let mut p = 1usize;
    loop {
        for m in [1, 2, 5] {
            if n / (m * p) <= 8 {
                return m * p;
            }
        }
        p *= 10;
    }
}

/// Axes and grid of one panel.
fn axes(t: &Timeline, s: &Scale, title: &str) -> Group {
    let mut g = Group::new().set("class", "axes");
    g = g.add(text(LEFT, s.top - 12.0, title).set("class", "panel-title"));
    let step = byte_step(s.max as usize);
    let mut v = 0;
    while v as f64 <= s.max {
        let y = s.y(v);
        g = g
            .add(
                Line::new()
                    .set("x1", LEFT)
                    .set("x2", W - RIGHT)
                    .set("y1", y)
                    .set("y2", y)
                    .set("class", "grid"),
            )
            .add(
                text(LEFT - 8.0, y + 4.0, human(v))
                    .set("text-anchor", "end")
                    .set("class", "tick"),
            );
        v += step;
    }
    let estep = event_step(t.n);
    let bottom = s.top + s.height;
    let mut i = 0;
    while i <= t.n {
        let x = s.x(i);
        let when = t.times_ns.get(i.min(t.n.saturating_sub(1))).copied();
        g = g.add(
            text(x, bottom + 16.0, i.to_string())
                .set("text-anchor", "middle")
                .set("class", "tick"),
        );
        if let Some(ns) = when {
            g = g.add(
                text(x, bottom + 30.0, ms(ns))
                    .set("text-anchor", "middle")
                    .set("class", "tick time"),
            );
        }
        i += estep;
    }
    g.add(
        Rectangle::new()
            .set("x", LEFT)
            .set("y", s.top)
            .set("width", W - LEFT - RIGHT)
            .set("height", s.height)
            .set("class", "frame"),
    )
}

/// The outline of `band` between event positions `a` and `b`: a polygon that steps down where a
/// band below it was freed.
fn band_data(band: &Band, s: &Scale, a: usize, b: usize) -> Data {
    let mut segs = Vec::new();
    for (k, &(x, off)) in band.steps.iter().enumerate() {
        let next = band.steps.get(k + 1).map_or(band.end, |n| n.0);
        let (lo, hi) = (x.max(a), next.min(b));
        if lo < hi {
            segs.push((lo, hi, off));
        }
    }
    let mut d = Data::new();
    for (k, &(lo, hi, off)) in segs.iter().enumerate() {
        let y = s.y(off + band.bytes);
        d = if k == 0 {
            d.move_to((s.x(lo), y))
        } else {
            d.line_to((s.x(lo), y))
        };
        d = d.line_to((s.x(hi), y));
    }
    for &(lo, hi, off) in segs.iter().rev() {
        let y = s.y(off);
        d = d.line_to((s.x(hi), y)).line_to((s.x(lo), y));
    }
    d.close()
}

fn band_tip(t: &Timeline, band: &Band) -> String {
    let at = |i: usize| t.times_ns.get(i).map_or(String::new(), |&ns| ms(ns));
    let mut tip = format!(
        "{} at 0x{:x} on device {}, stream 0x{:x}\nallocated at event {} ({})",
        human(band.bytes),
        band.ptr,
        band.device,
        band.stream,
        band.start,
        at(band.start)
    );
    if let Some(h) = band.held {
        tip.push_str(&format!(
            "; released at event {h} ({}), held back until freed",
            at(h)
        ));
    }
    if band.end < t.n {
        tip.push_str(&format!("; freed at event {} ({})", band.end, at(band.end)));
    } else {
        tip.push_str("; still live at the end");
    }
    if !band.chain.is_empty() {
        tip.push_str(&format!("\nserved by {}", band.chain.join(" > ")));
    }
    for f in band.frames.iter().take(4) {
        tip.push_str(&format!("\n  at {f}"));
    }
    tip
}

/// The live-bytes panel: one band per tracked allocation, the rest summed on top.
fn live_panel(t: &Timeline, s: &Scale) -> Group {
    let mut g = Group::new().set("id", "live");
    for (k, band) in t.bands.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        let until = band.held.unwrap_or(band.end);
        let tip = band_tip(t, band);
        let mut bg = Group::new()
            .set("class", "band")
            .set("data-band", k)
            .add(Title::new(tip));
        bg = bg.add(
            Path::new()
                .set("d", band_data(band, s, band.start, until))
                .set("fill", color),
        );
        if until < band.end {
            bg = bg.add(
                Path::new()
                    .set("d", band_data(band, s, until, band.end))
                    .set("fill", color)
                    .set("class", "held"),
            );
        }
        // A label where the band is large enough to hold one.
        let first_end = band.steps.get(1).map_or(band.end, |n| n.0);
        let (x0, x1) = (s.x(band.start), s.x(first_end));
        let bottom = band.steps[0].1;
        let (y0, y1) = (s.y(bottom + band.bytes), s.y(bottom));
        if y1 - y0 >= 13.0 && x1 - x0 >= 56.0 {
            bg = bg.add(
                text((x0 + x1) / 2.0, (y0 + y1) / 2.0 + 4.0, human(band.bytes))
                    .set("text-anchor", "middle")
                    .set("class", "label"),
            );
        }
        g = g.add(bg);
    }
    let mut d = Data::new();
    let mut any = false;
    for (k, &(x, bottom, bytes)) in t.other.iter().enumerate() {
        if bytes == 0 {
            continue;
        }
        let to = t.other.get(k + 1).map_or(t.n, |n| n.0);
        d = d
            .move_to((s.x(x), s.y(bottom)))
            .line_to((s.x(x), s.y(bottom + bytes)))
            .line_to((s.x(to), s.y(bottom + bytes)))
            .line_to((s.x(to), s.y(bottom)))
            .close();
        any = true;
    }
    if any {
        let others = t.allocations - t.bands.len();
        g = g.add(
            Group::new()
                .set("class", "band other")
                .add(Title::new(format!(
                    "{others} smaller allocations, summed (the {} largest have bands of their own)",
                    t.bands.len()
                )))
                .add(Path::new().set("d", d).set("fill", "#bab0ac")),
        );
    }
    g
}

/// The pool panel: reserved bytes filled, used bytes as a line, per pool.
fn pool_panel(t: &Timeline, s: &Scale) -> Group {
    let mut g = Group::new().set("id", "pool");
    if t.pools.is_empty() {
        return g.add(
            text(
                LEFT + 12.0,
                s.top + s.height / 2.0,
                "no pool in this history (RUMBA_MEMORY_MANAGER=pool records one)",
            )
            .set("class", "note"),
        );
    }
    for p in &t.pools {
        let step = |pick: fn(&(usize, usize, usize)) -> usize| {
            let mut d = Data::new().move_to((s.x(p.points[0].0), s.y(0)));
            for (k, pt) in p.points.iter().enumerate() {
                let to = p.points.get(k + 1).map_or(t.n, |n| n.0);
                d = d
                    .line_to((s.x(pt.0), s.y(pick(pt))))
                    .line_to((s.x(to), s.y(pick(pt))));
            }
            d
        };
        let reserved = step(|p| p.1).line_to((s.x(t.n), s.y(0))).close();
        let peak = p.points.iter().map(|p| p.1).max().unwrap_or(0);
        g = g
            .add(
                Path::new()
                    .set("d", reserved)
                    .set("class", "reserved")
                    .add(Title::new(format!(
                        "pool 0x{:x}: reserved bytes (segments held), peak {}",
                        p.id,
                        human(peak)
                    ))),
            )
            .add(
                Path::new()
                    .set("d", step(|p| p.2))
                    .set("class", "used")
                    .add(Title::new(format!(
                        "pool 0x{:x}: bytes in blocks handed out",
                        p.id
                    ))),
            );
    }
    let lx = W - RIGHT - 290.0;
    g.add(
        Rectangle::new()
            .set("x", lx)
            .set("y", s.top + 8.0)
            .set("width", 14)
            .set("height", 10)
            .set("class", "reserved"),
    )
    .add(text(lx + 20.0, s.top + 17.0, "reserved (segments)").set("class", "tick"))
    .add(
        Line::new()
            .set("x1", lx + 160.0)
            .set("x2", lx + 176.0)
            .set("y1", s.top + 13.0)
            .set("y2", s.top + 13.0)
            .set("class", "used"),
    )
    .add(text(lx + 182.0, s.top + 17.0, "used (blocks)").set("class", "tick"))
}

/// Red markers across both panels, one per out-of-memory failure.
fn oom_markers(t: &Timeline, live: &Scale) -> Group {
    let mut g = Group::new().set("id", "ooms");
    for (k, o) in t.ooms.iter().enumerate() {
        let x = live.x(o.at);
        g = g.add(
            Group::new()
                .set("class", "oom")
                .add(Title::new(format!(
                    "out of memory #{}: {} requested on device {}, {} live\n{}",
                    k + 1,
                    human(o.requested),
                    o.device,
                    human(o.live_bytes),
                    o.detail
                )))
                .add(
                    Line::new()
                        .set("x1", x)
                        .set("x2", x)
                        .set("y1", LIVE_TOP)
                        .set("y2", POOL_TOP + POOL_H),
                )
                .add(text(
                    x + 3.0,
                    LIVE_TOP + 12.0 + 13.0 * (k % 3) as f64,
                    format!("OOM {}", k + 1),
                )),
        );
    }
    g
}

/// The text block under the panels: the state at each out-of-memory failure.
fn oom_text(t: &Timeline) -> (Group, f64) {
    let mut g = Group::new().set("id", "oom-states");
    let mut y = OOM_TOP;
    g = g.add(text(LEFT, y, "State at each out-of-memory failure").set("class", "panel-title"));
    y += LINE * 1.4;
    if t.ooms.is_empty() {
        g = g.add(text(LEFT, y, "none in this history").set("class", "note"));
        return (g, y + LINE);
    }
    for (k, o) in t.ooms.iter().enumerate().take(10) {
        let head = format!(
            "OOM {} at event {} ({}): {} requested on device {}, stream 0x{:x}; {} live in {} allocation(s){}",
            k + 1,
            o.at,
            ms(o.time_ns),
            human(o.requested),
            o.device,
            o.stream,
            human(o.live_bytes),
            o.live_count,
            if o.chain.is_empty() {
                String::new()
            } else {
                format!("; from {}", o.chain.join(" > "))
            }
        );
        for line in wrap(&head, 150) {
            g = g.add(text(LEFT, y, line).set("class", "oom-head"));
            y += LINE;
        }
        let largest: Vec<String> = o
            .largest
            .iter()
            .map(|(b, s, f)| match f {
                Some(f) => format!("{} (stream 0x{s:x}, {f})", human(*b)),
                None => format!("{} (stream 0x{s:x})", human(*b)),
            })
            .collect();
        if !largest.is_empty() {
            for line in wrap(&format!("largest live: {}", largest.join(", ")), 160) {
                g = g.add(text(LEFT + 16.0, y, line));
                y += LINE;
            }
        }
        for line in wrap(&o.detail, 175) {
            g = g.add(text(LEFT + 16.0, y, line).set("class", "detail"));
            y += LINE;
        }
        y += LINE * 0.4;
    }
    if t.ooms.len() > 10 {
        g = g.add(text(LEFT, y, format!("… and {} more", t.ooms.len() - 10)));
        y += LINE;
    }
    (g, y)
}

const STYLE: &str = "
text { font-family: 'DejaVu Sans', Verdana, sans-serif; font-size: 12px; fill: #222; }
.title { font-size: 18px; font-weight: bold; }
.subtitle { fill: #555; }
.panel-title { font-size: 14px; font-weight: bold; }
.tick { font-size: 11px; fill: #444; }
.time { fill: #888; }
.grid { stroke: #e4e4e4; stroke-width: 1; }
.frame { fill: none; stroke: #999; }
.band path { stroke: #ffffff; stroke-width: 0.4; }
.band .held { opacity: 0.35; }
.band.hot path { stroke: #000; stroke-width: 1.5; }
.label { font-size: 11px; fill: #fff; font-weight: bold; pointer-events: none; }
.reserved { fill: #c6dbef; stroke: #6baed6; }
.used { fill: none; stroke: #08519c; stroke-width: 2; }
.oom line { stroke: #d62728; stroke-width: 1.5; stroke-dasharray: 5 3; }
.oom text { fill: #d62728; font-weight: bold; }
.oom-head { font-weight: bold; fill: #a01c1c; }
.detail { fill: #555; font-size: 11px; }
.note { fill: #777; font-style: italic; }
";

/// The whole picture; `source` names the history in the title.
pub fn document(t: &Timeline, source: &str, dropped: u64) -> Document {
    let live = Scale {
        n: t.n as f64,
        top: LIVE_TOP,
        height: LIVE_H,
        max: t.peak.max(1) as f64 * 1.05,
    };
    let pool_max = t
        .pools
        .iter()
        .flat_map(|p| p.points.iter().map(|p| p.1))
        .max()
        .unwrap_or(1);
    let pool = Scale {
        n: t.n as f64,
        top: POOL_TOP,
        height: POOL_H,
        max: pool_max as f64 * 1.05,
    };
    let (ooms, bottom) = oom_text(t);
    let height = bottom + 20.0;
    let subtitle = format!(
        "{source}: {} events{}, {} allocations ({} drawn as bands), peak {} live, {} out-of-memory failure(s). Hover a band for its size, stream, resources and call stack.",
        t.n,
        if dropped > 0 {
            format!(" ({dropped} older ones dropped to stay within max_entries)")
        } else {
            String::new()
        },
        t.allocations,
        t.bands.len(),
        human(t.peak),
        t.ooms.len()
    );
    Document::new()
        .set("width", W)
        .set("height", height)
        .set("viewBox", (0, 0, W, height))
        .add(svg::node::element::Style::new(STYLE))
        .add(
            Rectangle::new()
                .set("width", W)
                .set("height", height)
                .set("fill", "#ffffff"),
        )
        .add(text(LEFT, 28.0, "rumba memory history").set("class", "title"))
        .add(text(LEFT, 48.0, subtitle).set("class", "subtitle"))
        .add(axes(t, &live, "Live device memory over events, stacked by allocation (pale: released, held in a queue)"))
        .add(live_panel(t, &live))
        .add(axes(t, &pool, "Pool: reserved vs used bytes"))
        .add(pool_panel(t, &pool))
        .add(oom_markers(t, &live))
        .add(ooms)
}
