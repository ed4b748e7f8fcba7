//! Button clicks (message components): each click is the table command "button" with the
//! button's custom_id. The custom_id carries the game and move number, so the table refuses a
//! stale click politely.

use poise::serenity_prelude as serenity;

use super::answer::{serve, Responder};
use super::data::{channel_ref, user_ref, CommandError, Data};
use super::errors::{fresh_flag, report};
use crate::table::Request;
use tokar_model::Command;

/// Answers one button click.
pub(crate) async fn on_click(
    framework: poise::FrameworkContext<'_, Data, CommandError>,
    click: &serenity::ComponentInteraction,
) -> Result<(), CommandError> {
    let acknowledged = fresh_flag();
    let user = user_ref(&click.user, click.member.as_ref());
    let mut channel = channel_ref(click.channel_id, click.channel.as_ref(), click.guild_id);
    // An Accept click may start a game, so it says as a command does whether its thread can open.
    channel.threads = super::commands::thread_permissions(channel.threads, click.app_permissions);
    let responder = Responder {
        http: &framework.serenity_context.http,
        id: click.id,
        token: &click.token,
        acknowledged: &acknowledged,
        invoker: user.clone(),
        channel: channel.clone(),
        // Today's buttons (hand, moves) answer the clicker only.
        private: true,
        loading: Default::default(),
    };
    let request = Request {
        user,
        channel,
        command: Command::Button {
            custom_id: click.data.custom_id.clone(),
        },
        interaction_token: Some(click.token.clone()),
        manage_server: false,
    };
    if let Err(e) = serve(&responder, framework.user_data, request).await {
        report(&responder, &e).await;
    }
    Ok(())
}
