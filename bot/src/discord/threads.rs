//! Opening a game's thread for the delivery worker (rulings T19, T20, T22).
//!
//! Creating a thread has no nonce, so a repeated request would open a second
//! thread. Before creating one, the worker looks among the server's active
//! threads for one under the same channel with the game's name (an earlier
//! attempt whose answer was lost, or a kill between Discord's answer and the
//! table's record): the name starts with the game's number, so it names one
//! game. Discord's reference:
//! <https://discord.com/developers/docs/resources/channel#start-thread-without-message> and
//! <https://discord.com/developers/docs/resources/guild#list-active-guild-threads>.

use std::num::NonZeroU64;

use poise::serenity_prelude as serenity;
use tracing::{info, warn};

use crate::outbox::OutboxEntry;
use crate::table::{ChannelRef, Table, ThreadRefusal};

/// What became of one attempt to open a thread.
pub(super) enum Opened {
    /// The thread exists and the table has it.
    Done,
    /// Discord said no for good: the game stays in its channel.
    Refused(ThreadRefusal),
    /// Try again later.
    Retry(serenity::Error),
}

/// Opens (or finds) the thread an entry asks for and tells the table.
pub(super) async fn open(table: &Table, http: &serenity::Http, entry: &OutboxEntry) -> Opened {
    let Some((parent, guild, name)) = entry.thread() else {
        return Opened::Refused(ThreadRefusal::ChannelType);
    };
    let Some(parent_id) = NonZeroU64::new(parent.id).map(serenity::ChannelId::from) else {
        return Opened::Refused(ThreadRefusal::ChannelType);
    };
    let found = match guild.and_then(NonZeroU64::new).map(serenity::GuildId::from) {
        Some(g) => match g.get_active_threads(http).await {
            Ok(data) => data
                .threads
                .into_iter()
                .find(|t| t.parent_id == Some(parent_id) && t.name == name),
            Err(e) => return refusal(e),
        },
        None => None,
    };
    let thread = match found {
        Some(t) => {
            info!(entry = entry.id, thread = %t.id, "found the thread an earlier attempt opened");
            t
        }
        None => {
            // Under an announcement channel a thread is of type 10 ("ANNOUNCEMENT_THREAD: a
            // temporary sub-channel within a GUILD_ANNOUNCEMENT channel"), elsewhere 11
            // (Resources > Channel > Channel Types).
            let kind = if entry.announcement_thread() {
                serenity::ChannelType::NewsThread
            } else {
                serenity::ChannelType::PublicThread
            };
            let builder = serenity::CreateThread::new(name)
                .kind(kind)
                // The longest auto-archive: months-long games post seldom.
                .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
            match parent_id.create_thread(http, builder).await {
                Ok(t) => t,
                Err(e) => return refusal(e),
            }
        }
    };
    let at = ChannelRef {
        id: thread.id.get(),
        name: thread.name.clone(),
        guild,
        parent: Some(parent.id),
        threads: crate::table::ThreadSupport::Unknown,
    };
    match table.thread_opened(entry.id, &at).await {
        Ok(()) => Opened::Done,
        Err(e) => {
            // The thread exists: the next attempt finds it.
            warn!(entry = entry.id, error = %e, "thread opened, but cannot record it");
            Opened::Retry(serenity::Error::Other("cannot record the thread"))
        }
    }
}

/// A failed request: a refusal for good, told to the players by its reason
/// ([`ThreadRefusal::from_answer`]: permissions, the server's active-thread limit, a channel
/// type without threads, any other code), or a retry (429, 5xx, network, 401).
fn refusal(e: serenity::Error) -> Opened {
    if let serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) = &e {
        let status = r.status_code.as_u16();
        super::delivery::count_invalid(status);
        if let Some(why) = ThreadRefusal::from_answer(status, r.error.code as i64) {
            return Opened::Refused(why);
        }
    }
    Opened::Retry(e)
}
