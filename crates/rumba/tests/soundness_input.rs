//! Issue 14, items 9 and 10: hostile numbers and nesting are typed errors, never a panic (an
//! arithmetic overflow in a debug build) or a stack overflow.

mod common;

use std::collections::BTreeMap;

use rumba::interop::{CaiValue, CudaArrayInterface};

fn setup() {
    common::start(|_| {});
}

#[test]
fn extreme_strides_are_typed_errors() {
    setup();
    let wild = [
        isize::MIN,
        isize::MIN + 8,
        isize::MIN / 2,
        isize::MAX,
        isize::MAX - 7,
        isize::MAX / 2 + 8,
        -(1 << 62),
        1 << 62,
    ];
    for &s in &wild {
        // Beyond the address space, misaligned, or (±2^62) merely beyond the device's memory:
        // an error either way.
        assert!(rumba::device_array_with_strides::<f64, _>(2, &[s]).is_err());
        for &t in &wild {
            for shape in [(2usize, 2usize), (3, 1), (1, 3), (0, 2)] {
                // Never a panic; an error or, for shapes that never step, an array.
                let _ = rumba::device_array_with_strides::<u8, _>(shape, &[s, t]);
            }
        }
    }
    let e = rumba::device_array_with_strides::<f64, _>(2, &[isize::MIN + 8]).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "strides [{}] of shape (2,) overflow the address space",
            isize::MIN + 8
        )
    );
}

/// A description whose mask is a description whose mask is … `depth` deep.
fn nested_masks(depth: usize) -> BTreeMap<String, CaiValue> {
    let plain = rumba::device_array::<u8, _>(4, rumba::Order::C)
        .unwrap()
        .cuda_array_interface()
        .to_map();
    let mut map = plain.clone();
    for _ in 0..depth {
        let mut outer = plain.clone();
        outer.insert("mask".into(), CaiValue::Dict(map));
        map = outer;
    }
    map
}

/// Drops a deeply nested value without recursing: the test's own clean-up must not be what
/// overflows the stack.
fn drop_flat(map: BTreeMap<String, CaiValue>) {
    let mut todo = vec![map];
    while let Some(mut m) = todo.pop() {
        if let Some(CaiValue::Dict(inner)) = m.remove("mask") {
            todo.push(inner);
        }
    }
}

#[test]
fn masks_nested_without_bound_are_refused_not_a_stack_overflow() {
    setup();
    if common::not_on(
        &[rumba::config::BackendChoice::OpenCl],
        "masks_nested_without_bound_are_refused_not_a_stack_overflow",
        "the CUDA Array Interface is CUDA's; the opencl backend refuses it",
    ) {
        return;
    }
    let ok = nested_masks(1);
    assert!(CudaArrayInterface::from_map(&ok).unwrap().mask.is_some());
    drop_flat(ok);
    let e = std::thread::Builder::new()
        .stack_size(256 * 1024) // far less than 5,000 recursive parses would need
        .spawn(|| {
            let deep = nested_masks(5000);
            let e = CudaArrayInterface::from_map(&deep).unwrap_err();
            drop_flat(deep);
            e
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert!(
        matches!(
            e,
            rumba::Error::ArrayInterface(rumba::error::ArrayInterfaceError::MaskDepth { max: 8 })
        ),
        "{e}"
    );
}

#[test]
fn an_error_quoting_a_deeply_nested_value_stays_bounded() {
    let mut v = CaiValue::Int(1);
    for _ in 0..100_000 {
        v = CaiValue::Tuple(vec![v]);
    }
    let mut map = BTreeMap::new();
    map.insert("shape".to_string(), v);
    let e = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let e = CudaArrayInterface::from_map(&map).unwrap_err();
            // Take the value apart level by level (its own drop would recurse).
            let mut v = map.remove("shape");
            while let Some(CaiValue::Tuple(mut items)) = v {
                v = items.pop();
            }
            e
        })
        .unwrap()
        .join()
        .expect("no stack overflow");
    assert!(
        matches!(&e, rumba::Error::ArrayInterface(rumba::error::ArrayInterfaceError::Entry {
            key,
            found: Some(_),
            ..
        }) if key == "shape"),
        "{e}"
    );
    let e = e.to_string();
    assert!(e.contains("..."), "{e}");
    assert!(e.len() < 200, "{e}");
}
