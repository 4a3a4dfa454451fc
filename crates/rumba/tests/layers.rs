//! The library's layer map, checked: every `crate::` path in `crates/rumba/src` must name a
//! module on its own floor or a floor above it, as the `## Layers` block of `lib.rs` lists them,
//! and must name the module that owns an item rather than a re-export at the crate root.
//!
//! The map is read from `lib.rs` itself, so the documentation and this check cannot drift apart.
//! Comments, string literals and `#[cfg(test)]` modules are left out: unit tests may build their
//! fixtures from higher floors (a memory test needs a context), the library itself may not.

mod source_scan;

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use source_scan::{code_only, rust_files, src, without_test_modules};

/// Floor of each top-level module, from the ```text block under `## Layers` in lib.rs: one line
/// a floor, the modules before the first two-space gap, comma separated.
fn floors() -> HashMap<String, usize> {
    let lib = fs::read_to_string(src().join("lib.rs")).unwrap();
    let lines: Vec<&str> = lib
        .lines()
        .map(|l| l.strip_prefix("//!").unwrap_or("").trim_start_matches(' '))
        .collect();
    let start = lines
        .iter()
        .position(|l| *l == "## Layers")
        .expect("lib.rs has a `## Layers` section");
    let fence = start
        + lines[start..]
            .iter()
            .position(|l| l.starts_with("```text"))
            .expect("the layers section has a ```text block");
    let mut map = HashMap::new();
    for (floor, line) in lines[fence + 1..]
        .iter()
        .take_while(|l| !l.starts_with("```"))
        .enumerate()
    {
        let names = line.split("  ").next().unwrap();
        for name in names.split(',') {
            map.insert(name.trim().to_string(), floor);
        }
    }
    assert!(map.len() > 5, "the layers block lists the modules: {map:?}");
    map
}

/// Every first path segment after `crate::` in `code`, with the line it is on; `use crate::{a,
/// b::c}` groups give each of their members.
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut from = 0;
    while let Some(k) = code[from..].find("crate::") {
        let at = from + k + "crate::".len();
        from = at;
        let prev = code[..at - "crate::".len()].chars().next_back();
        if prev.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `foo_crate::`
        }
        let rest = &code[at..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            let mut members = Vec::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    members.push(std::mem::take(&mut item));
                    break;
                }
                if c == ',' && depth == 1 {
                    members.push(std::mem::take(&mut item));
                } else {
                    item.push(c);
                }
            }
            for m in members {
                let name: String = m
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.push((line_of(at), name));
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            found.push((line_of(at), name));
        }
    }
    found
}

/// The top-level module a file of `src/` belongs to (`None` for the crate root files).
fn module_of(rel: &Path) -> Option<String> {
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
    (!matches!(name.as_str(), "lib" | "prelude")).then_some(name)
}

#[test]
fn every_import_follows_the_layer_map() {
    let floors = floors();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut wrong = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(src()).unwrap();
        let Some(module) = module_of(rel) else {
            continue;
        };
        let Some(&floor) = floors.get(&module) else {
            wrong.push(format!(
                "{}: module `{module}` is not in lib.rs's layer map",
                rel.display()
            ));
            continue;
        };
        let code = without_test_modules(&code_only(&fs::read_to_string(path).unwrap()));
        for (line, name) in crate_paths(&code) {
            if name == module {
                continue;
            }
            match floors.get(&name) {
                None => wrong.push(format!(
                    "{}:{line}: `crate::{name}` goes through the crate root: import it from the module that owns it",
                    rel.display()
                )),
                Some(&to) if to > floor => wrong.push(format!(
                    "{}:{line}: `{module}` (floor {floor}) imports `crate::{name}` (floor {to}), which lib.rs lists after it",
                    rel.display()
                )),
                Some(_) => {}
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layer map:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_checker_sees_what_it_must() {
    // A back edge, a root import and a grouped import are found; comments, strings and test
    // modules are not.
    let code = code_only(
        "use crate::stream::Stream;\n// crate::kernel::X\nlet s = \"crate::kernel\";\nuse crate::{Error, memory::Pool};\n#[cfg(test)]\nmod tests { use crate::kernel::Y; }\nfn f() { crate::interop::g() }\n",
    );
    let names: Vec<String> = crate_paths(&without_test_modules(&code))
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(names, ["stream", "Error", "memory", "interop"]);
    let floors = floors();
    assert!(floors["error"] < floors["driver"] && floors["driver"] < floors["memory"]);
    assert!(floors["array"] < floors["host"] && floors["transfer"] < floors["kernel"]);
}
