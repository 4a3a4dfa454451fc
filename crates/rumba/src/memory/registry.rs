//! Where memory-manager factories are installed and looked up by name.
//!
//! Built in: `default` ([`DefaultManagerFactory`]) and `pool` ([`PoolManagerFactory`]).
//! The installed factory (if any) wins; otherwise the factory registered under the configured
//! name (`RUMBA_MEMORY_MANAGER`, default `default`) builds each new context's manager. Both lists
//! are process-wide; contexts that already exist keep their manager.
//!
//! This module touches only its two globals.

use std::sync::{Arc, Mutex, MutexGuard};

use super::{DefaultManagerFactory, MemoryManagerFactory, PoolManagerFactory, check_version};
use crate::error::{Error, Result};
use crate::sync::lock;

struct Registry {
    installed: Option<Arc<dyn MemoryManagerFactory>>,
    named: Vec<Arc<dyn MemoryManagerFactory>>,
}

static REGISTRY: Mutex<Option<Registry>> = Mutex::new(None);

fn registry() -> MutexGuard<'static, Option<Registry>> {
    let mut g = lock(&REGISTRY);
    g.get_or_insert_with(|| Registry {
        installed: None,
        named: vec![
            Arc::new(DefaultManagerFactory),
            Arc::new(PoolManagerFactory::default()),
        ],
    });
    g
}

/// Installs `factory` for every context created from now on (Numba's `set_memory_manager`).
///
/// Refused with [`Error::InterfaceVersion`] when the factory implements another interface version.
///
/// # Errors
/// [`Error::InterfaceVersion`] naming the factory and both versions when it implements another
/// version of the plugin interface; nothing is installed then.
///
/// ```
/// use std::sync::Arc;
/// let stats = rumba::memory::StatisticsFactory::new(Arc::new(rumba::memory::DefaultManagerFactory));
/// rumba::memory::set_memory_manager(Arc::new(stats)).unwrap();
/// // Contexts created from now on get it (closing the thread's context makes a new one).
/// rumba::close().unwrap();
/// let ctx = rumba::current_context().unwrap();
/// assert!(ctx.memory_manager().name().contains("statistics"), "{}", ctx.memory_manager().name());
/// assert!(ctx.memory_stats().is_ok()); // the adaptor keeps counters
/// ```
pub fn set_memory_manager(factory: Arc<dyn MemoryManagerFactory>) -> Result<()> {
    check_version(&*factory)?;
    if let Some(r) = registry().as_mut() {
        r.installed = Some(factory);
    }
    Ok(())
}

/// Makes `factory` selectable by its name through `RUMBA_MEMORY_MANAGER` (replacing an earlier
/// factory of the same name).
///
/// # Errors
/// [`Error::InterfaceVersion`] naming the factory and both versions when it implements another
/// version of the plugin interface; nothing is registered then.
///
/// ```
/// use std::sync::Arc;
/// use rumba::config::ManagerChoice;
/// use rumba::memory::{DefaultManagerFactory, StatisticsFactory};
/// rumba::memory::register_memory_manager(Arc::new(StatisticsFactory::new(Arc::new(DefaultManagerFactory)))).unwrap();
/// // Selected by its name (`RUMBA_MEMORY_MANAGER=statistics` does the same):
/// let cfg = rumba::Config { memory_manager: ManagerChoice::Named("statistics".into()), ..rumba::Config::from_env().unwrap() };
/// rumba::configure(cfg).unwrap();
/// assert_eq!(rumba::current_context().unwrap().memory_manager().name(), "statistics(default)");
/// ```
pub fn register_memory_manager(factory: Arc<dyn MemoryManagerFactory>) -> Result<()> {
    check_version(&*factory)?;
    if let Some(r) = registry().as_mut() {
        r.named.retain(|f| f.name() != factory.name());
        r.named.push(factory);
    }
    Ok(())
}

/// The factory for a new context: the installed one, else the one registered as `name`.
pub(crate) fn factory_for(name: &str) -> Result<Arc<dyn MemoryManagerFactory>> {
    let guard = registry();
    let Some(r) = guard.as_ref() else {
        return Ok(Arc::new(DefaultManagerFactory));
    };
    if let Some(f) = &r.installed {
        return Ok(Arc::clone(f));
    }
    r.named
        .iter()
        .find(|f| f.name() == name)
        .cloned()
        .ok_or_else(|| Error::InvalidConfig {
            variable: "RUMBA_MEMORY_MANAGER".into(),
            value: name.into(),
            expected: format!(
                "the name of a registered memory manager: {}",
                r.named
                    .iter()
                    .map(|f| f.name().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}
