//! The scheduler's timer: sweeps the table for due reminders, deadline notices and the bot's
//! turns, at start-up (once the gateway is ready) and then every `tick_every`. What a sweep
//! says is stored in the outbox with the sweep's own record, and the delivery worker sends it.
//! Every [`COUNT_EVERY`] it also counts the games in play for the metrics (a scan of the store,
//! too heavy for every sweep).

use std::time::Duration;

use tokio::time::MissedTickBehavior;
use tracing::{debug, error};

use crate::table::Table;

/// How often the games in play are counted.
const COUNT_EVERY: Duration = Duration::from_secs(600);

/// Starts the sweep; the caller aborts the task when the bot stops.
pub(crate) fn spawn(table: Table, every: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut timer = tokio::time::interval(every);
        // After a stall, sweep once rather than in a burst: the table catches up by itself.
        timer.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut counted: Option<tokio::time::Instant> = None;
        loop {
            timer.tick().await;
            if counted.is_none_or(|at| at.elapsed() >= COUNT_EVERY) {
                counted = Some(tokio::time::Instant::now());
                if let Some(n) = table.games_in_play().await {
                    crate::metrics::games_in_play(n);
                }
            }
            let t = table.clone();
            // Its own task: a panic in the table is logged and the next sweep still runs.
            match tokio::spawn(async move { t.tick().await }).await {
                Ok(replies) => debug!(count = replies.len(), "scheduler sweep"),
                Err(e) => error!(error = %e, "scheduler sweep failed"),
            }
        }
    })
}
