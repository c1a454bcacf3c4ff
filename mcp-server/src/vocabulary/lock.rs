//! One way to take a lock: a lock poisoned by a panic elsewhere is still
//! taken, because nothing here leaves shared state half-written while it
//! holds one.

use std::sync::{Mutex, MutexGuard};

/// Locks `mutex`, poisoned or not.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}
