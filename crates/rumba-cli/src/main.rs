//! The `rumba` command.
fn main() {}
