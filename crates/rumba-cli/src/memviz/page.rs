//! The HTML page: the SVG inline, a stylesheet and a short script — one file a browser opens
//! offline (nothing is fetched). The script turns each band's `<title>` into a hover box that
//! follows the pointer, outlines the band under it, and says how long the page took to draw;
//! `page.html#band=N` opens band N's box without a pointer.
//!
//! The page is well-formed XML (the script sits in a CDATA section), so it can be checked with
//! an XML parser like the SVG.

const STYLE: &str = "
body { margin: 16px; background: #fafafa; font-family: 'DejaVu Sans', Verdana, sans-serif; }
#chart { background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,0.15); display: inline-block; }
#tip { position: absolute; display: none; max-width: 640px; padding: 6px 9px;
  background: rgba(20,20,20,0.92); color: #fff; font-size: 12px; white-space: pre-wrap;
  border-radius: 4px; pointer-events: none; }
footer { color: #888; font-size: 11px; margin-top: 6px; }
";

const SCRIPT: &str = r#"
(function () {
  var tip = document.getElementById('tip');
  var hot = null;
  // Shows the box at (x, y), kept inside the window.
  function place(x, y) {
    tip.style.display = 'block';
    var room = document.documentElement.clientWidth + window.scrollX - tip.offsetWidth - 8;
    tip.style.left = Math.max(window.scrollX, Math.min(x, room)) + 'px';
    tip.style.top = y + 'px';
  }
  var marked = document.querySelectorAll('#chart [class~="band"], #chart [class~="oom"], #chart .reserved, #chart .used');
  for (var i = 0; i < marked.length; i++) {
    var t = marked[i].querySelector('title');
    if (t && t.parentNode === marked[i]) {
      marked[i].setAttribute('data-tip', t.textContent);
      marked[i].removeChild(t);
    }
  }
  document.getElementById('chart').addEventListener('mousemove', function (ev) {
    var el = ev.target.closest('[data-tip]');
    if (hot && hot !== el) { hot.classList.remove('hot'); hot = null; }
    if (!el) { tip.style.display = 'none'; return; }
    if (el.classList.contains('band')) { el.classList.add('hot'); hot = el; }
    tip.textContent = el.getAttribute('data-tip');
    place(ev.pageX + 14, ev.pageY + 14);
  });
  // `#band=N` opens band N's hover box where the band starts (to show it without a pointer).
  var m = /^#band=(\d+)$/.exec(location.hash);
  if (m) {
    var b = document.querySelector('#chart [data-band="' + m[1] + '"]');
    if (b) {
      var r = b.getBoundingClientRect();
      b.classList.add('hot'); hot = b;
      tip.textContent = b.getAttribute('data-tip');
      place(r.left + window.scrollX + 20, r.top + window.scrollY + 20);
    }
  }
  requestAnimationFrame(function () {
    var took = performance.now() - window.drawStart;
    document.getElementById('drawn').textContent = 'drawn in ' + took.toFixed(0) + ' ms';
  });
})();
"#;

/// The page around `svg` (a complete SVG document), titled `title`.
pub fn html(svg: &str, title: &str) -> String {
    let svg = svg.trim_start_matches(|c| c != '<');
    let svg = svg
        .strip_prefix("<?xml version=\"1.0\" encoding=\"utf-8\"?>")
        .unwrap_or(svg)
        .trim_start();
    let title = svg::node::Text::new(title).to_string();
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>{title}</title>\n<style>{STYLE}</style>\n<script>window.drawStart = performance.now();</script>\n</head>\n<body>\n<div id=\"chart\">\n{svg}\n</div>\n<div id=\"tip\"></div>\n<footer>rumba memviz: <span id=\"drawn\"></span></footer>\n<script>//<![CDATA[{SCRIPT}//]]></script>\n</body>\n</html>\n"
    )
}
