//! The one place where failures become messages: a one-line reason for the player, the detail
//! in the log.

use std::sync::atomic::AtomicBool;

use poise::FrameworkError;
use tracing::{error, warn};

use super::answer::{claim, truncate, Responder};
use super::data::{channel_ref, user_ref, CommandError, Context, Data};

/// poise's error hook: everything that fails in or around a command lands here.
pub(crate) async fn on_error(err: FrameworkError<'_, Data, CommandError>) {
    match err {
        FrameworkError::Command { error, ctx, .. } => {
            error!(command = %ctx.command().name, error = %error, "command failed");
            tell(ctx, error.for_player()).await;
        }
        FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            warn!(command = %ctx.command().name, ?input, error = %error, "argument not understood");
            let reason = first_line(&error.to_string());
            let text = match input {
                Some(input) => format!("I could not read `{}`: {reason}", truncate(&input, 60)),
                None => format!("I could not read that command: {reason}"),
            };
            tell(ctx, &truncate(&text, 300)).await;
        }
        FrameworkError::CommandPanic { payload, ctx, .. } => {
            error!(command = %ctx.command().name, ?payload, "command panicked");
            tell(ctx, "The bot hit an internal error; please try again.").await;
        }
        FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            error!(command = %ctx.command().name, description, "command registered in Discord differs from the bot's");
            tell(
                poise::Context::Application(ctx),
                "This command changed since Discord last saw it; please try again in a minute.",
            )
            .await;
        }
        FrameworkError::Setup {
            error, framework, ..
        } => {
            // Without its data the framework would wait forever on every event: stop instead.
            // (The commands are registered before the gateway opens; the setup itself only
            // hands the data over, so this is not expected.)
            error!(error = %error, "start-up failed; stopping");
            framework.shard_manager().shutdown_all().await;
        }
        FrameworkError::EventHandler { error, event, .. } => {
            error!(event = event.snake_case_name(), error = %error, "event handler failed");
        }
        other => {
            warn!(error = %other, "command refused");
            if let Some(ctx) = other.ctx() {
                tell(ctx, "That command cannot be used here.").await;
            }
        }
    }
}

/// Reports a failed interaction (slash command or button) to its user.
pub(crate) async fn report(responder: &Responder<'_>, error: &CommandError) {
    error!(user = responder.invoker.id, error = %error, "interaction failed");
    if let Err(e) = responder.tell(error.for_player()).await {
        warn!(error = %e, "could not tell the player about the failure");
    }
}

/// Sends a private one-line message about a slash command, whatever was answered before.
///
/// What lands here failed before the command's own code claimed the interaction (poise could
/// not read an option, the command is not offered here, the claim itself failed), so it is
/// claimed here: a second session of the shard says nothing. When claiming fails, the line is
/// sent all the same: a reason told twice beats silence.
async fn tell(ctx: Context<'_>, text: &str) {
    let poise::Context::Application(actx) = ctx else {
        return;
    };
    if actx.interaction_type == poise::CommandInteractionType::Autocomplete {
        return;
    }
    let i = actx.interaction;
    if let Ok(false) = claim(ctx.data(), i.id).await {
        return;
    }
    let responder = Responder {
        http: &actx.serenity_context().http,
        id: i.id,
        token: &i.token,
        acknowledged: actx.has_sent_initial_response,
        invoker: user_ref(&i.user, i.member.as_deref()),
        channel: channel_ref(i.channel_id, i.channel.as_ref(), i.guild_id),
        private: true,
        loading: Default::default(),
    };
    if let Err(e) = responder.tell(text).await {
        warn!(error = %e, "could not tell the player about the failure");
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").trim().to_owned()
}

/// A stand-alone acknowledgement flag for interactions poise does not track (buttons).
pub(crate) fn fresh_flag() -> AtomicBool {
    AtomicBool::new(false)
}
