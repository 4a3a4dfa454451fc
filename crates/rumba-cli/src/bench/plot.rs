//! The chart of `rumba bench --plot FILE`: one group of bars per (workload, n), one bar per peer,
//! the median time on a logarithmic axis, drawn with `plotters` into an SVG document.
//!
//! Why a plotting crate and not hand-written SVG: what makes the chart readable is axis work — a
//! logarithmic scale with ticks and labels in readable units, labels placed and rotated under
//! their groups, a legend that sizes itself to the peers present — and `plotters` does that
//! layout; by hand it was most of the code, and it had no tick labels in units. Only its SVG
//! backend is used (no bitmap backends, no system fonts: the viewer draws the text).
//!
//! Pure: this module only builds a string; the caller writes it.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::Run;

/// The peers in legend order, with their colours.
const PEERS: [(&str, RGBColor); 12] = [
    ("rumba-sim", RGBColor(0xd9, 0x48, 0x0f)),
    ("rumba-cuda", RGBColor(0x2f, 0x9e, 0x44)),
    ("rumba-opencl", RGBColor(0xae, 0x3e, 0xc9)),
    ("rust-reference", RGBColor(0x21, 0x25, 0x29)),
    ("pocl", RGBColor(0x1c, 0x7e, 0xd6)),
    ("opencl", RGBColor(0x74, 0xc0, 0xfc)),
    ("numba-cudasim", RGBColor(0x86, 0x8e, 0x96)),
    ("cupy", RGBColor(0x70, 0x48, 0xe8)),
    ("numba-cuda", RGBColor(0xf0, 0x8c, 0x00)),
    ("cudarc", RGBColor(0x0c, 0x85, 0x99)),
    ("rumba-dist", RGBColor(0xe8, 0x59, 0x0c)),
    ("mpi-host", RGBColor(0x49, 0x50, 0x57)),
];

/// Width of one bar, in units of the x axis (one unit per group).
fn bar_width(peers: usize) -> f64 {
    0.8 / peers.max(1) as f64
}

/// A tick of the time axis (a power of ten) in a readable unit: `100 s`, `10 ms`, `1 µs`.
fn tick(seconds: f64) -> String {
    let (value, unit) = if seconds >= 1.0 {
        (seconds, "s")
    } else if seconds >= 1e-3 {
        (seconds * 1e3, "ms")
    } else if seconds >= 1e-6 {
        (seconds * 1e6, "µs")
    } else {
        (seconds * 1e9, "ns")
    };
    // Rounded to three decimals: the ticks are powers of ten, whose scaled values are not exact.
    format!("{} {unit}", (value * 1e3).round() / 1e3)
}

/// The chart as an SVG document.
///
/// # Errors
/// What `plotters` reports when it cannot lay the chart out (a message).
pub fn svg(runs: &[Run]) -> Result<String, String> {
    let peers: Vec<(&str, RGBColor)> = PEERS
        .iter()
        .copied()
        .filter(|(p, _)| runs.iter().any(|r| r.peer == *p))
        .collect();
    let mut keys: Vec<(String, usize)> = Vec::new();
    for r in runs {
        if !keys.iter().any(|(w, n)| *w == r.workload && *n == r.n) {
            keys.push((r.workload.clone(), r.n));
        }
    }
    let times = runs.iter().map(|r| r.seconds).filter(|s| *s > 0.0);
    let lo = 10f64.powf(times.clone().fold(f64::INFINITY, f64::min).log10().floor());
    let hi = 10f64.powf(times.fold(0.0, f64::max).log10().ceil());
    let (lo, hi) = if lo.is_finite() && hi > lo {
        (lo, hi)
    } else {
        (1e-6, 1.0)
    };
    let groups = keys.len().max(1);
    let width = (140 + groups * (26 * peers.len().max(2) + 20)) as u32;
    let labels: Vec<String> = keys.iter().map(|(w, n)| format!("{w} {n}")).collect();
    // Room for the longest group label, turned upright (about 6 pixels a character).
    let label_area = 30 + 6 * labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, 380 + label_area)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| format!("drawing the chart: {e}");
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "rumba bench: median seconds per launch (log scale, lower is better)",
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(label_area)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..groups as f64, (lo..hi).log_scale())
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_label_formatter(&|s| tick(*s))
            .y_label_style(("sans-serif", 14))
            .y_desc("median time per launch")
            .axis_desc_style(("sans-serif", 14))
            .draw()
            .map_err(err)?;
        // Each group's label under its middle, turned to read upwards (plotters puts axis labels
        // at round values of the axis, not at the groups' centres).
        let style = ("sans-serif", 14)
            .into_font()
            .transform(FontTransform::Rotate270)
            .into_text_style(&root)
            .pos(Pos::new(HPos::Right, VPos::Center));
        for (g, label) in labels.iter().enumerate() {
            let (x, y) = chart.backend_coord(&(g as f64 + 0.5, lo));
            root.draw(&Text::new(label.as_str(), (x, y + 8), style.clone()))
                .map_err(err)?;
        }
        let w = bar_width(peers.len());
        for (p, &(peer, color)) in peers.iter().enumerate() {
            let bars = keys.iter().enumerate().filter_map(|(g, (wl, n))| {
                let r = runs.iter().find(|r| {
                    r.peer == peer && r.workload == *wl && r.n == *n && r.seconds > 0.0
                })?;
                let x0 = g as f64 + 0.1 + w * p as f64;
                Some(Rectangle::new(
                    [(x0, lo), (x0 + w, r.seconds)],
                    color.filled(),
                ))
            });
            chart
                .draw_series(bars)
                .map_err(err)?
                .label(peer)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled())
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", 14))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(peer: &str, workload: &str, seconds: f64) -> Run {
        Run {
            peer: peer.into(),
            workload: workload.into(),
            n: 4,
            seconds,
            check: true,
        }
    }

    #[test]
    fn draws_one_bar_per_run_and_a_legend_entry_per_peer() {
        let runs = vec![
            run("rumba-sim", "vadd", 1e-4),
            run("pocl", "vadd", 2e-5),
            run("rumba-sim", "matmul_shared", 3e-3),
        ];
        let s = svg(&runs).unwrap();
        assert!(s.starts_with("<svg"), "{s}");
        // Bars and legend swatches are filled rectangles in the peers' colours.
        assert_eq!(s.matches(r##"fill="#D9480F""##).count(), 2 + 1, "{s}");
        assert_eq!(s.matches(r##"fill="#1C7ED6""##).count(), 1 + 1, "{s}");
        assert!(s.contains("vadd 4") && s.contains("matmul_shared 4"), "{s}");
        assert!(
            s.contains("\npocl\n") && !s.contains("numba-cudasim"),
            "{s}"
        );
    }

    #[test]
    fn ticks_read_in_units() {
        assert_eq!(tick(100.0), "100 s");
        assert_eq!(tick(1e-2), "10 ms");
        assert_eq!(tick(1e-6), "1 µs");
        assert_eq!(tick(1e-8), "10 ns");
    }

    #[test]
    fn no_runs_is_an_empty_chart_not_an_error() {
        assert!(svg(&[]).unwrap().starts_with("<svg"));
    }
}
