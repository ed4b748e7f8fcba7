//! Outbox entries the console has printed are delivered; they are removed
//! from the store in the background, so the next command does not wait for
//! that write to be flushed. Whatever reads the outbox to print what waits
//! there settles these removals first ([`Delivered::settle`]), so an entry is
//! never printed twice in one run. A removal that fails (the disk full, the
//! database away) is remembered by the store, which leaves the entry out of
//! every later read of this run (`storage/delivered.rs`). A run stopped
//! between the print and the
//! removal prints the entry again on its next start, as before: printed is
//! delivered only once the removal is durable.

use crate::table::Table;
use tokio::task::JoinHandle;

/// Removals of printed entries still being written.
#[derive(Default)]
pub(super) struct Delivered {
    pending: Vec<JoinHandle<()>>,
}

impl Delivered {
    /// Removes `ids` (printed just now) in one write, beside whatever runs.
    pub(super) fn mark(&mut self, table: &Table, ids: Vec<u64>) {
        if ids.is_empty() {
            return;
        }
        self.pending.retain(|t| !t.is_finished());
        let table = table.clone();
        self.pending.push(tokio::spawn(async move {
            if let Err(e) = table.outbox_delivered_all(ids.clone()).await {
                tracing::warn!(entries = ?ids, error = %e, "cannot mark outbox entries delivered");
            }
        }));
    }

    /// Waits until every removal asked for so far is written.
    pub(super) async fn settle(&mut self) {
        for task in self.pending.drain(..) {
            if let Err(e) = task.await {
                tracing::warn!(error = %e, "marking outbox entries delivered stopped");
            }
        }
    }
}
