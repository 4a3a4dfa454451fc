//! Golden files: for every construct of the subset, the emitted simulator Rust (per-thread body
//! and work-item-loop block form), CUDA C and OpenCL C, compared with the files checked in under
//! `tests/golden/`. Each input file holds one or more `#[rumba::kernel]` / `#[rumba::device]`
//! functions; its outputs are `<name>.sim.rs`, `<name>.wil.rs`, `<name>.cu.txt` and
//! `<name>.cl.txt` (not `.cu`: they are fragments without the header, which the NVRTC test
//! would try to compile) (the function texts, one after another, plus the
//! uniformity summary in the `.sim.rs` file). Run with `UPDATE_GOLDEN=1` to rewrite them after
//! an intended change, and review the diff.

use std::path::{Path, PathBuf};

use rumba_kernel_ir::lower::{Capture, Options, lower_device_instances, lower_kernel_instances};

/// The captures of `#[kernel(capture(NAME: &Arr<T>, …))]` (none for a bare `#[kernel]`).
fn captures(attr: &syn::Attribute) -> Vec<Capture> {
    let syn::Meta::List(list) = &attr.meta else {
        return Vec::new();
    };
    let mut out = Vec::new();
    list.parse_nested_meta(|meta| {
        assert!(meta.path.is_ident("capture"), "unknown kernel argument");
        let inner;
        syn::parenthesized!(inner in meta.input);
        while !inner.is_empty() {
            let name: syn::Ident = inner.parse()?;
            let _: syn::Token![:] = inner.parse()?;
            let ty: syn::Type = inner.parse()?;
            out.push(Capture { name, ty });
            if !inner.is_empty() {
                let _: syn::Token![,] = inner.parse()?;
            }
        }
        Ok(())
    })
    .expect("capture(NAME: &Arr<T>, …)");
    out
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The four outputs of one input file.
fn render(src: &str) -> (String, String, String, String) {
    let file: syn::File = syn::parse_str(src).expect("golden input parses");
    let (mut rs, mut cu, mut cl, mut wil) =
        (String::new(), String::new(), String::new(), String::new());
    for item in &file.items {
        let syn::Item::Fn(f) = item else { continue };
        let Some((attr, meta)) = f.attrs.iter().find_map(|a| {
            a.path()
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .filter(|n| n == "kernel" || n == "device")
                .map(|n| (n, a))
        }) else {
            continue;
        };
        let attr = Some(attr);
        let lowered = match attr.as_deref() {
            Some("kernel") => lower_kernel_instances(f, &captures(meta), &Options::default()),
            Some("device") => lower_device_instances(f, &Options::default()),
            _ => continue,
        };
        let all = match lowered {
            Ok(l) => l,
            Err(e) => panic!("{} does not lower: {e}", f.sig.ident),
        };
        for inst in &all.instances {
            let l = &inst.lowered;
            // A generic function's instances, one after another, each named.
            let title = if all.generics.types.is_empty() {
                f.sig.ident.to_string()
            } else {
                format!("{}<{}>", f.sig.ident, all.generics.describe(&inst.types))
            };
            let body = &l.rust_body;
            let wrapped: syn::File = syn::parse_quote! { fn body() { #body } };
            rs.push_str(&format!("// ---- {title}\n"));
            rs.push_str(&prettyplease::unparse(&wrapped));
            for line in l.analysis.summary(&l.func).lines() {
                rs.push_str(&format!("// {line}\n"));
            }
            if attr.as_deref() == Some("kernel") {
                wil.push_str(&format!("// ---- {title}\n"));
                match &l.wil {
                    Ok(w) => {
                        let grid = &w.grid;
                        let wrapped: syn::File = syn::parse_quote! { fn grid() { let _ = #grid; } };
                        wil.push_str(&format!("// uses: {:?}\n", w.uses));
                        wil.push_str(&prettyplease::unparse(&wrapped));
                    }
                    Err(why) => wil.push_str(&format!("// coroutines only: {why}\n")),
                }
            }
            if !all.generics.types.is_empty() {
                cu.push_str(&format!("// ---- {title}\n"));
                cl.push_str(&format!("// ---- {title}\n"));
            }
            cu.push_str(&l.cuda);
            cu.push('\n');
            cl.push_str(&l.opencl);
            cl.push('\n');
        }
    }
    (rs, cu, cl, wil)
}

#[test]
fn golden_files_match() {
    let update = std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("golden dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "rs")
                && !p.to_string_lossy().ends_with(".sim.rs")
                && !p.to_string_lossy().ends_with(".wil.rs")
        })
        .collect();
    files.sort();
    let mut inputs: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            (p, stem)
        })
        .collect();
    // The kernel corpus of rumba's behaviour tests (Numba ports, constructs) is golden too, and
    // so are the peer workloads, whose one source is the `rumba` command's (the corpus includes
    // it from there).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (file, stem) in [
        ("rumba-cli/src/bench/kernels.rs", "corpus_peer"),
        ("rumba/tests/macro_corpus/numba.rs", "corpus_numba"),
        (
            "rumba/tests/macro_corpus/constructs.rs",
            "corpus_constructs",
        ),
        ("rumba/tests/ported_kernels/capture.rs", "corpus_capture"),
        ("rumba/tests/macro_corpus/views.rs", "corpus_views"),
        ("rumba/tests/macro_corpus/generics.rs", "corpus_generics"),
        (
            "rumba/tests/macro_corpus/device_fns.rs",
            "corpus_device_fns",
        ),
        ("rumba/tests/macro_corpus/ranks.rs", "corpus_ranks"),
        ("rumba/tests/macro_corpus/warp.rs", "corpus_warp"),
        ("rumba/tests/macro_corpus/lanes.rs", "corpus_lanes"),
        ("rumba/tests/macro_corpus/own.rs", "corpus_own"),
        ("rumba/tests/macro_corpus/records.rs", "corpus_records"),
        (
            "rumba/tests/ported_kernels/dynshared.rs",
            "corpus_dynshared",
        ),
    ] {
        inputs.push((root.join(file), stem.to_string()));
    }
    assert!(!inputs.is_empty());
    let mut mismatches = Vec::new();
    for (input, stem) in &inputs {
        let src = std::fs::read_to_string(input).unwrap();
        let (rs, cu, cl, wil) = render(&src);
        for (ext, text) in [
            ("sim.rs", rs),
            ("cu.txt", cu),
            ("cl.txt", cl),
            ("wil.rs", wil),
        ] {
            let path = dir().join(format!("{stem}.{ext}"));
            if update {
                std::fs::write(&path, &text).unwrap();
            } else {
                let want = std::fs::read_to_string(&path).unwrap_or_default();
                if want != text {
                    mismatches.push(format!(
                        "{} differs (UPDATE_GOLDEN=1 rewrites it)",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
