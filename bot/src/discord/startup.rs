//! What a start does over REST before it opens the gateway, so that a start that cannot work
//! stops before it spends an IDENTIFY.
//!
//! 1. GET /gateway/bot: the first request, made with the token, so a refused token (401)
//!    stops here; its `session_start_limit` says how many IDENTIFYs are left today.
//! 2. Enough left: this process's shards, each once, plus a margin for the reconnects that
//!    cannot resume ([`required_starts`]); fewer, and the start is refused.
//! 3. The application's id: `DISCORD_APPLICATION_ID`, else GET /oauth2/applications/@me.
//! 4. The commands registered (the bulk overwrite, globally or in `DISCORD_GUILD_ID`).
//!
//! Each refusal is one log line naming what to do and a non-zero exit; the restart record
//! (`restarts.rs`) then slows the next starts down.

use poise::serenity_prelude as serenity;
use tracing::{error, info};

use super::answer::{count_invalid, invalid_status};
use super::data::{CommandError, Data};
use super::DiscordError;

/// The IDENTIFYs a start needs left: one per shard it starts, and as many again (at least 10)
/// for the day's reconnects that cannot resume ("Reconnecting": a session that cannot be
/// resumed must identify again, developers/events/gateway.mdx). A start that would leave
/// fewer is refused: if it went on and the budget ran out, Discord would reset the token
/// ("Upon hitting this limit, all active sessions for the app will be terminated, the bot
/// token will be reset", "Session Start Limit", developers/events/gateway.mdx).
pub fn required_starts(shards: u32) -> u64 {
    u64::from(shards) + u64::from(shards).max(10)
}

/// Why a refused request stops the start, in one line, with what to do.
fn refused(what: &str, e: &serenity::Error) -> (Option<u16>, String) {
    count_invalid(e);
    let status = invalid_status(e).or_else(|| match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some(r.status_code.as_u16())
        }
        _ => None,
    });
    let text = one_line(&e.to_string());
    (status, format!("{what}: {text}"))
}

fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// Asks Discord whether this start may connect, and registers the commands; see the module's
/// doc. `shards`: how many shards this process starts.
pub(super) async fn before_gateway(
    http: &serenity::Http,
    commands: &[poise::Command<Data, CommandError>],
    guild_id: Option<u64>,
    application_id: Option<u64>,
    shards: u32,
) -> Result<(), DiscordError> {
    let gateway = match http.get_bot_gateway().await {
        Ok(g) => g,
        Err(e) => {
            let (status, why) = refused("GET /gateway/bot", &e);
            return Err(if status == Some(401) {
                crate::metrics::start_refused("token");
                DiscordError::TokenRefused(why)
            } else {
                crate::metrics::start_refused("gateway");
                DiscordError::Startup(format!("cannot ask Discord about the gateway ({why})"))
            });
        }
    };
    let limit = gateway.session_start_limit;
    crate::metrics::session_starts_remaining(limit.remaining);
    let needed = required_starts(shards);
    if limit.remaining < needed {
        crate::metrics::start_refused("session_starts");
        let hours = limit.reset_after as f64 / 3_600_000.0;
        return Err(DiscordError::SessionStarts(format!(
            "Discord allows {} more IDENTIFY of {} until its reset in {hours:.1} h, and \
             starting {shards} shard(s) needs {needed}; not connecting, so the bot's token is \
             not reset. Start again after the reset",
            limit.remaining, limit.total
        )));
    }
    info!(
        remaining = limit.remaining,
        total = limit.total,
        reset_after_ms = limit.reset_after,
        "session starts left today"
    );

    let app = match application_id {
        Some(id) => serenity::ApplicationId::new(id),
        None => match http.get_current_application_info().await {
            Ok(info) => info.id,
            Err(e) => {
                let (status, why) = refused("GET /oauth2/applications/@me", &e);
                crate::metrics::start_refused(if status == Some(401) {
                    "token"
                } else {
                    "registration"
                });
                return Err(if status == Some(401) {
                    DiscordError::TokenRefused(why)
                } else {
                    DiscordError::Startup(format!("cannot read the application's id ({why})"))
                });
            }
        },
    };
    http.set_application_id(app);

    let registered = match guild_id
        .and_then(std::num::NonZeroU64::new)
        .map(serenity::GuildId::from)
    {
        Some(guild) => poise::builtins::register_in_guild(http, commands, guild)
            .await
            .map(|()| format!("in guild {guild}")),
        None => poise::builtins::register_globally(http, commands)
            .await
            .map(|()| "globally".to_owned()),
    };
    match registered {
        Ok(scope) => {
            info!(count = commands.len(), %scope, application = app.get(), "commands registered");
            Ok(())
        }
        Err(e) => {
            let (status, why) = refused("registering the commands", &e);
            crate::metrics::start_refused(if status == Some(401) {
                "token"
            } else {
                "registration"
            });
            error!(error = %why, "Discord refused the commands");
            Err(if status == Some(401) {
                DiscordError::TokenRefused(why)
            } else {
                DiscordError::Startup(why)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_keeps_a_margin_of_identifies() {
        assert_eq!(required_starts(1), 11);
        assert_eq!(required_starts(4), 14);
        assert_eq!(required_starts(16), 32);
    }
}
