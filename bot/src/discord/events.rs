//! The gateway events Tokar listens to besides commands (which poise routes), and why:
//!
//! - `INTERACTION_CREATE` for message components: button clicks go to the table.
//! - `CHANNEL_DELETE` and `THREAD_DELETE`: the games of that channel have lost it; the table
//!   tells their players and holds their messages until a player runs /resume elsewhere.
//! - `GUILD_DELETE` when the bot was removed (not an outage, which Discord marks
//!   `unavailable`): every channel of that server is lost the same way.
//!
//! All of them come with the non-privileged GUILDS intent.
//!
//! Autocomplete requests are not claimed (see `answer::claim`): an autocomplete answer reads
//! the table and changes nothing, so two sessions answering one is harmless; Discord keeps the
//! first answer and refuses the second ("Interaction has already been acknowledged", code
//! 40060, a 400: not one of the 401, 403 and 429 answers that count as invalid requests). A
//! claim would cost a flushed write on every keystroke of every player.
//!
//! Besides poise's events, [`GatewayCounter`] counts the shards' IDENTIFYs and READYs, which
//! serenity gives only to an event handler of its own.

use poise::serenity_prelude as serenity;
use tracing::info;

use super::answer::claim;
use super::buttons::on_click;
use super::data::{CommandError, Data};

/// poise's event hook.
pub(crate) async fn on_event(
    framework: poise::FrameworkContext<'_, Data, CommandError>,
    event: &serenity::FullEvent,
) -> Result<(), CommandError> {
    let table = &framework.user_data.table;
    match event {
        // Claimed first, as a slash command is (see `answer::claim`): a click that another
        // session of the shard claimed is left to it, unanswered here (the last arm).
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(click),
        } if claim(framework.user_data, click.id).await? => on_click(framework, click).await?,
        serenity::FullEvent::ChannelDelete { channel, .. } => {
            info!(channel = channel.id.get(), "channel deleted");
            table.channel_deleted(channel.id.get()).await;
        }
        serenity::FullEvent::ThreadDelete { thread, .. } => {
            info!(thread = thread.id.get(), "thread deleted");
            table.channel_deleted(thread.id.get()).await;
        }
        serenity::FullEvent::GuildDelete { incomplete, full } if !incomplete.unavailable => {
            info!(
                guild = incomplete.id.get(),
                "the bot was removed from a server"
            );
            if let Some(guild) = full {
                let ids = guild
                    .channels
                    .keys()
                    .chain(guild.threads.iter().map(|t| &t.id));
                for id in ids {
                    table.channel_deleted(id.get()).await;
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Counts what the gateway costs of Discord's session-start budget (see `crate::metrics`).
///
/// Serenity 0.12 sets a shard's stage to `Identifying` right after it sent an IDENTIFY
/// (`Shard::identify`) and reports the change as a `ShardStageUpdate`; a RESUME goes through
/// `Resuming` instead, and does not spend the budget ("Session Start Limit": only IDENTIFY
/// counts, developers/events/gateway.mdx). A READY comes only after an accepted IDENTIFY.
/// Serenity compares the stage before and after each gateway event, so an IDENTIFY whose stage
/// was gone again within one event would go uncounted; READY counts the accepted ones exactly.
pub(crate) struct GatewayCounter;

#[serenity::async_trait]
impl serenity::EventHandler for GatewayCounter {
    async fn shard_stage_update(
        &self,
        _ctx: serenity::Context,
        event: serenity::ShardStageUpdateEvent,
    ) {
        if event.new == serenity::ConnectionStage::Identifying
            && event.old != serenity::ConnectionStage::Identifying
        {
            crate::metrics::identify_attempt(event.shard_id.0);
        }
    }

    async fn ready(&self, _ctx: serenity::Context, ready: serenity::Ready) {
        let shard = ready.shard.map_or(0, |s| s.id.0);
        crate::metrics::session_ready(shard);
    }
}
