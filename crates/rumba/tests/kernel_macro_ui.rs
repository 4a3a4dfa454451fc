//! `trybuild` UI tests of `#[rumba::kernel]`: every refused construct and every type conflict is
//! a compile error at the construct's span that says what to write instead. The `.stderr` files
//! under `tests/ui/` are part of the API: review changes to them like changes to docs
//! (`TRYBUILD=overwrite` rewrites them).

#[test]
fn refusals_and_type_conflicts_are_spanned_compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
