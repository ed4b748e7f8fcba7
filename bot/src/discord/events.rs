//! The gateway events Tokar listens to besides commands (which poise routes), and why:
//!
//! - `INTERACTION_CREATE` for message components: button clicks go to the table.
//! - `CHANNEL_DELETE` and `THREAD_DELETE`: the games of that channel have lost it; the table
//!   tells their players and holds their messages until a player runs /resume elsewhere.
//! - `GUILD_DELETE` when the bot was removed (not an outage, which Discord marks
//!   `unavailable`): every channel of that server is lost the same way.
//!
//! All of them come with the non-privileged GUILDS intent.

use poise::serenity_prelude as serenity;
use tracing::info;

use super::buttons::on_click;
use super::data::{CommandError, Data};

/// poise's event hook.
pub(crate) async fn on_event(
    framework: poise::FrameworkContext<'_, Data, CommandError>,
    event: &serenity::FullEvent,
) -> Result<(), CommandError> {
    let table = &framework.user_data.table;
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(click),
        } => on_click(framework, click).await?,
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
