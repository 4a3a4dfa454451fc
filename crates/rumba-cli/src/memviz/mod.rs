//! `rumba memviz FILE [-o OUT]`: draws a memory history (written by
//! `rumba::memory::history::dump` or `RUMBA_MEMORY_HISTORY`) as an SVG picture or a
//! self-contained HTML page (the SVG with hover boxes; opens offline).
//!
//! | file | what it holds |
//! | --- | --- |
//! | [`timeline`] | the layout: bands, pool series, the state at each out-of-memory failure |
//! | [`draw`] | the SVG document |
//! | [`page`] | the HTML page around it |
//!
//! This module touches the two files named on the command line.

pub mod draw;
pub mod page;
pub mod timeline;

use std::path::{Path, PathBuf};

use rumba::error::HistoryError;
use rumba::memory::history::History;

/// Most allocations drawn as bands of their own (the rest are summed into one).
pub const MAX_BANDS: usize = 1500;

/// Arguments of `rumba memviz`.
#[derive(clap::Args)]
pub struct MemvizArgs {
    /// The memory history (JSON).
    pub file: PathBuf,
    /// Where to write the picture: `.svg` or `.html` (default: FILE with `.html`).
    #[arg(short, long, value_parser = output_path)]
    pub output: Option<PathBuf>,
}

fn output_path(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    match p.extension().and_then(|e| e.to_str()) {
        Some("svg" | "html") => Ok(p),
        _ => Err(format!("{s}: the picture is written as .svg or .html")),
    }
}

/// The picture of `history` as an SVG document.
pub fn svg_of(history: &History, source: &str) -> String {
    let t = timeline::layout(history, MAX_BANDS);
    draw::document(&t, source, history.dropped).to_string()
}

/// The picture of `history` as an HTML page.
pub fn html_of(history: &History, source: &str) -> String {
    page::html(
        &svg_of(history, source),
        &format!("rumba memory history: {source}"),
    )
}

/// Draws `file` into `output` (by its extension); returns the path written.
pub fn render(file: &Path, output: Option<&Path>) -> rumba::Result<PathBuf> {
    let history = History::load(file)?;
    let out = output.map_or_else(|| file.with_extension("html"), Path::to_path_buf);
    let source = file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let text = if out.extension().is_some_and(|e| e == "svg") {
        svg_of(&history, &source)
    } else {
        html_of(&history, &source)
    };
    std::fs::write(&out, text).map_err(|e| HistoryError::Io {
        path: out.display().to_string(),
        action: "write",
        message: e.to_string(),
    })?;
    Ok(out)
}

/// `rumba memviz`: draws and says where.
pub fn run(args: &MemvizArgs) -> rumba::Result<()> {
    let t = std::time::Instant::now();
    let out = render(&args.file, args.output.as_deref())?;
    println!(
        "wrote {} ({:.0} ms)",
        out.display(),
        t.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}
