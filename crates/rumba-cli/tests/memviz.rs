//! `rumba memviz` as a user runs it: a history drawn as SVG and HTML, both parsed as XML and
//! checked for what they must show; the demo's own history; refusals.
//!
//! The pictures run on the sim (`RUMBA_BIN` points at another `rumba`, as in `cli.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use rumba::memory::history::{Event, EventKind, History, PoolFigures};

fn exe() -> PathBuf {
    std::env::var_os("RUMBA_BIN")
        .map(Into::into)
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_rumba").into())
}

fn rumba(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(exe());
    cmd.args(args)
        .env_remove("RUMBA_MEMORY_HISTORY")
        .env_remove("RUMBA_MEMORY_MANAGER")
        .env("RUMBA_BACKEND", "sim")
        // The demo's memory history goes to the temporary folder: keep it in target/.
        .env("TMPDIR", scratch());
    cmd.envs(env.iter().copied());
    let out = cmd.output().expect("run rumba");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The test target's temporary folder, made if missing (a copy of the test executable run on
/// another machine, as the GPU kit does, finds no `target/` there).
fn scratch() -> &'static str {
    let dir = env!("CARGO_TARGET_TMPDIR");
    std::fs::create_dir_all(dir).expect("create the tests' temporary folder");
    dir
}

fn temp(name: &str) -> PathBuf {
    PathBuf::from(scratch()).join(format!("rumba-memviz-{}-{name}", std::process::id()))
}

fn ev(seq: u64, kind: EventKind, bytes: usize, ptr: u64) -> Event {
    Event {
        seq,
        time_ns: seq * 1000,
        kind,
        device: 0,
        stream: 0x10,
        bytes,
        ptr,
        chain: vec!["PoolResource".into(), "DriverResource".into()],
        frames: vec!["my_app::load (src/main.rs:7:3)".into()],
        pool: None,
        detail: None,
    }
}

/// Three allocations of a pool (one released into a queue, then flushed), a growth, an
/// out-of-memory failure.
fn small_history() -> History {
    let mut h = History::empty(100);
    let pool = |reserved, used| {
        Some(PoolFigures {
            id: 7,
            reserved,
            used,
        })
    };
    h.events = vec![
        Event {
            pool: pool(4 << 20, 0),
            ..ev(0, EventKind::PoolGrow, 4 << 20, 0x1000)
        },
        Event {
            pool: pool(4 << 20, 1 << 20),
            ..ev(1, EventKind::Alloc, 1 << 20, 0x1000)
        },
        Event {
            pool: pool(4 << 20, 3 << 20),
            ..ev(2, EventKind::Alloc, 2 << 20, 0x2000)
        },
        ev(3, EventKind::FreeQueued, 1 << 20, 0x1000),
        Event {
            pool: pool(4 << 20, 3 << 20),
            ..ev(4, EventKind::Alloc, 512 << 10, 0x3000)
        },
        Event {
            detail: Some("out of memory on device 0: requested 8388608 bytes".into()),
            ..ev(5, EventKind::Oom, 8 << 20, 0)
        },
        Event {
            pool: pool(4 << 20, 5 << 19),
            ..ev(6, EventKind::FreeFlushed, 1 << 20, 0x1000)
        },
    ];
    h
}

fn class_has(node: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|w| w == class))
}

/// What every picture of `small_history` must show, checked on its parsed SVG element.
fn check_small_picture(svg: roxmltree::Node<'_, '_>) {
    assert_eq!(svg.tag_name().name(), "svg");
    let bands: Vec<_> = svg
        .descendants()
        .filter(|n| n.has_tag_name("g") && class_has(n, "band") && !class_has(n, "other"))
        .collect();
    assert_eq!(bands.len(), 3, "one band per allocation");
    let tips: Vec<String> = bands
        .iter()
        .filter_map(|b| b.children().find(|c| c.has_tag_name("title")))
        .filter_map(|t| t.text().map(str::to_string))
        .collect();
    assert_eq!(tips.len(), 3);
    let first = tips
        .iter()
        .find(|t| t.starts_with("1.0 MiB"))
        .expect("the 1 MiB allocation's hover text");
    for part in [
        "stream 0x10",
        "released at event 3",
        "freed at event 6",
        "PoolResource > DriverResource",
        "my_app::load (src/main.rs:7:3)",
    ] {
        assert!(first.contains(part), "{part:?} in {first:?}");
    }
    // The released band is drawn in two parts: live, then pale (held in the queue).
    let first_band = bands
        .iter()
        .find(|b| {
            b.children()
                .any(|c| c.has_tag_name("title") && c.text().unwrap_or("").starts_with("1.0 MiB"))
        })
        .unwrap();
    assert_eq!(
        first_band
            .children()
            .filter(|c| c.has_tag_name("path") && class_has(c, "held"))
            .count(),
        1
    );
    let ooms = svg
        .descendants()
        .filter(|n| n.has_tag_name("g") && class_has(n, "oom"))
        .count();
    assert_eq!(ooms, 1);
    let text: String = svg
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("OOM 1 at event 5") && text.contains("8.0 MiB requested"),
        "{text}"
    );
    assert!(text.contains("3.5 MiB live in 3 allocation(s)"), "{text}");
    assert!(
        svg.descendants()
            .any(|n| n.has_tag_name("path") && class_has(&n, "reserved")),
        "the pool's reserved bytes"
    );
    assert!(
        svg.descendants()
            .any(|n| n.has_tag_name("path") && class_has(&n, "used")),
        "the pool's used bytes"
    );
}

#[test]
fn a_history_is_drawn_as_svg_and_as_a_self_contained_html_page() {
    let json = temp("small.json");
    small_history().save(&json).unwrap();
    let svg_path = temp("small.svg");
    let (code, out, err) = rumba(
        &[
            "memviz",
            json.to_str().unwrap(),
            "-o",
            svg_path.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote") && out.contains("small.svg"), "{out}");
    let text = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    check_small_picture(doc.root_element());

    // Without -o: the HTML page beside the history.
    let (code, _, err) = rumba(&["memviz", json.to_str().unwrap()], &[]);
    assert_eq!(code, 0, "{err}");
    let html_path = json.with_extension("html");
    let page = std::fs::read_to_string(&html_path).unwrap();
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&page, opts)
        .expect("the HTML page is well-formed XML");
    let html = doc.root_element();
    assert_eq!(html.tag_name().name(), "html");
    let chart = html
        .descendants()
        .find(|n| n.attribute("id") == Some("chart"))
        .expect("the chart");
    check_small_picture(chart.children().find(|n| n.is_element()).unwrap());
    // Offline: nothing is loaded from anywhere.
    for n in html.descendants().filter(|n| n.is_element()) {
        for a in ["src", "href"] {
            assert!(n.attribute(a).is_none(), "{} has {a}", n.tag_name().name());
        }
    }
    assert!(!page.contains("http://") || page.matches("http://").count() == 1); // the SVG namespace
    let scripts = html
        .descendants()
        .filter(|n| n.has_tag_name("script"))
        .count();
    assert_eq!(scripts, 2);
    for p in [&json, &svg_path, &html_path] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn the_demo_writes_its_memory_history_and_says_where() {
    let (code, out, err) = rumba(&["demo"], &[("RUMBA_SIM_MEMORY", "1GiB")]);
    assert_eq!(code, 0, "{err}");
    let line = out
        .lines()
        .find(|l| l.contains("memory history of this tour: "))
        .unwrap_or_else(|| panic!("no history line in:\n{out}"));
    let json = line
        .split("memory history of this tour: ")
        .nth(1)
        .and_then(|r| r.split(" (").next())
        .map(PathBuf::from)
        .unwrap();
    let h = History::load(&json).unwrap();
    let kinds: Vec<EventKind> = h.events.iter().map(|e| e.kind).collect();
    for kind in [
        EventKind::Alloc,
        EventKind::FreeQueued,
        EventKind::FreeFlushed,
        EventKind::FreeDeferred,
        EventKind::PinnedAlloc,
        EventKind::PoolGrow,
        EventKind::PoolTrim,
        EventKind::Oom,
    ] {
        assert!(kinds.contains(&kind), "{kind:?} in the demo's history");
    }
    assert_eq!(
        kinds.iter().filter(|&&k| k == EventKind::Oom).count(),
        2,
        "the device's and the pool's"
    );
    assert!(
        h.events
            .iter()
            .any(|e| e.frames.iter().any(|f| f.contains("demo.rs"))),
        "frames name the demo's code"
    );
    let html = json.with_extension("html");
    assert!(
        out.contains(&format!("its picture: {}", html.display())),
        "{out}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&page, opts).unwrap();
    let bands = doc
        .descendants()
        .filter(|n| n.has_tag_name("g") && class_has(n, "band"))
        .count();
    assert!(bands > 20, "{bands} bands");
    std::fs::remove_file(&json).unwrap();
    std::fs::remove_file(&html).unwrap();
}

#[test]
fn refusals_name_the_problem() {
    let (code, _, err) = rumba(&["memviz", "h.json", "-o", "out.png"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("written as .svg or .html"), "{err}");
    let missing = Path::new("/nonexistent/history.json");
    let (code, _, err) = rumba(&["memviz", missing.to_str().unwrap()], &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains("cannot read memory history file /nonexistent/history.json"),
        "{err}"
    );
    let bad = temp("bad.json");
    std::fs::write(&bad, "[1, 2]").unwrap();
    let (code, _, err) = rumba(&["memviz", bad.to_str().unwrap()], &[]);
    assert_eq!(code, 1);
    assert!(err.contains("is not a rumba memory history"), "{err}");
    std::fs::remove_file(&bad).unwrap();
}
