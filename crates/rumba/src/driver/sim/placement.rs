//! The simulator's managed-memory page table: where each [`SIM_PAGE`]-byte page of every managed
//! allocation lives, the advice given on it, and every move counted — so that a program's
//! placement (prefetches, advice, which side touches what) can be tested without a GPU.
//!
//! Rules, after CUDA's on a device with concurrent managed access: a new allocation's pages are
//! on the host; a prefetch moves the range's pages to its destination; an access from a side
//! where a page is not moves it there, unless the page is read-mostly (the reader gets a copy),
//! the accessing device was given accessed-by advice, or the page sits at its preferred location
//! (the others map it). The data itself never moves: the sim's host and devices share the memory.
//!
//! This module touches only its table.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::SimDriver;
use crate::driver::placement::SIM_PAGE;
use crate::driver::{Advice, Location, Migrations, Placement, Residency, StreamHandle};
use crate::error::{Error, Result};
use crate::sync::lock;

pub(super) struct Pages {
    bytes: usize,
    pages: Vec<Location>,
    read_mostly: bool,
    preferred: Option<Location>,
    accessed_by: Vec<usize>,
    migrations: Migrations,
}

impl Pages {
    /// Moves page `i` to `to`, counting it.
    fn put(&mut self, i: usize, to: Location) -> Migrations {
        if self.pages[i] == to {
            return Migrations::default();
        }
        self.pages[i] = to;
        let m = Migrations {
            to_host: u64::from(to == Location::Host),
            to_device: u64::from(to != Location::Host),
            bytes: SIM_PAGE as u64,
        };
        self.migrations.add(m);
        m
    }
}

/// Managed allocations by base address.
#[derive(Default)]
pub(super) struct PageTable(Mutex<BTreeMap<usize, Pages>>);

impl PageTable {
    pub(super) fn add(&self, base: *mut u8, bytes: usize) {
        let pages = Pages {
            bytes,
            pages: vec![Location::Host; bytes.div_ceil(SIM_PAGE)],
            read_mostly: false,
            preferred: None,
            accessed_by: Vec::new(),
            migrations: Migrations::default(),
        };
        self.put(base, pages);
    }

    /// Takes the allocation at `base` out of the table (to be put back with [`put`](Self::put)
    /// if its memory cannot be freed). Done before the memory is freed: the allocator may hand the
    /// address out again at once, and the new allocation's entry must not be removed with it.
    pub(super) fn take(&self, base: *mut u8) -> Option<Pages> {
        lock(&self.0).remove(&(base as usize))
    }

    /// Puts `pages` in the table at `base` (a new allocation's, or back what
    /// [`take`](Self::take) took).
    pub(super) fn put(&self, base: *mut u8, pages: Pages) {
        lock(&self.0).insert(base as usize, pages);
    }

    /// Runs `f` on the allocation holding `[ptr, ptr + bytes)` and the range's page indices.
    fn with<T>(
        &self,
        ptr: *mut u8,
        bytes: usize,
        f: impl FnOnce(&mut Pages, std::ops::Range<usize>) -> T,
    ) -> Result<T> {
        let mut table = lock(&self.0);
        let addr = ptr as usize;
        let found = table.range_mut(..=addr).next_back().and_then(|(&base, p)| {
            let off = addr - base;
            (off.checked_add(bytes)? <= p.bytes).then_some((off, p))
        });
        let Some((off, pages)) = found else {
            return Err(Error::InvalidArgument(format!(
                "{ptr:p} (+{bytes} bytes) is not inside a managed allocation of the simulator"
            )));
        };
        let first = off / SIM_PAGE;
        let last = (off + bytes.max(1)).div_ceil(SIM_PAGE);
        Ok(f(pages, first..last))
    }
}

impl SimDriver {
    fn location(&self, at: Location) -> Result<()> {
        match at {
            Location::Host => Ok(()),
            Location::Device(d) => self.device(d).map(drop),
        }
    }
}

impl Placement for SimDriver {
    fn prefetch(
        &self,
        device: usize,
        ptr: *mut u8,
        bytes: usize,
        to: Location,
        _stream: StreamHandle,
    ) -> Result<Migrations> {
        self.device(device)?;
        self.location(to)?;
        self.pages.with(ptr, bytes, |p, range| {
            let mut moved = Migrations::default();
            for i in range {
                moved.add(p.put(i, to));
            }
            moved
        })
    }

    fn advise(&self, device: usize, ptr: *mut u8, bytes: usize, advice: Advice) -> Result<()> {
        self.device(device)?;
        match advice {
            Advice::PreferredLocation(Some(at)) => self.location(at)?,
            Advice::AccessedBy(d, _) => self.location(Location::Device(d))?,
            _ => {}
        }
        self.pages.with(ptr, bytes, |p, _| match advice {
            Advice::ReadMostly(on) => p.read_mostly = on,
            Advice::PreferredLocation(at) => p.preferred = at,
            Advice::AccessedBy(d, true) => {
                if !p.accessed_by.contains(&d) {
                    p.accessed_by.push(d);
                }
            }
            Advice::AccessedBy(d, false) => p.accessed_by.retain(|&x| x != d),
        })
    }

    fn touch(&self, ptr: *mut u8, bytes: usize, by: Location) -> Migrations {
        let moved = self.pages.with(ptr, bytes, |p, range| {
            let mapped = match by {
                Location::Device(d) => p.accessed_by.contains(&d),
                Location::Host => false,
            };
            let mut moved = Migrations::default();
            for i in range {
                let stays = p.read_mostly || mapped || p.preferred == Some(p.pages[i]);
                if !stays {
                    moved.add(p.put(i, by));
                }
            }
            moved
        });
        moved.unwrap_or_default()
    }

    fn residency(&self, ptr: *mut u8, bytes: usize) -> Option<Residency> {
        self.pages
            .with(ptr, bytes, |p, range| {
                let mut r = Residency {
                    page_size: SIM_PAGE,
                    read_mostly: p.read_mostly,
                    preferred: p.preferred,
                    accessed_by: p.accessed_by.clone(),
                    migrations: p.migrations,
                    ..Residency::default()
                };
                for i in range {
                    match p.pages[i] {
                        Location::Host => r.host_pages += 1,
                        Location::Device(d) => match r.device_pages.iter_mut().find(|e| e.0 == d) {
                            Some(e) => e.1 += 1,
                            None => r.device_pages.push((d, 1)),
                        },
                    }
                }
                r.device_pages.sort_unstable();
                r
            })
            .ok()
    }
}
