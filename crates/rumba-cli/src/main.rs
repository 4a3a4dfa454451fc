//! The `rumba` command: `detect` prints the backend and its devices; `selftest` runs the
//! library's conformance checks on the current backend and exits non-zero if any fails; `demo`
//! runs a short tour of the library, printing what each step did and how long it took; `bench`
//! runs the peer workloads (`scripts/peers/workloads.md`) and compares them with the peers; `ipc`
//! shares a device array with another process (for scripts and other libraries); `memviz` draws a
//! memory history.
//!
//! Errors (for example a malformed `RUMBA_*` variable) are printed as one line naming the problem,
//! and the command exits with status 2 for configuration errors and for arguments it cannot
//! honour (clap's own refusals of malformed or out-of-range values exit with 2 too), 1 for
//! anything else.
//!
//! This module touches the command line, the `RUMBA_*` environment (through `rumba::Config`),
//! stdout/stderr and the exit status; everything else goes through the modules below.

mod bench;
mod demo;
mod ipc;
mod json;
mod kernels;
mod memviz;
mod selftest;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "rumba",
    version,
    about = "Numba's GPU memory model in Rust: device detection, a self-test, a demo and benchmarks"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the backend in use (sim, cuda or opencl), every device with its memory, and the
    /// OpenCL platforms and devices of the machine with their capabilities.
    Detect {
        /// Also print the memory manager's statistics and a snapshot of its segments and blocks.
        #[arg(long)]
        memory: bool,
    },
    /// Run the library's conformance checks on the current backend (exit status 1 on a failure).
    Selftest(selftest::SelftestArgs),
    /// Run a short tour of the library, timing each step.
    Demo,
    /// Open a device array exported by another process (the demo's IPC step runs this as its
    /// child), print its values and set its first element to -1.
    #[command(hide = true)]
    IpcOpen {
        /// The handle, as `IpcArrayHandle`'s text form.
        handle: String,
    },
    /// Run the peer workloads (vadd, matmul_shared, reduce_shared) and compare with the peers.
    Bench(bench::BenchArgs),
    /// Share a device array with another process through an IPC handle.
    #[command(subcommand)]
    Ipc(ipc::IpcCommand),
    /// Draw a memory history (RUMBA_MEMORY_HISTORY, rumba::memory::history::dump) as an SVG
    /// picture or a self-contained HTML page: live bytes stacked by allocation, the pool's
    /// reserved vs used bytes, and the state at each out-of-memory failure.
    Memviz(memviz::MemvizArgs),
}

/// Prints the current context's memory manager, its limit, its statistics and its snapshot
/// (where the manager keeps them; `RUMBA_MEMORY_MANAGER=pool` does).
pub(crate) fn print_memory() -> rumba::Result<()> {
    let ctx = rumba::current_context()?;
    let mm = ctx.memory_manager();
    println!("memory manager: {}", mm.name());
    match mm.device_resource().limiter().and_then(|l| l.limit()) {
        Some(limit) => println!("memory limit: {limit} bytes (RUMBA_MEMORY_LIMIT)"),
        None => println!("memory limit: none"),
    }
    match rumba::memory_stats() {
        Ok(s) => println!("{s}"),
        Err(why @ rumba::Error::Resource(rumba::error::ResourceError::Unsupported { .. })) => {
            println!("statistics: {why}")
        }
        Err(e) => return Err(e),
    }
    match rumba::memory_snapshot() {
        Ok(s) => print!("{s}"),
        Err(why @ rumba::Error::Resource(rumba::error::ResourceError::Unsupported { .. })) => {
            println!("snapshot: {why}")
        }
        Err(e) => return Err(e),
    }
    Ok(())
}

/// The memory manager of the current context and the resources it allocates through, down to
/// the driver's own allocator (every backend).
fn print_resource_chain() {
    match rumba::current_context() {
        Ok(ctx) => {
            let mm = ctx.memory_manager();
            println!(
                "memory resources: manager '{}': {}",
                mm.name(),
                rumba::memory::describe_chain(&**mm.device_resource())
            );
        }
        Err(e) => println!("memory resources: unknown ({e})"),
    }
}

/// The CUDA driver's version and the NVRTC library rumba uses (whatever backend is in use: the
/// same binary runs on GPU machines with CUDA 12 or 13).
#[cfg(feature = "cuda")]
fn print_cuda_libraries() {
    println!("{}", rumba::driver::cuda::Libraries::survey());
}

#[cfg(not(feature = "cuda"))]
fn print_cuda_libraries() {
    println!("CUDA: not built in (cargo feature `cuda`)");
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Detect { memory } => {
            let report = rumba::detect();
            if let Ok(r) = &report {
                println!("{r}");
                print_resource_chain();
            }
            // Also when the backend cannot start: the libraries found often say why.
            print_cuda_libraries();
            report.and_then(|_| if memory { print_memory() } else { Ok(()) })
        }
        Command::Selftest(args) => match selftest::run(&args) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::FAILURE,
            Err(e) => Err(e),
        },
        Command::Demo => demo::run(),
        Command::IpcOpen { handle } => demo::ipc_open(&handle),
        Command::Bench(args) => match bench::run(&args) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::FAILURE,
            Err(e) => Err(e),
        },
        Command::Ipc(cmd) => ipc::run(&cmd),
        Command::Memviz(args) => memviz::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rumba: {e}");
            match e {
                rumba::Error::InvalidConfig { .. }
                | rumba::Error::BackendUnavailable { .. }
                | rumba::Error::InvalidArgument(_)
                // A handle given on the command line that is not one.
                | rumba::Error::Ipc(rumba::error::IpcError::Malformed { .. }) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}
