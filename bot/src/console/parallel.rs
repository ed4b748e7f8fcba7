//! Commands of different games at once (`--parallel N`), as the bot serves
//! players on Discord: a command that names a game goes to the table while
//! earlier ones still run, unless one of them names the same game; any other
//! line (a new game, a setting, `~advance`) waits until every earlier command
//! is done. What the table answers is printed in the order of the input, so
//! a run prints the same as one command at a time when games draw on no
//! shared chance while they are played, except that messages that wait in
//! the outbox (a thread's opening, a reminder) are printed once nothing runs.

use super::{Console, Line};
use crate::table::{Reply, Request};
use std::collections::VecDeque;
use tokio::io::AsyncWrite;
use tokio::task::JoinHandle;
use tracing::error;

/// Commands handed to the table and not yet printed, oldest first, each with
/// the game it names.
#[derive(Default)]
pub(super) struct InFlight {
    queue: VecDeque<(String, JoinHandle<Vec<Reply>>)>,
}

/// The game a command names by number, which keeps it apart from the
/// commands of other games (`/new game:arcana` names a kind, not a game).
pub(super) fn game_of(line: &Line) -> Option<String> {
    let Line::Command { options, .. } = line else {
        return None;
    };
    let (_, value) = options.iter().find(|(k, _)| k == "game")?;
    let number = value.trim().trim_start_matches('#');
    number.parse::<u64>().is_ok().then(|| number.to_string())
}

impl<W: AsyncWrite + Unpin> Console<W> {
    /// Hands `req`, which names `game`, to the table beside the commands
    /// already running, once no earlier one names that game and fewer than
    /// `--parallel` run.
    pub(super) async fn start(&mut self, game: String, req: Request) -> Result<(), String> {
        while self.flight.queue.len() >= self.cfg.parallel
            || self.flight.queue.iter().any(|(g, _)| *g == game)
        {
            self.finish_one().await?;
        }
        let table = self.table.clone();
        let task = tokio::spawn(async move { table.handle(req).await });
        self.flight.queue.push_back((game, task));
        Ok(())
    }

    /// Prints what every running command answered, in the order of the input.
    pub(super) async fn finish_all(&mut self) -> Result<(), String> {
        while !self.flight.queue.is_empty() {
            self.finish_one().await?;
        }
        Ok(())
    }

    /// Waits for the oldest running command and prints its answer.
    async fn finish_one(&mut self) -> Result<(), String> {
        let Some((game, task)) = self.flight.queue.pop_front() else {
            return Ok(());
        };
        let replies = match task.await {
            Ok(replies) => replies,
            Err(e) => {
                error!(game = %game, error = %e, "console command task");
                vec![self.error(
                    None,
                    "That command stopped before it answered; look at the game before trying it again.",
                )]
            }
        };
        self.print(&replies).await?;
        // What waits in the outbox is printed only when nothing runs: a
        // running command's announcement is stored before its answer comes
        // back, and would be printed twice.
        if self.flight.queue.is_empty() {
            self.deliver_waiting().await?;
        }
        Ok(())
    }
}
