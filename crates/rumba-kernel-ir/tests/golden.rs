//! Golden files: for every construct of the subset, the emitted simulator Rust, CUDA C and
//! OpenCL C, compared with the files checked in under `tests/golden/`. Each input file holds one
//! or more `#[rumba::kernel]` / `#[rumba::device]` functions; its outputs are
//! `<name>.sim.rs`, `<name>.cu.txt` and `<name>.cl.txt` (not `.cu`: they are fragments without
//! the header, which the NVRTC test would try to compile) (the function texts, one after another, plus the
//! uniformity summary in the `.sim.rs` file). Run with `UPDATE_GOLDEN=1` to rewrite them after
//! an intended change, and review the diff.

use std::path::{Path, PathBuf};

use rumba_kernel_ir::lower::{Options, lower_device, lower_kernel};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The three outputs of one input file.
fn render(src: &str) -> (String, String, String) {
    let file: syn::File = syn::parse_str(src).expect("golden input parses");
    let (mut rs, mut cu, mut cl) = (String::new(), String::new(), String::new());
    for item in &file.items {
        let syn::Item::Fn(f) = item else { continue };
        let attr = f.attrs.iter().find_map(|a| {
            a.path()
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .filter(|n| n == "kernel" || n == "device")
        });
        let lowered = match attr.as_deref() {
            Some("kernel") => lower_kernel(f, &Options::default()),
            Some("device") => lower_device(f, &Options::default()),
            _ => continue,
        };
        let l = match lowered {
            Ok(l) => l,
            Err(e) => panic!("{} does not lower: {e}", f.sig.ident),
        };
        let body = &l.rust_body;
        let wrapped: syn::File = syn::parse_quote! { fn body() { #body } };
        rs.push_str(&format!("// ---- {}\n", f.sig.ident));
        rs.push_str(&prettyplease::unparse(&wrapped));
        for line in l.analysis.summary(&l.func).lines() {
            rs.push_str(&format!("// {line}\n"));
        }
        cu.push_str(&l.cuda);
        cu.push('\n');
        cl.push_str(&l.opencl);
        cl.push('\n');
    }
    (rs, cu, cl)
}

#[test]
fn golden_files_match() {
    let update = std::env::var("UPDATE_GOLDEN").is_ok_and(|v| v == "1");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("golden dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.extension().is_some_and(|x| x == "rs") && !p.to_string_lossy().ends_with(".sim.rs")
        })
        .collect();
    inputs.sort();
    // The kernel corpus of rumba's behaviour tests (peer workloads, Numba ports) is golden too.
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rumba/tests/macro_corpus");
    inputs.extend(["peer.rs", "numba.rs", "constructs.rs"].map(|f| corpus.join(f)));
    assert!(!inputs.is_empty());
    let mut mismatches = Vec::new();
    for input in &inputs {
        let src = std::fs::read_to_string(input).unwrap();
        let (rs, cu, cl) = render(&src);
        let mut stem = input.file_stem().unwrap().to_string_lossy().to_string();
        if !input.starts_with(dir()) {
            stem = format!("corpus_{stem}");
        }
        for (ext, text) in [("sim.rs", rs), ("cu.txt", cu), ("cl.txt", cl)] {
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
