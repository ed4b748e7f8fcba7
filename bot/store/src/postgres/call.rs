//! How a blocking [`Kv`](crate::kv::Kv) call reaches the server: on the
//! calling thread, inside the tokio runtime the store was opened on.
//!
//! The store's interface is blocking, and the table calls it from
//! `spawn_blocking` threads. On such a thread (and on any thread outside an
//! async task) [`Handle::block_on`] polls the call's future right there: the
//! request goes out to the connection's task and the answer wakes the caller
//! directly, with no task and no channel between them.
//!
//! The connections' own tasks (tokio-postgres's socket readers, which deadpool
//! spawns when it opens a connection) live on the store's *home* runtime:
//!
//! - opened inside a multi-thread tokio runtime (the bot's `main`, the
//!   operations `backup`, `check`, `migrate`, `restore`, the table's
//!   `spawn_blocking` threads): that runtime. There is no second runtime.
//! - opened outside any runtime, or inside a current-thread one (a plain
//!   `#[test]`, `#[tokio::test]`, a tool without tokio): a small runtime of
//!   the store's own (two threads), since a current-thread runtime only
//!   moves its connections while its one thread is free, which a blocking
//!   call would not let it be.
//!
//! A call made on a multi-thread runtime's worker (an async task calling the
//! blocking interface) runs inside [`tokio::task::block_in_place`], which
//! hands the worker's other tasks to another thread first. A call made from a
//! current-thread runtime's thread (its task, or one of its blocking threads:
//! tokio does not tell them apart) cannot block there, so its future runs on
//! the home runtime (never a current-thread one) and the caller waits on a
//! channel: the one case with a hop, for tests and tools, never the table.

use super::{PgKv, StoreError};
use std::future::Future;
use tokio::runtime::{Handle, Runtime, RuntimeFlavor};

/// The runtime a store's connections live on (see the module).
pub(super) struct Home {
    handle: Handle,
    /// The store's own runtime, when it was opened outside a multi-thread
    /// one; `None` otherwise, and while dropping.
    own: Option<Runtime>,
}

impl Home {
    /// The runtime the calling thread belongs to when it is a multi-thread
    /// one; otherwise a runtime of the store's own.
    pub(super) fn here() -> Result<Home, StoreError> {
        if let Ok(handle) = Handle::try_current() {
            if handle.runtime_flavor() == RuntimeFlavor::MultiThread {
                return Ok(Home { handle, own: None });
            }
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("tokar-postgres")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Database(format!("cannot start its threads: {e}")))?;
        Ok(Home {
            handle: runtime.handle().clone(),
            own: Some(runtime),
        })
    }

    /// Whether the store runs a runtime of its own.
    pub(super) fn is_own(&self) -> bool {
        self.own.is_some()
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        // Dropping a runtime waits for its threads, which panics inside
        // another runtime; the connections' tasks need no goodbye.
        if let Some(runtime) = self.own.take() {
            runtime.shutdown_background();
        }
    }
}

impl PgKv {
    /// Whether this store runs a runtime of its own, which it does only when
    /// it was opened outside a multi-thread tokio runtime (see the module).
    pub fn runs_own_runtime(&self) -> bool {
        self.home.is_own()
    }

    /// Runs `work` to its end for a blocking caller (see the module).
    pub(super) fn run<T: Send + 'static>(
        &self,
        work: impl Future<Output = T> + Send + 'static,
    ) -> Result<T, StoreError> {
        let home = &self.home.handle;
        let on_current_thread_runtime = Handle::try_current()
            .is_ok_and(|current| current.runtime_flavor() == RuntimeFlavor::CurrentThread);
        if !on_current_thread_runtime {
            // Outside any task this runs `block_on` as is; on a worker of a
            // multi-thread runtime it first hands the worker's tasks over.
            return Ok(tokio::task::block_in_place(|| home.block_on(work)));
        }
        let (done, outcome) = std::sync::mpsc::sync_channel(1);
        home.spawn(async move {
            let _ = done.send(work.await);
        });
        // The sender is dropped unsent only when the task panicked or the
        // runtime is shutting down.
        outcome
            .recv()
            .map_err(|_| StoreError::Database("a database call was cut short".into()))
    }
}
