//! Linking a C program at run time: which instance of each `#[rumba::device]` function a call
//! reaches, under which C name, and in which order the functions are emitted (callees first, each
//! instance once).
//!
//! The C text of a kernel or device function does not name its callees directly, because the
//! macro that lowers a caller does not see its callees: it writes a *call marker*
//! `@call:DEV:SIG:SPACES@` where `DEV` is the callee's position in the caller's list of device
//! functions, `SIG` the signature of the arguments ([`signature`]: element types, array ranks)
//! and `SPACES` the memory space of each array argument (`g` global, `c` constant, `l` shared,
//! `p` private). The callee's [`DeviceFn`] lists its instances (one per combination of its type
//! parameters, each with the signature of its parameters); the linker picks the instance whose
//! signature is the call's, names it `dev_NAME[_TYPES][_SPACES]` and emits its text with the
//! spaces filled in: on OpenCL an array parameter's struct type and address-space qualifier
//! depend on where the array lives (OpenCL C 1.2 has no generic address space), so the text of a
//! device function with array parameters carries `$sK$` (the space tag of its `K`-th array
//! parameter) and `$qK$` (its qualifier) and is specialised per call site. CUDA C reaches every
//! space through generic pointers, so there the spaces do not split instances.
//!
//! A device function's own name in its text is `@self@`. A marker that names no instance (which
//! rustc's checks of the Rust form rule out) becomes an `#error` line, so the build fails naming
//! it instead of calling something else.

use crate::target::Target;

/// A `#[rumba::device]` function's generated parts (the macro emits one `static` per function).
#[derive(Debug)]
pub struct DeviceFn {
    /// Its Rust name.
    pub name: &'static str,
    /// Its instances (one for a function without type parameters).
    pub instances: &'static [DeviceInstance],
    /// The `#define`s of the consts it names.
    pub defines: fn(Target) -> Vec<(&'static str, String)>,
    /// The record declarations it needs.
    pub records: fn(Target) -> Vec<String>,
    /// The device functions it calls, in the order its call markers number them.
    pub deps: fn() -> Vec<&'static DeviceFn>,
}

/// One instance of a device function.
#[derive(Debug)]
pub struct DeviceInstance {
    /// The C-name part of its type parameters (`f32`, `f32_i64`; empty without any).
    pub tag: &'static str,
    /// The signature of its parameters ([`signature`]).
    pub sig: &'static str,
    /// Its CUDA C text.
    pub cuda: &'static str,
    /// Its OpenCL C text.
    pub opencl: &'static str,
}

impl DeviceInstance {
    fn text(&self, target: Target) -> &'static str {
        match target {
            Target::Cuda => self.cuda,
            Target::OpenCl => self.opencl,
        }
    }
}

/// The address-space qualifier of a pointer into space `tag` on OpenCL.
pub fn opencl_qualifier(tag: char) -> &'static str {
    match tag {
        'g' => "__global ",
        'c' => "__global const ",
        'l' => "__local ",
        _ => "",
    }
}

/// The signature of a parameter or argument list, as call markers and instances spell it: one
/// part per parameter (after the thread context), joined by `,` — an element type's Rust name
/// (`f32`, `usize`), `c32` / `c64` for complex numbers, `R.Name` for a record, `A<rank><elem>` for
/// an array, `(<parts joined by ;>)` for a tuple.
pub fn signature(parts: &[String]) -> String {
    parts.join(",")
}

/// The functions a program needs, callees first, and the texts with every marker resolved.
#[derive(Debug, Default)]
pub struct Linked {
    /// The device-function instances' texts, callees before callers, each once.
    pub device_fns: Vec<String>,
    /// The device functions reached (each once), for their defines and records.
    pub reached: Vec<&'static DeviceFn>,
    /// The caller's text with its markers resolved.
    pub text: String,
}

/// Resolves the call markers of `text` (whose callees are `deps`, in marker order) for
/// `target`, emitting every instance it reaches.
pub fn link(target: Target, text: &str, deps: &[&'static DeviceFn]) -> Linked {
    let mut l = Linked::default();
    let mut emitted = Vec::new();
    l.text = resolve(target, text, deps, &mut emitted, &mut l);
    l
}

fn reach(d: &'static DeviceFn, l: &mut Linked) {
    if !l.reached.iter().any(|r| std::ptr::eq(*r, d)) {
        l.reached.push(d);
    }
}

fn resolve(
    target: Target,
    text: &str,
    deps: &[&'static DeviceFn],
    emitted: &mut Vec<String>,
    l: &mut Linked,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find("@call:") {
        out.push_str(&rest[..k]);
        let after = &rest[k + "@call:".len()..];
        let Some(end) = after.find('@') else {
            out.push_str(&rest[k..]);
            rest = "";
            break;
        };
        let marker = &after[..end];
        rest = &after[end + 1..];
        match call(target, marker, deps, emitted, l) {
            Ok(name) => out.push_str(&name),
            Err(why) => {
                // A line of its own: the build fails here, naming the call.
                out.push_str(&format!("\n#error \"rumba: {why}\"\n"));
            }
        }
    }
    out.push_str(rest);
    out
}

fn call(
    target: Target,
    marker: &str,
    deps: &[&'static DeviceFn],
    emitted: &mut Vec<String>,
    l: &mut Linked,
) -> Result<String, String> {
    let mut parts = marker.splitn(3, ':');
    let (Some(dev), Some(sig), Some(spaces)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("malformed call marker `{marker}`"));
    };
    let dev = dev
        .parse::<usize>()
        .ok()
        .and_then(|i| deps.get(i).copied())
        .ok_or_else(|| format!("call marker `{marker}` names no device function"))?;
    let inst = dev.instances.iter().find(|i| i.sig == sig).ok_or_else(|| {
        format!(
            "no instance of device function `{}` takes ({sig})",
            dev.name
        )
    })?;
    reach(dev, l);
    let mut name = format!("dev_{}", dev.name);
    if !inst.tag.is_empty() {
        name.push('_');
        name.push_str(inst.tag);
    }
    if target == Target::OpenCl && !spaces.is_empty() {
        name.push('_');
        name.push_str(spaces);
    }
    if !emitted.contains(&name) {
        emitted.push(name.clone());
        let mut text = inst.text(target).replace("@self@", &name);
        for (k, tag) in spaces.chars().enumerate() {
            text = text
                .replace(&format!("$s{k}$"), &tag.to_string())
                .replace(&format!("$q{k}$"), opencl_qualifier(tag));
        }
        let text = resolve(target, &text, &(dev.deps)(), emitted, l);
        l.device_fns.push(text);
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    static LEAF: [DeviceInstance; 2] = [
        DeviceInstance {
            tag: "f32",
            sig: "f32",
            cuda: "float @self@(float x) { return x; }",
            opencl: "float @self@(float x) { return x; }",
        },
        DeviceInstance {
            tag: "f64",
            sig: "f64",
            cuda: "double @self@(double x) { return x; }",
            opencl: "double @self@(double x) { return x; }",
        },
    ];
    static LEAF_FN: DeviceFn = DeviceFn {
        name: "leaf",
        instances: &LEAF,
        defines: |_| Vec::new(),
        records: |_| Vec::new(),
        deps: Vec::new,
    };
    static ROW: [DeviceInstance; 1] = [DeviceInstance {
        tag: "",
        sig: "A1f32",
        cuda: "float @self@(rumba_array<float, 1> a) { return @call:0:f32:@(a.data[0]); }",
        opencl: "float @self@(rb_$s0$_float_1 a) { $q0$float* p = a.p; return @call:0:f32:@(p[0]); }",
    }];
    static ROW_FN: DeviceFn = DeviceFn {
        name: "row",
        instances: &ROW,
        defines: |_| Vec::new(),
        records: |_| Vec::new(),
        deps: || vec![&LEAF_FN],
    };

    #[test]
    fn instances_are_chosen_by_signature_and_specialised_by_space() {
        let l = link(
            Target::OpenCl,
            "k(@call:0:A1f32:l@(s), @call:0:A1f32:g@(a), @call:1:f64:@(x))",
            &[&ROW_FN, &LEAF_FN],
        );
        assert_eq!(l.text, "k(dev_row_l(s), dev_row_g(a), dev_leaf_f64(x))");
        assert_eq!(
            l.device_fns,
            [
                "float dev_leaf_f32(float x) { return x; }",
                "float dev_row_l(rb_l_float_1 a) { __local float* p = a.p; return dev_leaf_f32(p[0]); }",
                "float dev_row_g(rb_g_float_1 a) { __global float* p = a.p; return dev_leaf_f32(p[0]); }",
                "double dev_leaf_f64(double x) { return x; }",
            ]
        );
        assert_eq!(l.reached.len(), 2);
        // CUDA reaches every space with one instance.
        let l = link(
            Target::Cuda,
            "@call:0:A1f32:l@(s); @call:0:A1f32:g@(a);",
            &[&ROW_FN],
        );
        assert_eq!(l.text, "dev_row(s); dev_row(a);");
        assert_eq!(l.device_fns.len(), 2);
    }

    #[test]
    fn a_call_no_instance_takes_fails_the_build() {
        let l = link(Target::Cuda, "@call:0:i32:@(x)", &[&LEAF_FN]);
        assert!(
            l.text
                .contains("#error \"rumba: no instance of device function `leaf` takes (i32)\""),
            "{}",
            l.text
        );
    }
}
