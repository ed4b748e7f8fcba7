//! Answers one interaction with the table's replies.
//!
//! The invoker's own answers (private replies, refusals, what a read-only command shows) are
//! sent directly: the interaction's first response, then follow-ups. What the command
//! announces to others is already stored in the outbox (see the table's `staging.rs`);
//! of that, at most one entry is sent here: the public announcement in the invoker's channel,
//! as the interaction's first response when the table answered in time, because a first
//! response notifies the users it mentions and the move then costs one message. Everything else
//! announced, and that entry too when the interaction was deferred or its response failed, is
//! the delivery worker's (`super::delivery`), which sends pings only in new messages: Discord
//! never notifies mentions added by an edit.
//!
//! Commands whose answer is private are deferred ephemerally, so no public "thinking…" is ever
//! shown for them, let alone deleted.

use std::sync::atomic::{AtomicBool, Ordering};

use poise::serenity_prelude as serenity;
use serenity::{
    Builder as _, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, EditInteractionResponse,
};
use tracing::{debug, warn};

use super::data::{CommandError, Data};
pub(crate) use super::outgoing::truncate;
use super::outgoing::{mentions, Outgoing};
use crate::table::{ChannelRef, Reply, Request, UserRef};
use tokar_model::Command;

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
    /// The answer is for the invoker only: a deferral is ephemeral.
    pub private: bool,
    /// Set by [`Responder::defer`] and cleared once the deferral's "thinking…" message is
    /// filled in: while set, a follow-up would not be a message of its own but the edit of that
    /// message (see [`Responder::tell`]).
    pub loading: AtomicBool,
}

/// What the public "thinking…" of a command that failed is turned into: the reason goes to the
/// invoker privately, and the channel is told no more than that.
pub(crate) const FAILED_IN_PUBLIC: &str =
    "This command did not go through; its author was told why.";

impl Responder<'_> {
    fn is_acknowledged(&self) -> bool {
        self.acknowledged.load(Ordering::SeqCst)
    }

    /// Acknowledges with a "thinking…" state, ephemeral for private answers; the answer then
    /// edits it.
    async fn defer(&self) -> Result<(), serenity::Error> {
        CreateInteractionResponse::Defer(
            CreateInteractionResponseMessage::new().ephemeral(self.private),
        )
        .execute(self.http, (self.id, self.token))
        .await
        .inspect_err(count_invalid)?;
        self.acknowledged.store(true, Ordering::SeqCst);
        self.loading.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// Sends one private line to the invoker, whatever was sent before.
    ///
    /// After a deferral whose "thinking…" message is not filled in yet, a follow-up is no
    /// message of its own: "When using this endpoint directly after responding to an interaction
    /// with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function as Edit Original
    /// Interaction Response ... The ephemeral flag will be ignored, and the value you provided in
    /// the initial defer response will be preserved" (Create Followup Message,
    /// developers/interactions/receiving-and-responding.mdx). So a private deferral is filled
    /// with the line itself, and a public one is first turned into a neutral line
    /// ([`FAILED_IN_PUBLIC`]); only then is the line sent, as an ephemeral follow-up of its own.
    /// The public message is edited rather than deleted: "Delete Original Interaction Response"
    /// is allowed, but the fake Discord and Discord answer a follow-up after it with 10008
    /// (Unknown Message), which would lose the line. When the neutral edit fails, the line is
    /// not sent: it would land in public.
    pub async fn tell(&self, text: &str) -> Result<(), serenity::Error> {
        let out = Outgoing::text(text, true);
        if self.loading.load(Ordering::SeqCst) {
            if self.private {
                return self.edit_deferred(out).await;
            }
            self.edit_deferred(Outgoing::text(FAILED_IN_PUBLIC, false))
                .await?;
            return self.follow_up(out).await;
        }
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
            .await
            .inspect_err(count_invalid)?;
        self.acknowledged.store(true, Ordering::SeqCst);
        Ok(())
    }

    /// Fills in a deferred response. An edit notifies nobody, so nothing that must ping is ever
    /// sent this way; mentions are not even allowed.
    async fn edit_deferred(&self, out: Outgoing) -> Result<(), serenity::Error> {
        let mut edit = EditInteractionResponse::new()
            .content(out.content)
            .allowed_mentions(mentions(&[]))
            .components(out.rows);
        for file in out.files {
            edit = edit.new_attachment(file);
        }
        edit.execute(self.http, self.token)
            .await
            .inspect_err(count_invalid)?;
        self.loading.store(false, Ordering::SeqCst);
        Ok(())
    }

    async fn follow_up(&self, out: Outgoing) -> Result<(), serenity::Error> {
        let msg = CreateInteractionResponseFollowup::new()
            .content(out.content)
            .ephemeral(out.ephemeral)
            .allowed_mentions(mentions(&out.ping))
            .components(out.rows)
            .add_files(out.files);
        msg.execute(self.http, (None, self.token))
            .await
            .inspect_err(count_invalid)?;
        Ok(())
    }
}

/// Counts a refused answer that Discord counts against the bot's invalid requests (see
/// [`crate::metrics::invalid_request`]).
pub(crate) fn count_invalid(e: &serenity::Error) {
    if let Some(status) = invalid_status(e) {
        crate::metrics::invalid_request(status);
    }
}

/// The status of an answer Discord counts as an invalid request: "Invalid requests are those
/// resulting in 401, 403, or 429 statuses" (developers/topics/rate-limits.mdx, "Invalid Request
/// Limit"); `None` for any other outcome. A 429 that serenity's own rate limiter absorbed and
/// retried never reaches here, so it is not counted.
pub(crate) fn invalid_status(e: &serenity::Error) -> Option<u16> {
    let serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) = e else {
        return None;
    };
    let status = r.status_code.as_u16();
    matches!(status, 401 | 403 | 429).then_some(status)
}

/// This process's number in the claims it makes, drawn once.
fn claim_owner() -> u64 {
    static OWNER: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *OWNER.get_or_init(|| crate::entropy::fresh(&[u64::from(std::process::id())]))
}

/// How long a stopping process waits before it claims an interaction: in a blue/green deploy
/// the new process received it too and answers it properly; a process stopping alone answers
/// that it is restarting, well within Discord's 3 s.
const STOPPING_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Claims interaction `id` for this process before anything answers it (see
/// `crate::storage`'s `claims.rs`): true when this process runs it; false when another session
/// of the shard claimed it first, and answers it, so this one does nothing at all with it.
pub(crate) async fn claim(data: &Data, id: serenity::InteractionId) -> Result<bool, CommandError> {
    if data.gate.enter().is_none() {
        tokio::time::sleep(STOPPING_GRACE).await;
    }
    let store = data.table.store_handle();
    let now = data.table.now();
    let owner = claim_owner();
    let id = id.get();
    let claimed = tokio::task::spawn_blocking(move || store.claim_interaction(id, owner, now))
        .await
        .map_err(|e| CommandError::TableGone(format!("claiming interaction {id}: {e}")))?
        .map_err(|e| CommandError::TableGone(format!("claiming interaction {id}: {e}")))?;
    if !claimed {
        debug!(
            interaction = id,
            "interaction claimed by another session of its shard; left to it"
        );
    }
    Ok(claimed)
}

/// Work done before the table is asked, inside the defer timer: a record file's text for
/// `/new`, or a one-line refusal for the invoker.
pub(crate) type Prepare =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<String, String>> + Send>>;

/// Runs one request on the table and answers the interaction with its replies.
///
/// The table runs in its own task, so a slow or failing command can neither block the gateway
/// nor be cut short when Discord gives up on the interaction: once the table accepted a move,
/// it is recorded, with its announcements, whatever happens to the answer. If the table has not
/// answered within `defer_after`, the interaction is deferred so Discord's 3 s limit is always
/// met.
pub(crate) async fn serve(
    responder: &Responder<'_>,
    data: &Data,
    request: Request,
) -> Result<(), CommandError> {
    serve_prepared(responder, data, request, None).await
}

/// [`serve`], with `prepare` run first inside the same timer: work that may be slow (a
/// download) defers the interaction in time as the table's work does.
pub(crate) async fn serve_prepared(
    responder: &Responder<'_>,
    data: &Data,
    mut request: Request,
    prepare: Option<Prepare>,
) -> Result<(), CommandError> {
    let Some(_pass) = data.gate.enter() else {
        return Err(CommandError::Stopping);
    };
    let _claim = ReleaseClaim {
        data,
        token: request.interaction_token.clone(),
    };
    let table = data.table.clone();
    let command = request.command.name();
    let started = std::time::Instant::now();
    let mut work = tokio::spawn(async move {
        if let Some(prepare) = prepare {
            match prepare.await {
                Ok(record) => {
                    if let Command::New(new) = &mut request.command {
                        new.record = Some(record);
                    }
                }
                Err(why) => return vec![refusal(&request, why)],
            }
        }
        table.handle(request).await
    });
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
            debug!(%command, private = responder.private, "table is slow: deferring");
            responder.defer().await?;
            work.await
        }
    };
    crate::metrics::command_answered(command, started.elapsed());
    let replies = joined.map_err(|e| CommandError::TableGone(e.to_string()))?;
    debug!(%command, replies = replies.len(), deferred, "table answered");
    deliver(responder, data, deferred, replies).await
}

/// Hands what the interaction did not carry to the delivery worker, however `serve` ends.
struct ReleaseClaim<'a> {
    data: &'a Data,
    token: Option<String>,
}

impl Drop for ReleaseClaim<'_> {
    fn drop(&mut self) {
        if let Some(t) = &self.token {
            self.data.table.outbox_release(t);
        }
    }
}

/// Sends the invoker's answers, and the command's announcement when it can be the first
/// response.
async fn deliver(
    responder: &Responder<'_>,
    data: &Data,
    deferred: bool,
    replies: Vec<Reply>,
) -> Result<(), CommandError> {
    // The same rule the table used to claim the entry: the first public announcement in the
    // invoker's channel. It goes as the first response only when that is a new message with
    // nothing before it, and fits one message.
    let carried = replies
        .iter()
        .find(|r| {
            r.outbox.is_some() && r.ephemeral_to.is_none() && r.channel.id == responder.channel.id
        })
        .filter(|_| !deferred && !responder.is_acknowledged())
        .and_then(|r| {
            let mut parts = Outgoing::split(r);
            (parts.len() == 1).then(|| (r.outbox, parts.remove(0)))
        });
    let direct: Vec<&Reply> = replies.iter().filter(|r| r.outbox.is_none()).collect();
    let mut outgoing: Vec<Outgoing> = direct.iter().flat_map(|r| Outgoing::split(r)).collect();

    if let Some((Some(entry), message)) = carried {
        match responder.respond(message).await {
            Ok(()) => {
                if let Err(e) = data.table.outbox_delivered(entry, Vec::new()).await {
                    // The worker will find the entry, ask Discord, and see it was carried.
                    warn!(entry, error = %e, "cannot record a carried announcement as delivered");
                }
            }
            // The worker sends it: it first asks Discord whether this response got through.
            Err(e) => warn!(entry, error = %e, "the interaction did not carry its announcement"),
        }
    } else if outgoing.is_empty() && !responder.is_acknowledged() || deferred {
        // Something must answer the interaction (or fill in its "thinking…"): a short line in
        // the deferral's own visibility, with no pings.
        let summary = summary(&replies, responder.private);
        if outgoing
            .first()
            .is_none_or(|o| o.ephemeral != responder.private)
        {
            outgoing.insert(0, Outgoing::text(&summary, responder.private));
        }
    }

    let mut first = !responder.is_acknowledged() || deferred;
    for out in outgoing {
        if first && deferred {
            responder.edit_deferred(out).await?;
        } else if first {
            responder.respond(out).await?;
        } else {
            responder.follow_up(out).await?;
        }
        first = false;
    }
    Ok(())
}

/// A private refusal made before the table was asked, as the table's own refusals look.
fn refusal(request: &Request, why: String) -> Reply {
    Reply {
        channel: request.channel.clone(),
        ephemeral_to: Some(request.user.clone()),
        content: why,
        mentions: Vec::new(),
        images: Vec::new(),
        buttons: Vec::new(),
        ok: false,
        outbox: None,
    }
}

/// A line for a response that carries none of the replies: what happened, without pings.
fn summary(replies: &[Reply], private: bool) -> String {
    if replies.iter().any(|r| !r.ok) {
        return "Nothing was changed.".to_owned();
    }
    if private {
        return "Done.".to_owned();
    }
    replies
        .iter()
        .find(|r| r.outbox.is_some() && r.ephemeral_to.is_none())
        .and_then(|r| r.content.lines().next())
        .map(|line| truncate(line, 300))
        .unwrap_or_else(|| "Done.".to_owned())
}
