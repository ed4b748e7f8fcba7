//! Turns the table's replies into Discord messages: the interaction's response (ephemeral when
//! private), follow-ups, channel posts with pings, and direct messages.
//!
//! Discord's rules are applied here so a reply the table builds can never be refused: content
//! is split into messages of at most 2000 characters, at most 10 files and 5 rows of 5 buttons
//! go on a message, a custom_id longer than 100 characters is dropped (and logged), and only
//! the users a reply names may be pinged.

use std::num::NonZeroU64;
use std::sync::atomic::{AtomicBool, Ordering};

use poise::serenity_prelude as serenity;
use serenity::{
    Builder as _, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateMessage, EditInteractionResponse,
};
use tracing::{debug, error, warn};

use super::data::{CommandError, Data};
use crate::table::{ChannelRef, Reply, Request, UserRef};

/// Discord's limits on one message.
const MAX_CONTENT: usize = 2000;
const MAX_FILES: usize = 10;
const MAX_ROWS: usize = 5;
const MAX_BUTTONS_PER_ROW: usize = 5;
const MAX_CUSTOM_ID: usize = 100;
const MAX_LABEL: usize = 80;

/// One interaction to answer: a slash command or a button click.
pub(crate) struct Responder<'a> {
    pub http: &'a serenity::Http,
    pub id: serenity::InteractionId,
    pub token: &'a str,
    /// Whether Discord has had its one initial response (message or defer). For slash commands
    /// this is poise's own flag, so poise and the error handler agree with what was sent here.
    pub acknowledged: &'a AtomicBool,
    pub invoker: UserRef,
    pub channel: ChannelRef,
}

impl Responder<'_> {
    fn is_acknowledged(&self) -> bool {
        self.acknowledged.load(Ordering::SeqCst)
    }

    /// Acknowledges with a public "thinking…" state; the answer then edits it.
    async fn defer(&self) -> Result<(), serenity::Error> {
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new())
            .execute(self.http, (self.id, self.token))
            .await?;
        self.acknowledged.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// Sends one private line to the invoker, whatever was sent before.
    pub async fn tell(&self, text: &str) -> Result<(), serenity::Error> {
        let out = Outgoing {
            content: text.to_owned(),
            files: Vec::new(),
            rows: Vec::new(),
            ping: Vec::new(),
            ephemeral: true,
        };
        if self.is_acknowledged() {
            self.follow_up(out).await
        } else {
            self.respond(out).await
        }
    }

    async fn respond(&self, out: Outgoing) -> Result<(), serenity::Error> {
        let msg = CreateInteractionResponseMessage::new()
            .content(out.content)
            .ephemeral(out.ephemeral)
            .allowed_mentions(mentions(&out.ping))
            .components(out.rows)
            .add_files(out.files);
        CreateInteractionResponse::Message(msg)
            .execute(self.http, (self.id, self.token))
            .await?;
        self.acknowledged.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn edit_deferred(&self, out: Outgoing) -> Result<(), serenity::Error> {
        let mut edit = EditInteractionResponse::new()
            .content(out.content)
            .allowed_mentions(mentions(&out.ping))
            .components(out.rows);
        for file in out.files {
            edit = edit.new_attachment(file);
        }
        edit.execute(self.http, self.token).await?;
        Ok(())
    }

    async fn follow_up(&self, out: Outgoing) -> Result<(), serenity::Error> {
        let msg = CreateInteractionResponseFollowup::new()
            .content(out.content)
            .ephemeral(out.ephemeral)
            .allowed_mentions(mentions(&out.ping))
            .components(out.rows)
            .add_files(out.files);
        msg.execute(self.http, (None, self.token)).await?;
        Ok(())
    }
}

/// Runs one request on the table and answers the interaction with its replies.
///
/// The table runs in its own task, so a slow or failing command can neither block the gateway
/// nor be cut short when Discord gives up on the interaction: once the table accepted a move,
/// it is recorded whatever happens to the answer. If the table has not answered within
/// `defer_after`, the interaction is deferred so Discord's 3 s limit is always met.
pub(crate) async fn serve(
    responder: &Responder<'_>,
    data: &Data,
    request: Request,
) -> Result<(), CommandError> {
    let table = data.table.clone();
    let command = request.command.clone();
    let mut work = tokio::spawn(async move { table.handle(request).await });
    // A zero `defer_after` defers every answer, however fast the table is.
    let early = if data.defer_after.is_zero() {
        None
    } else {
        tokio::time::timeout(data.defer_after, &mut work).await.ok()
    };
    let deferred = early.is_none();
    let joined = match early {
        Some(joined) => joined,
        None => {
            debug!(%command, "table is slow: deferring");
            responder.defer().await?;
            work.await
        }
    };
    let replies = match joined {
        Ok(replies) => replies,
        Err(e) => {
            if deferred {
                discard_deferred(responder).await;
            }
            return Err(CommandError::TableGone(e.to_string()));
        }
    };
    debug!(%command, replies = replies.len(), deferred, "table answered");
    deliver(responder, deferred, replies).await
}

/// Sends every reply where it belongs; the first that concerns the invoker answers the
/// interaction.
async fn deliver(
    responder: &Responder<'_>,
    deferred: bool,
    replies: Vec<Reply>,
) -> Result<(), CommandError> {
    let mut to_interaction = Vec::new();
    let mut to_channels = Vec::new();
    let mut to_dms = Vec::new();
    for reply in replies {
        match &reply.ephemeral_to {
            Some(user) if user.id == responder.invoker.id => to_interaction.push(reply),
            Some(_) => to_dms.push(reply),
            None if reply.channel.id == responder.channel.id => to_interaction.push(reply),
            None => to_channels.push(reply),
        }
    }

    let mut outgoing: Vec<Outgoing> = to_interaction.iter().flat_map(Outgoing::split).collect();
    if outgoing.is_empty() {
        outgoing.push(Outgoing::text("Done.", true));
    }
    let mut first = true;
    for out in outgoing {
        if first && deferred {
            if out.ephemeral {
                // The public "thinking…" cannot turn private: remove it, answer privately.
                discard_deferred(responder).await;
                responder.follow_up(out).await?;
            } else {
                responder.edit_deferred(out).await?;
            }
        } else if first && !responder.is_acknowledged() {
            responder.respond(out).await?;
        } else {
            responder.follow_up(out).await?;
        }
        first = false;
    }

    // Announcements for other channels and private notes for other players are best effort:
    // the invoker's own answer went out, so a failure here is logged, not shown to them.
    for reply in to_channels {
        post_in_channel(responder.http, &reply).await;
    }
    for reply in to_dms {
        post_direct(responder.http, &reply).await;
    }
    Ok(())
}

/// Removes a deferred "thinking…" response (best effort: it only matters cosmetically).
async fn discard_deferred(responder: &Responder<'_>) {
    if let Err(e) = responder
        .http
        .delete_original_interaction_response(responder.token)
        .await
    {
        warn!(error = %e, "could not remove the deferred response");
    }
}

/// Posts a public reply in its channel (turn pings, scheduler reminders).
pub(crate) async fn post_in_channel(http: &serenity::Http, reply: &Reply) {
    if reply.ephemeral_to.is_some() {
        post_direct(http, reply).await;
        return;
    }
    let Some(channel) = NonZeroU64::new(reply.channel.id).map(serenity::ChannelId::from) else {
        error!(content = %reply.content, "reply for channel id 0 dropped");
        return;
    };
    for out in Outgoing::split(reply) {
        if let Err(e) = channel.send_message(http, out.into_message()).await {
            error!(channel = channel.get(), error = %e, "could not post in channel");
            return;
        }
    }
}

/// A private reply for someone who is not answering an interaction now goes to their direct
/// messages: Discord can show an ephemeral message only to the user of that interaction.
async fn post_direct(http: &serenity::Http, reply: &Reply) {
    let Some(user) = reply.ephemeral_to.as_ref() else {
        return;
    };
    let Some(user_id) = NonZeroU64::new(user.id).map(serenity::UserId::from) else {
        error!("private reply for user id 0 dropped");
        return;
    };
    let channel = match user_id.create_dm_channel(http).await {
        Ok(channel) => channel,
        Err(e) => {
            warn!(user = user.id, error = %e, "cannot open a direct message channel");
            return;
        }
    };
    for mut out in Outgoing::split(reply) {
        out.ephemeral = false;
        if let Err(e) = channel.id.send_message(http, out.into_message()).await {
            warn!(user = user.id, error = %e, "could not send a direct message");
            return;
        }
    }
}

/// One Discord message, within Discord's limits.
struct Outgoing {
    content: String,
    files: Vec<CreateAttachment>,
    rows: Vec<CreateActionRow>,
    /// Users this message may ping.
    ping: Vec<serenity::UserId>,
    ephemeral: bool,
}

impl Outgoing {
    fn text(content: &str, ephemeral: bool) -> Self {
        Self {
            content: content.to_owned(),
            files: Vec::new(),
            rows: Vec::new(),
            ping: Vec::new(),
            ephemeral,
        }
    }

    /// Splits one reply into as many messages as Discord's limits need. The first message
    /// carries the pings, the pictures and the buttons, so the ping and the board arrive
    /// together.
    fn split(reply: &Reply) -> Vec<Outgoing> {
        let ephemeral = reply.ephemeral_to.is_some();
        let ping: Vec<serenity::UserId> = if ephemeral {
            Vec::new()
        } else {
            reply
                .mentions
                .iter()
                .filter_map(|u| NonZeroU64::new(u.id).map(serenity::UserId::from))
                .collect()
        };
        let mut content = reply.content.clone();
        let missing: Vec<String> = ping
            .iter()
            .map(|id| format!("<@{}>", id.get()))
            .filter(|tag| !content.contains(tag.as_str()))
            .collect();
        if !missing.is_empty() {
            content = format!("{} {}", missing.join(" "), content);
        }

        let mut chunks = split_text(&content, MAX_CONTENT);
        let mut files: Vec<CreateAttachment> = reply
            .images
            .iter()
            .map(|img| CreateAttachment::bytes(img.png.clone(), file_name(&img.name)))
            .collect();
        let rows = button_rows(&reply.buttons);

        // Extra files beyond what one message holds go on extra messages.
        let mut extra_files = Vec::new();
        while files.len() > MAX_FILES {
            let rest = files.split_off(MAX_FILES);
            extra_files.push(std::mem::replace(&mut files, rest));
        }
        if !files.is_empty() {
            extra_files.push(files);
        }
        let mut file_batches = extra_files.into_iter();

        if chunks.is_empty() {
            chunks.push(String::new());
        }
        let mut out: Vec<Outgoing> = chunks
            .into_iter()
            .enumerate()
            .map(|(i, content)| Outgoing {
                content,
                files: if i == 0 {
                    file_batches.next().unwrap_or_default()
                } else {
                    Vec::new()
                },
                rows: if i == 0 { rows.clone() } else { Vec::new() },
                ping: if i == 0 { ping.clone() } else { Vec::new() },
                ephemeral,
            })
            .collect();
        for batch in file_batches {
            out.push(Outgoing {
                content: String::new(),
                files: batch,
                rows: Vec::new(),
                ping: Vec::new(),
                ephemeral,
            });
        }
        // Discord refuses a message with neither content nor files nor components.
        for o in &mut out {
            if o.content.trim().is_empty() && o.files.is_empty() && o.rows.is_empty() {
                o.content = "\u{200b}".to_owned();
            }
        }
        out
    }

    fn into_message(self) -> CreateMessage {
        CreateMessage::new()
            .content(self.content)
            .allowed_mentions(mentions(&self.ping))
            .components(self.rows)
            .add_files(self.files)
    }
}

/// Only these users may be pinged: never @everyone, @here, roles or the replied-to user.
fn mentions(users: &[serenity::UserId]) -> CreateAllowedMentions {
    CreateAllowedMentions::new()
        .users(users.iter().copied())
        .replied_user(false)
}

/// The table's buttons as action rows (5 per row, at most 5 rows).
fn button_rows(buttons: &[crate::table::Button]) -> Vec<CreateActionRow> {
    let valid: Vec<CreateButton> = buttons
        .iter()
        .filter(|b| {
            let ok = !b.custom_id.is_empty() && b.custom_id.chars().count() <= MAX_CUSTOM_ID;
            if !ok {
                error!(custom_id = %b.custom_id, "button dropped: custom_id must be 1-100 characters");
            }
            ok
        })
        .map(|b| {
            let label = if b.label.trim().is_empty() {
                "…".to_owned()
            } else {
                truncate(&b.label, MAX_LABEL)
            };
            CreateButton::new(b.custom_id.clone())
                .label(label)
                .style(serenity::ButtonStyle::Primary)
        })
        .collect();
    if valid.len() > MAX_ROWS * MAX_BUTTONS_PER_ROW {
        warn!(
            count = valid.len(),
            "more than 25 buttons: the rest are dropped"
        );
    }
    valid
        .chunks(MAX_BUTTONS_PER_ROW)
        .take(MAX_ROWS)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

/// A safe attachment name ending in .png (Discord shows it; `attachment://` links use it).
fn file_name(name: &str) -> String {
    let stem: String = name
        .trim_end_matches(".png")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    let stem = if stem.is_empty() {
        "board".to_owned()
    } else {
        stem
    };
    format!("{stem}.png")
}

/// Cuts at most `max` characters, marking the cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

/// Splits text into pieces of at most `max` characters, preferring line breaks.
fn split_text(text: &str, max: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut current = String::new();
    let mut current_len = 0;
    for line in text.split_inclusive('\n') {
        let line_len = line.chars().count();
        if current_len + line_len <= max {
            current.push_str(line);
            current_len += line_len;
            continue;
        }
        if !current.is_empty() {
            pieces.push(std::mem::take(&mut current));
            current_len = 0;
        }
        if line_len <= max {
            current.push_str(line);
            current_len = line_len;
        } else {
            let chars: Vec<char> = line.chars().collect();
            for part in chars.chunks(max) {
                pieces.push(part.iter().collect());
            }
        }
    }
    if !current.is_empty() {
        pieces.push(current);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_splits_on_lines_within_the_limit() {
        let line = "x".repeat(900);
        let text = format!("{line}\n{line}\n{line}\n");
        let pieces = split_text(&text, 2000);
        assert_eq!(pieces.len(), 2);
        assert!(pieces.iter().all(|p| p.chars().count() <= 2000));
        assert_eq!(pieces.concat(), text);
    }

    #[test]
    fn a_single_overlong_line_is_cut() {
        let text = "é".repeat(4500);
        let pieces = split_text(&text, 2000);
        assert_eq!(
            pieces.iter().map(|p| p.chars().count()).collect::<Vec<_>>(),
            [2000, 2000, 500]
        );
    }

    #[test]
    fn file_names_are_sanitised() {
        assert_eq!(file_name("game 12/turn 3.png"), "game_12_turn_3.png");
        assert_eq!(file_name(""), "board.png");
    }

    #[test]
    fn labels_are_truncated_with_a_mark() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
