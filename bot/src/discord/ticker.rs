//! The scheduler's timer: sweeps the table for due reminders and deadline claims, at start-up
//! and then every `tick_every`, and posts them in each game's channel.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tokio::time::MissedTickBehavior;
use tracing::{debug, error};

use super::deliver::post_in_channel;
use crate::table::Table;

/// Starts the sweep; the caller aborts the task when the bot stops.
pub(crate) fn spawn(
    table: Table,
    http: Arc<serenity::Http>,
    every: Duration,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut timer = tokio::time::interval(every);
        // After a stall, sweep once rather than in a burst: the table catches up by itself.
        timer.set_missed_tick_behavior(MissedTickBehavior::Delay);
        loop {
            timer.tick().await;
            let t = table.clone();
            // Its own task: a panic in the table is logged and the next sweep still runs.
            match tokio::spawn(async move { t.tick().await }).await {
                Ok(replies) => {
                    debug!(count = replies.len(), "scheduler sweep");
                    for reply in &replies {
                        post_in_channel(&http, reply).await;
                    }
                }
                Err(e) => error!(error = %e, "scheduler sweep failed"),
            }
        }
    })
}
