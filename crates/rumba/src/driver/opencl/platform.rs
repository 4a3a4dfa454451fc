//! Discovery: the OpenCL platforms and devices of this machine with the capabilities rumba needs
//! (shared virtual memory kinds, memory sizes, work-group limits, profiling, extensions), and the
//! choice of platform and devices from `RUMBA_OPENCL_PLATFORM` / `RUMBA_OPENCL_DEVICE`.
//!
//! [`survey`] never panics: without an OpenCL library (no ICD loader), without a platform, or with
//! a platform that fails its queries, it returns the reason as text. `rumba detect` prints the
//! survey whatever backend runs. The choice ([`select`]) is pure code over a survey and is
//! unit-tested with made-up platforms.
//!
//! This module touches OpenCL's platform and device queries only.

use std::fmt;

use cl3::platform::{
    CL_PLATFORM_NAME, CL_PLATFORM_VENDOR, CL_PLATFORM_VERSION, get_platform_data, get_platform_ids,
};
use opencl3::device::{
    CL_DEVICE_EXTENSIONS, CL_DEVICE_GLOBAL_MEM_SIZE, CL_DEVICE_HOST_UNIFIED_MEMORY,
    CL_DEVICE_LOCAL_MEM_SIZE, CL_DEVICE_MAX_COMPUTE_UNITS, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
    CL_DEVICE_MAX_WORK_GROUP_SIZE, CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_NAME,
    CL_DEVICE_OPENCL_C_VERSION, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, CL_DEVICE_SINGLE_FP_CONFIG,
    CL_DEVICE_SVM_ATOMICS, CL_DEVICE_SVM_CAPABILITIES, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER,
    CL_DEVICE_SVM_FINE_GRAIN_BUFFER, CL_DEVICE_SVM_FINE_GRAIN_SYSTEM, CL_DEVICE_TYPE,
    CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
    CL_DEVICE_VENDOR, CL_DEVICE_VERSION, CL_DEVICE_WARP_SIZE_NV, CL_DEVICE_WAVEFRONT_WIDTH_AMD,
    CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, get_device_data, get_device_ids,
};
use opencl3::types::{cl_device_id, cl_platform_id};

use super::error::map;
use crate::config::human_bytes;
use crate::config::{Config, OpenClSelector};

/// Extensions worth knowing about for rumba's kernels, in the order `rumba detect` lists them.
pub const NOTABLE_EXTENSIONS: [&str; 10] = [
    "cl_khr_fp64",
    "cl_khr_fp16",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_local_int32_base_atomics",
    "cl_khr_subgroups",
    "cl_intel_subgroups",
    "cl_amd_device_attribute_query",
    "cl_nv_device_attribute_query",
];

/// Which kinds of shared virtual memory a device offers (`CL_DEVICE_SVM_CAPABILITIES`).
///
/// ```
/// use rumba::driver::opencl::SvmCaps;
/// let pocl = SvmCaps::from_bits(0xb);
/// assert!(pocl.coarse_buffer && pocl.fine_buffer && pocl.atomics && !pocl.fine_system);
/// assert_eq!(pocl.to_string(), "coarse-grain buffer, fine-grain buffer, atomics");
/// assert_eq!(SvmCaps::default().to_string(), "none");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SvmCaps {
    /// `clSVMAlloc` buffers shared at synchronisation points (what device memory needs).
    pub coarse_buffer: bool,
    /// `clSVMAlloc` buffers coherent between host and device while kernels run.
    pub fine_buffer: bool,
    /// Any host memory (`malloc`) is addressable by the device.
    pub fine_system: bool,
    /// Atomics on fine-grained SVM are coherent with the host.
    pub atomics: bool,
}

impl SvmCaps {
    /// Decodes the capability bits.
    pub fn from_bits(bits: u64) -> SvmCaps {
        SvmCaps {
            coarse_buffer: bits & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER != 0,
            fine_buffer: bits & CL_DEVICE_SVM_FINE_GRAIN_BUFFER != 0,
            fine_system: bits & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM != 0,
            atomics: bits & CL_DEVICE_SVM_ATOMICS != 0,
        }
    }
}

impl fmt::Display for SvmCaps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kinds: Vec<&str> = [
            (self.coarse_buffer, "coarse-grain buffer"),
            (self.fine_buffer, "fine-grain buffer"),
            (self.fine_system, "fine-grain system"),
            (self.atomics, "atomics"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        if kinds.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&kinds.join(", "))
        }
    }
}

/// One OpenCL device as the survey found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceSurvey {
    /// Position within its platform (as `clinfo -l` lists it).
    pub index: usize,
    /// `CL_DEVICE_NAME`.
    pub name: String,
    /// `CL_DEVICE_VENDOR`.
    pub vendor: String,
    /// `CL_DEVICE_VERSION`, e.g. "OpenCL 3.0 PoCL …".
    pub version: String,
    /// `CL_DEVICE_OPENCL_C_VERSION`.
    pub c_version: String,
    /// "CPU", "GPU", "accelerator" or "other".
    pub kind: &'static str,
    /// `CL_DEVICE_GLOBAL_MEM_SIZE` in bytes.
    pub global_memory: u64,
    /// `CL_DEVICE_MAX_MEM_ALLOC_SIZE`: the largest single allocation.
    pub max_allocation: u64,
    /// `CL_DEVICE_LOCAL_MEM_SIZE`: shared (local) memory per work-group.
    pub local_memory: u64,
    /// `CL_DEVICE_MAX_WORK_GROUP_SIZE`.
    pub max_work_group: u64,
    /// `CL_DEVICE_MAX_WORK_ITEM_SIZES`: the largest work-group along x, y, z.
    pub max_work_item_sizes: [u64; 3],
    /// `CL_DEVICE_MAX_COMPUTE_UNITS`.
    pub compute_units: u32,
    /// Shared virtual memory kinds.
    pub svm: SvmCaps,
    /// `CL_DEVICE_HOST_UNIFIED_MEMORY`: device and host share physical memory.
    pub host_unified: bool,
    /// Whether host queues can time commands (`CL_QUEUE_PROFILING_ENABLE`).
    pub profiling: bool,
    /// The hardware's warp or wavefront width where a vendor extension tells it (NVIDIA, AMD);
    /// 1 otherwise. Kernels see 32-lane warps regardless (`DeviceInfo::warp_size`).
    pub warp_size: u32,
    /// The [`NOTABLE_EXTENSIONS`] the device has.
    pub extensions: Vec<String>,
    /// `CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT` in `CL_DEVICE_SINGLE_FP_CONFIG`: `f32` division and
    /// square root can be built bit-exact with the simulator.
    pub exact_f32_divide: bool,
}

impl DeviceSurvey {
    /// `Ok` when rumba's OpenCL backend can use the device, else why not.
    ///
    /// # Errors
    /// The reason, as text, when the device has no coarse-grained shared virtual memory (naming the
    /// device and its OpenCL version); [`detect`](crate::detect) shows it next to the device.
    ///
    /// ```
    /// let d = rumba::driver::opencl::DeviceSurvey::example();
    /// assert!(d.usable().is_ok());
    /// let old = rumba::driver::opencl::DeviceSurvey { svm: Default::default(), ..d };
    /// assert!(old.usable().unwrap_err().contains("shared virtual memory"));
    /// ```
    pub fn usable(&self) -> Result<(), String> {
        if self.svm.coarse_buffer {
            Ok(())
        } else {
            Err(format!(
                "{} ({}) has no coarse-grained shared virtual memory, which rumba's OpenCL backend needs: device pointers are SVM addresses so that offsets and views work as on every other backend (OpenCL 2.0 made it mandatory; 3.0 made it optional)",
                self.name, self.version
            ))
        }
    }

    /// A made-up device with PoCL's capabilities, for examples and tests.
    pub fn example() -> DeviceSurvey {
        DeviceSurvey {
            index: 0,
            name: "pthread-example".into(),
            vendor: "example".into(),
            version: "OpenCL 3.0 example".into(),
            c_version: "OpenCL C 1.2".into(),
            kind: "CPU",
            global_memory: 8 << 30,
            max_allocation: 2 << 30,
            local_memory: 1 << 20,
            max_work_group: 4096,
            max_work_item_sizes: [4096; 3],
            compute_units: 2,
            svm: SvmCaps::from_bits(0xb),
            host_unified: true,
            profiling: true,
            warp_size: 1,
            extensions: vec!["cl_khr_fp64".into()],
            exact_f32_divide: true,
        }
    }
}

/// One OpenCL platform and its devices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlatformSurvey {
    /// Position in the platform list (as `clinfo -l` lists it).
    pub index: usize,
    /// `CL_PLATFORM_NAME`.
    pub name: String,
    /// `CL_PLATFORM_VENDOR`.
    pub vendor: String,
    /// `CL_PLATFORM_VERSION`.
    pub version: String,
    /// Its devices; a device whose queries failed is left out and named in `problems`.
    pub devices: Vec<DeviceSurvey>,
    /// Queries that failed on this platform.
    pub problems: Vec<String>,
}

/// Every OpenCL platform and device of this machine, or why there is none.
///
/// ```
/// match rumba::driver::opencl::survey() {
///     Ok(platforms) => assert!(!platforms.is_empty()),
///     Err(why) => assert!(!why.is_empty()),
/// }
/// ```
///
/// # Errors
/// The reason as text when no OpenCL library can be loaded, the loader finds no platform, or
/// the platform list cannot be read.
pub fn survey() -> Result<Vec<PlatformSurvey>, String> {
    if let Err(e) = cl3::load_library() {
        return Err(format!(
            "no OpenCL library could be loaded (looked for libOpenCL.so.1{}): {e}; install an ICD loader and a driver, e.g. Debian's ocl-icd-libopencl1 and pocl-opencl-icd",
            match std::env::var("OPENCL_DYLIB_PATH") {
                Ok(p) => format!(" and OPENCL_DYLIB_PATH={p}"),
                Err(_) => String::new(),
            }
        ));
    }
    let ids = get_platform_ids().map_err(|code| {
        format!(
            "the OpenCL loader lists no platform ({}); is an ICD (e.g. pocl-opencl-icd) installed under /etc/OpenCL/vendors or OCL_ICD_VENDORS?",
            map("clGetPlatformIDs", code)
        )
    })?;
    if ids.is_empty() {
        return Err(
            "the OpenCL loader lists no platform; is an ICD (e.g. pocl-opencl-icd) installed under /etc/OpenCL/vendors or OCL_ICD_VENDORS?"
                .into(),
        );
    }
    Ok(ids
        .iter()
        .enumerate()
        .map(|(i, &p)| survey_platform(i, p).0)
        .collect())
}

/// The survey of one platform and the raw ids of its devices (same order as `devices`).
pub(crate) fn survey_platform(
    index: usize,
    platform: cl_platform_id,
) -> (PlatformSurvey, Vec<cl_device_id>) {
    let text = |param| {
        get_platform_data(platform, param)
            .map(|b: Vec<u8>| c_text(&b))
            .unwrap_or_default()
    };
    let mut survey = PlatformSurvey {
        index,
        name: text(CL_PLATFORM_NAME),
        vendor: text(CL_PLATFORM_VENDOR),
        version: text(CL_PLATFORM_VERSION),
        devices: Vec::new(),
        problems: Vec::new(),
    };
    let mut raw = Vec::new();
    match get_device_ids(platform, CL_DEVICE_TYPE_ALL) {
        Ok(ids) => {
            for (i, id) in ids.into_iter().enumerate() {
                match survey_device(i, id) {
                    Ok(d) => {
                        survey.devices.push(d);
                        raw.push(id);
                    }
                    Err(e) => survey.problems.push(format!("device #{i}: {e}")),
                }
            }
        }
        Err(code) => survey
            .problems
            .push(map("clGetDeviceIDs", code).to_string()),
    }
    (survey, raw)
}

fn c_text(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).trim().to_string()
}

/// An unsigned integer of 4 or 8 bytes (native-endian), as device queries return them.
fn number(bytes: &[u8]) -> u64 {
    match bytes.len() {
        4 => u32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as u64,
        8 => u64::from_ne_bytes([
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        ]),
        _ => 0,
    }
}

fn survey_device(index: usize, id: cl_device_id) -> Result<DeviceSurvey, String> {
    let data = |param| get_device_data(id, param);
    let need = |param, what: &str| {
        data(param).map_err(|code| map(&format!("clGetDeviceInfo({what})"), code).to_string())
    };
    let extensions_all = c_text(&need(CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS")?);
    let has = |ext: &str| extensions_all.split_whitespace().any(|e| e == ext);
    let kind_bits = number(&need(CL_DEVICE_TYPE, "CL_DEVICE_TYPE")?);
    // OpenCL 1.2 devices reject the SVM query: that is "no SVM", not an error.
    let svm = data(CL_DEVICE_SVM_CAPABILITIES)
        .map(|b| SvmCaps::from_bits(number(&b)))
        .unwrap_or_default();
    let sizes = data(CL_DEVICE_MAX_WORK_ITEM_SIZES).unwrap_or_default();
    let word = std::mem::size_of::<usize>();
    let mut max_work_item_sizes = [1u64; 3];
    for (slot, chunk) in max_work_item_sizes.iter_mut().zip(sizes.chunks_exact(word)) {
        *slot = number(chunk);
    }
    let warp_size = if has("cl_nv_device_attribute_query") {
        data(CL_DEVICE_WARP_SIZE_NV)
            .map(|b| number(&b))
            .unwrap_or(1)
    } else if has("cl_amd_device_attribute_query") {
        data(CL_DEVICE_WAVEFRONT_WIDTH_AMD)
            .map(|b| number(&b))
            .unwrap_or(1)
    } else {
        1
    };
    Ok(DeviceSurvey {
        index,
        name: c_text(&need(CL_DEVICE_NAME, "CL_DEVICE_NAME")?),
        vendor: c_text(&data(CL_DEVICE_VENDOR).unwrap_or_default()),
        version: c_text(&data(CL_DEVICE_VERSION).unwrap_or_default()),
        c_version: c_text(&data(CL_DEVICE_OPENCL_C_VERSION).unwrap_or_default()),
        kind: if kind_bits & CL_DEVICE_TYPE_GPU != 0 {
            "GPU"
        } else if kind_bits & CL_DEVICE_TYPE_CPU != 0 {
            "CPU"
        } else if kind_bits & CL_DEVICE_TYPE_ACCELERATOR != 0 {
            "accelerator"
        } else {
            "other"
        },
        global_memory: number(&need(
            CL_DEVICE_GLOBAL_MEM_SIZE,
            "CL_DEVICE_GLOBAL_MEM_SIZE",
        )?),
        max_allocation: number(&need(
            CL_DEVICE_MAX_MEM_ALLOC_SIZE,
            "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
        )?),
        local_memory: number(&data(CL_DEVICE_LOCAL_MEM_SIZE).unwrap_or_default()),
        max_work_group: number(&data(CL_DEVICE_MAX_WORK_GROUP_SIZE).unwrap_or_default()).max(1),
        max_work_item_sizes,
        compute_units: number(&data(CL_DEVICE_MAX_COMPUTE_UNITS).unwrap_or_default()) as u32,
        svm,
        host_unified: number(&data(CL_DEVICE_HOST_UNIFIED_MEMORY).unwrap_or_default()) != 0,
        profiling: number(&data(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES).unwrap_or_default())
            & opencl3::command_queue::CL_QUEUE_PROFILING_ENABLE
            != 0,
        warp_size: warp_size.clamp(1, 1024) as u32,
        extensions: NOTABLE_EXTENSIONS
            .iter()
            .filter(|e| has(e))
            .map(|e| e.to_string())
            .collect(),
        exact_f32_divide: number(&data(CL_DEVICE_SINGLE_FP_CONFIG).unwrap_or_default())
            & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT
            != 0,
    })
}

/// Chooses the platform and devices for the backend: the platform `config.opencl_platform`
/// names (else the first with a usable device), and the device `config.opencl_device` names
/// (else every usable device of that platform). Returns `(platform position, device positions)`.
///
/// ```
/// use rumba::driver::opencl::{DeviceSurvey, PlatformSurvey, select};
/// let p = PlatformSurvey { index: 0, name: "PoCL".into(), vendor: "x".into(), version: "3.0".into(),
///                          devices: vec![DeviceSurvey::example()], problems: vec![] };
/// assert_eq!(select(&[p], &rumba::Config::default()).unwrap(), (0, vec![0]));
/// ```
///
/// # Errors
/// Why nothing can be chosen: a selector that matches nothing (naming what exists), or a platform
/// without a usable device (naming each device's reason).
pub fn select(
    platforms: &[PlatformSurvey],
    config: &Config,
) -> Result<(usize, Vec<usize>), String> {
    let listing = || {
        platforms
            .iter()
            .map(|p| format!("#{} {}", p.index, p.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let candidates: Vec<&PlatformSurvey> = match &config.opencl_platform {
        Some(sel) => {
            let found: Vec<&PlatformSurvey> = platforms
                .iter()
                .filter(|p| sel.matches(p.index, &p.name))
                .take(1)
                .collect();
            if found.is_empty() {
                return Err(format!(
                    "RUMBA_OPENCL_PLATFORM={sel} matches no OpenCL platform (there are: {})",
                    listing()
                ));
            }
            found
        }
        None => platforms.iter().collect(),
    };
    let mut reasons = Vec::new();
    for p in candidates {
        match select_devices(p, config.opencl_device.as_ref()) {
            Ok(devices) => return Ok((p.index, devices)),
            Err(why) => reasons.push(format!("platform #{} {}: {why}", p.index, p.name)),
        }
    }
    Err(reasons.join("; "))
}

fn select_devices(p: &PlatformSurvey, sel: Option<&OpenClSelector>) -> Result<Vec<usize>, String> {
    if let Some(sel) = sel {
        let d = p
            .devices
            .iter()
            .enumerate()
            .find(|(_, d)| sel.matches(d.index, &d.name))
            .ok_or_else(|| {
                format!(
                    "RUMBA_OPENCL_DEVICE={sel} matches none of its devices ({})",
                    p.devices
                        .iter()
                        .map(|d| format!("#{} {}", d.index, d.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        return d.1.usable().map(|()| vec![d.0]);
    }
    let usable: Vec<usize> = p
        .devices
        .iter()
        .enumerate()
        .filter(|(_, d)| d.usable().is_ok())
        .map(|(i, _)| i)
        .collect();
    if usable.is_empty() {
        let mut why: Vec<String> = p.devices.iter().filter_map(|d| d.usable().err()).collect();
        why.extend(p.problems.iter().cloned());
        if why.is_empty() {
            why.push("it has no device".into());
        }
        return Err(why.join("; "));
    }
    Ok(usable)
}

impl fmt::Display for PlatformSurvey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "platform #{} {} ({}; {})",
            self.index, self.name, self.vendor, self.version
        )?;
        for d in &self.devices {
            writeln!(
                f,
                "  device #{} {} [{}] {}, {}",
                d.index, d.name, d.kind, d.version, d.c_version
            )?;
            writeln!(
                f,
                "      memory: {} global, largest allocation {}, local {} per work-group; host-unified: {}",
                human_bytes(d.global_memory as usize),
                human_bytes(d.max_allocation as usize),
                human_bytes(d.local_memory as usize),
                if d.host_unified { "yes" } else { "no" }
            )?;
            writeln!(
                f,
                "      compute units: {}, max work-group: {} ({}×{}×{}), hardware warp/wavefront: {}, profiling: {}",
                d.compute_units,
                d.max_work_group,
                d.max_work_item_sizes[0],
                d.max_work_item_sizes[1],
                d.max_work_item_sizes[2],
                d.warp_size,
                if d.profiling { "yes" } else { "no" }
            )?;
            writeln!(f, "      shared virtual memory: {}", d.svm)?;
            writeln!(
                f,
                "      extensions: {}",
                if d.extensions.is_empty() {
                    "none of note".to_string()
                } else {
                    d.extensions.join(" ")
                }
            )?;
            match d.usable() {
                Ok(()) => writeln!(f, "      usable by rumba: yes")?,
                Err(why) => writeln!(f, "      usable by rumba: no — {why}")?,
            }
        }
        for problem in &self.problems {
            writeln!(f, "  problem: {problem}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn platform(index: usize, name: &str, devices: Vec<DeviceSurvey>) -> PlatformSurvey {
        PlatformSurvey {
            index,
            name: name.into(),
            vendor: "v".into(),
            version: "OpenCL 3.0".into(),
            devices,
            problems: vec![],
        }
    }

    fn device(index: usize, name: &str, svm: u64) -> DeviceSurvey {
        DeviceSurvey {
            index,
            name: name.into(),
            svm: SvmCaps::from_bits(svm),
            ..DeviceSurvey::example()
        }
    }

    #[test]
    fn the_first_platform_with_a_usable_device_is_chosen() {
        let ps = [
            platform(0, "Old Vendor", vec![device(0, "old gpu", 0)]),
            platform(
                1,
                "Portable Computing Language",
                vec![device(0, "cpu", 0xb)],
            ),
        ];
        assert_eq!(select(&ps, &Config::default()).unwrap(), (1, vec![0]));
        let cfg = Config {
            opencl_platform: Some(OpenClSelector::Index(0)),
            ..Config::default()
        };
        let why = select(&ps, &cfg).unwrap_err();
        assert!(
            why.contains("old gpu") && why.contains("shared virtual memory"),
            "{why}"
        );
    }

    #[test]
    fn selectors_pick_by_index_or_name_and_name_what_exists_when_nothing_matches() {
        let ps = [platform(
            0,
            "Intel(R) OpenCL Graphics",
            vec![device(0, "Arc A770", 0x7), device(1, "Iris Xe", 0x1)],
        )];
        let by_name = Config {
            opencl_platform: Some(OpenClSelector::Name("intel".into())),
            opencl_device: Some(OpenClSelector::Name("iris".into())),
            ..Config::default()
        };
        assert_eq!(select(&ps, &by_name).unwrap(), (0, vec![1]));
        assert_eq!(select(&ps, &Config::default()).unwrap(), (0, vec![0, 1]));
        let missing = Config {
            opencl_platform: Some(OpenClSelector::Name("nvidia".into())),
            ..Config::default()
        };
        let why = select(&ps, &missing).unwrap_err();
        assert!(
            why.contains("RUMBA_OPENCL_PLATFORM") && why.contains("#0 Intel"),
            "{why}"
        );
        let no_dev = Config {
            opencl_device: Some(OpenClSelector::Index(5)),
            ..Config::default()
        };
        let why = select(&ps, &no_dev).unwrap_err();
        assert!(
            why.contains("RUMBA_OPENCL_DEVICE=#5") && why.contains("Arc A770"),
            "{why}"
        );
    }

    #[test]
    fn capability_bits_and_numbers_decode() {
        assert_eq!(SvmCaps::from_bits(0x1).to_string(), "coarse-grain buffer");
        assert!(SvmCaps::from_bits(0x4).fine_system);
        assert_eq!(number(&7u32.to_ne_bytes()), 7);
        assert_eq!(number(&(1u64 << 40).to_ne_bytes()), 1 << 40);
        assert_eq!(number(&[1, 2]), 0);
        assert_eq!(c_text(b"PoCL\0\0junk"), "PoCL");
        let shown = platform(0, "P", vec![device(0, "d", 0)]).to_string();
        assert!(shown.contains("usable by rumba: no"), "{shown}");
    }
}
