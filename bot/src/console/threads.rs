//! Threads on the console (ruling T19): the console is one server, and a game
//! that starts there asks for a thread like on Discord. The console opens it
//! at once as a channel named `game-N` under the game's channel, shows the
//! opening, and prints what then goes into it. Type `#game-N` to act there.

use super::Console;
use crate::outbox::OutboxEntry;
use crate::table::{ChannelRef, NameKind, Reply};
use tokio::io::AsyncWrite;

impl<W: AsyncWrite + Unpin> Console<W> {
    /// Opens every thread a game asked for, then prints what waits for delivery.
    pub(super) async fn deliver_waiting(&mut self) -> Result<(), String> {
        loop {
            // What was printed is removed first, or it would be printed again.
            self.delivered.settle().await;
            let due = self.table.outbox_due(usize::MAX).await;
            let asks: Vec<OutboxEntry> = due
                .iter()
                .filter(|e| e.thread().is_some())
                .cloned()
                .collect();
            if asks.is_empty() {
                let mut replies = Vec::new();
                for e in due {
                    let images = self.table.outbox_images(&e).await;
                    replies.push(e.to_reply(images));
                }
                return self.print(&replies).await;
            }
            for e in asks {
                let Some((parent, guild, name)) = e.thread() else {
                    continue;
                };
                let handle = format!("game-{}", e.game.unwrap_or(e.id));
                let id = self
                    .names
                    .id(&self.table, NameKind::Channel, &handle)
                    .await?;
                let at = ChannelRef {
                    id,
                    name: handle.clone(),
                    guild,
                    parent: Some(parent.id),
                    threads: crate::table::ThreadSupport::Unknown,
                };
                let opened = Reply::public(
                    &ChannelRef::from(parent),
                    format!("(thread #{handle} opened here: \"{name}\")"),
                );
                if let Err(e) = self.table.thread_opened(e.id, &at).await {
                    // Left waiting: the next line tries again.
                    tracing::warn!(error = %e, "cannot open a console thread");
                    return Ok(());
                }
                self.threads.insert(id, parent.id);
                self.print(&[opened]).await?;
            }
        }
    }

    /// A message's text as the console shows it: a channel link `<#id>` as `#name`.
    pub(super) fn shown(&self, content: &str) -> String {
        if !content.contains("<#") {
            return content.to_string();
        }
        let mut out = content.to_string();
        for (name, id) in &self.names.channels {
            out = out.replace(&format!("<#{id}>"), &format!("#{name}"));
        }
        out
    }
}
