//! A hand-written SVG bar chart of the runs: one group per (workload, n), one bar per peer, time
//! on a logarithmic axis.
//!
//! Pure: this module only builds a string; the caller writes it.

use std::fmt::Write;

use super::Run;

const PEERS: [(&str, &str); 9] = [
    ("rumba-sim", "#d9480f"),
    ("rumba-cuda", "#2f9e44"),
    ("pocl", "#1c7ed6"),
    ("numba-cudasim", "#868e96"),
    ("cupy", "#7048e8"),
    ("numba-cuda", "#f08c00"),
    ("cudarc", "#0c8599"),
    ("rumba-dist", "#e8590c"),
    ("mpi-host", "#495057"),
];

/// The chart as an SVG document.
pub fn svg(runs: &[Run]) -> String {
    let peers: Vec<(&str, &str)> = PEERS
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
    let times: Vec<f64> = runs
        .iter()
        .map(|r| r.seconds)
        .filter(|s| *s > 0.0)
        .collect();
    let lo = times
        .iter()
        .copied()
        .fold(f64::INFINITY, f64::min)
        .max(1e-9)
        .log10()
        .floor();
    let hi = times
        .iter()
        .copied()
        .fold(0.0f64, f64::max)
        .max(1e-9)
        .log10()
        .ceil()
        .max(lo + 1.0);
    let (left, top, plot_h, bar_w) = (70.0, 40.0, 300.0, 22.0);
    let group_w = bar_w * peers.len().max(3) as f64 + 24.0;
    let width = left + group_w * keys.len() as f64 + 160.0;
    let height = top + plot_h + 90.0;
    let y = |s: f64| top + plot_h * (hi - s.max(1e-12).log10()) / (hi - lo);
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(
        o,
        r#"<text x="{left}" y="20" font-size="14">rumba bench: median seconds per launch (log scale, lower is better)</text>"#
    );
    let mut e = lo;
    while e <= hi {
        let yy = y(10f64.powf(e));
        let _ = writeln!(
            o,
            r##"<line x1="{left}" x2="{}" y1="{yy}" y2="{yy}" stroke="#dee2e6"/><text x="{}" y="{}" text-anchor="end">1e{e}</text>"##,
            width - 160.0,
            left - 6.0,
            yy + 4.0
        );
        e += 1.0;
    }
    for (g, (w, n)) in keys.iter().enumerate() {
        let x0 = left + group_w * g as f64 + 10.0;
        for (p, (peer, color)) in peers.iter().enumerate() {
            if let Some(r) = runs
                .iter()
                .find(|r| r.peer == *peer && r.workload == *w && r.n == *n)
            {
                let yy = y(r.seconds);
                let _ = writeln!(
                    o,
                    r#"<rect x="{}" y="{yy}" width="{bar_w}" height="{}" fill="{color}"><title>{peer} {w} {n}: {:e} s</title></rect>"#,
                    x0 + bar_w * p as f64,
                    (top + plot_h - yy).max(0.0),
                    r.seconds
                );
            }
        }
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" text-anchor="middle">{w}</text><text x="{}" y="{}" text-anchor="middle">{n}</text>"#,
            x0 + bar_w * 1.5,
            top + plot_h + 16.0,
            x0 + bar_w * 1.5,
            top + plot_h + 30.0
        );
    }
    for (p, (peer, color)) in peers.iter().enumerate() {
        let ly = top + 20.0 * p as f64;
        let lx = width - 150.0;
        let _ = writeln!(
            o,
            r#"<rect x="{lx}" y="{ly}" width="12" height="12" fill="{color}"/><text x="{}" y="{}">{peer}</text>"#,
            lx + 18.0,
            ly + 10.0
        );
    }
    o.push_str("</svg>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_one_bar_per_run() {
        let runs = vec![
            Run {
                peer: "rumba-sim".into(),
                workload: "vadd".into(),
                n: 4,
                seconds: 1e-4,
                check: true,
            },
            Run {
                peer: "pocl".into(),
                workload: "vadd".into(),
                n: 4,
                seconds: 2e-5,
                check: true,
            },
        ];
        let s = svg(&runs);
        assert!(s.starts_with("<svg"));
        // Two bars and a legend entry for each of the two peers present.
        assert_eq!(s.matches("<rect").count(), 2 + 2);
    }
}
