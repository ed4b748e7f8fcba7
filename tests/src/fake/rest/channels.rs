//! Channels: messages (with nonces and permissions), DMs, threads, GET channel.

use std::time::Instant;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::Value;

use super::super::gateway;
use super::super::limits;
use super::super::payloads;
use super::super::permissions as perm;
use super::super::state::{
    ChannelKind, FakeChannel, FakeUser, Origin, State, GUILD_ID, NONCE_WINDOW,
};
use super::super::Shared;
use super::store::{is_ephemeral, store_message, Placement};
use super::{invalid_form, refuse, reject, Body2};

fn missing_permissions(st: &mut State, what: &str) -> Response {
    // Discord's documented message for 50013 is "You lack permissions to perform that
    // action"; the API's own text is "Missing Permissions".
    reject(
        st,
        what,
        StatusCode::FORBIDDEN,
        50013,
        "Missing Permissions",
    )
}

/// The channel a request names, if the bot may reach it:
/// - unknown or deleted: 404, 10003 Unknown Channel;
/// - in the guild the bot was removed from, or without VIEW_CHANNEL: 403, 50001 Missing
///   Access. (Discord's documentation lists the codes, not which one each case gives; 50001
///   for a guild the bot is no longer in is what bots meet, e.g. after a kick.)
fn reachable(st: &mut State, channel: &str, what: &str) -> Result<FakeChannel, Box<Response>> {
    let found = channel
        .parse::<u64>()
        .ok()
        .and_then(|id| st.channels.get(&id))
        .filter(|c| !c.deleted)
        .cloned();
    let Some(c) = found else {
        return Err(Box::new(reject(
            st,
            what,
            StatusCode::NOT_FOUND,
            10003,
            "Unknown Channel",
        )));
    };
    let removed = c.guild_id == Some(GUILD_ID) && !st.bot_in_guild;
    if c.in_guild() && (removed || st.bot_permissions(c.id) & perm::VIEW_CHANNEL == 0) {
        return Err(Box::new(reject(
            st,
            what,
            StatusCode::FORBIDDEN,
            50001,
            "Missing Access",
        )));
    }
    Ok(c)
}

/// GET /channels/{id}.
pub(super) fn get_channel(shared: &Shared, channel: &str) -> Response {
    let mut st = shared.lock();
    match reachable(&mut st, channel, "get channel") {
        Ok(c) => Json(payloads::channel(&st, &c)).into_response(),
        Err(r) => *r,
    }
}

/// A nonce as Discord takes it: "integer or string", "up to 25 characters" (Resources >
/// Message > Create Message > JSON/Form Params).
fn nonce_of(body: &Value) -> Result<Option<String>, String> {
    let nonce = match body.get("nonce") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => n.to_string(),
        Some(other) => return Err(format!("nonce must be an integer or a string, not {other}")),
    };
    let n = nonce.chars().count();
    if n > 25 {
        return Err(format!("nonce is {n} characters (max 25)"));
    }
    Ok(Some(nonce))
}

/// POST /channels/{id}/messages.
pub(super) fn channel_message(shared: &Shared, channel: &str, body: Body2) -> Response {
    let mut st = shared.lock();
    let what = "channel message";
    let c = match reachable(&mut st, channel, what) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    let nonce = match nonce_of(&body.json) {
        Ok(n) => n,
        Err(e) => return invalid_form(&mut st, what, &e),
    };
    let perms = st.bot_permissions(c.id);
    match c.kind {
        ChannelKind::Voice => {
            return reject(
                &mut st,
                what,
                StatusCode::BAD_REQUEST,
                50008,
                "Cannot send messages in a non-text channel",
            )
        }
        ChannelKind::Dm => {
            // A user who accepts no DMs from the bot: 403, 50007 "Cannot send messages to
            // this user" (Topics > Opcodes and Status Codes > JSON Error Codes).
            if c.recipient.is_some_and(|u| st.closed_dms.contains(&u)) {
                return reject(
                    &mut st,
                    "message to a user who closed DMs",
                    StatusCode::FORBIDDEN,
                    50007,
                    "Cannot send messages to this user",
                );
            }
        }
        ChannelKind::Text => {
            // "When operating on a guild channel, the current user must have the
            // `SEND_MESSAGES` permission." (Create Message > Limitations)
            if perms & perm::SEND_MESSAGES == 0 {
                return missing_permissions(&mut st, "channel message without SEND_MESSAGES");
            }
        }
        ChannelKind::PublicThread => {
            if perms & perm::SEND_MESSAGES_IN_THREADS == 0 {
                return missing_permissions(
                    &mut st,
                    "thread message without SEND_MESSAGES_IN_THREADS",
                );
            }
            // "Sending a message will automatically unarchive the thread, unless the thread
            // has been locked by a moderator." (Topics > Threads > Active & Archived
            // Threads). A locked archived thread answers 400, 50083 "Thread is archived";
            // "Users won't be able to create or update messages in locked threads" (Locked
            // Threads) without MANAGE_THREADS: 160005 "Thread is locked".
            let moderator = perms & perm::MANAGE_THREADS != 0;
            if c.locked && !moderator {
                return if c.archived {
                    reject(
                        &mut st,
                        "message in a locked archived thread",
                        StatusCode::BAD_REQUEST,
                        50083,
                        "Thread is archived",
                    )
                } else {
                    reject(
                        &mut st,
                        "message in a locked thread",
                        StatusCode::FORBIDDEN,
                        160005,
                        "Thread is locked",
                    )
                };
            }
        }
    }
    // Denying SEND_MESSAGES also denies ATTACH_FILES; with it, files need ATTACH_FILES
    // (Topics > Permissions: "Allows for uploading images and files").
    if !body.files.is_empty() && c.in_guild() && perms & perm::ATTACH_FILES == 0 {
        return missing_permissions(&mut st, "channel message with files without ATTACH_FILES");
    }
    if is_ephemeral(&body.json) {
        st.violation(
            "channel message with the ephemeral flag: Discord shows it to everyone".into(),
        );
    }
    if let Err(e) = limits::check_message(&body.json, body.files.len(), false) {
        return invalid_form(&mut st, what, &e);
    }
    // "If true and nonce is present, it will be checked for uniqueness in the past few
    // minutes. If another message was created by the same author with the same nonce, that
    // message will be returned and no new message will be created." (Create Message). Every
    // message the fake stores through this route is the bot's own. The check comes after
    // the channel's own refusals (permissions, closed DMs), which a retry meets again.
    if body.json["enforce_nonce"].as_bool() == Some(true) {
        if let Some(n) = &nonce {
            let now = Instant::now();
            let earlier = st
                .messages
                .iter()
                .find(|m| {
                    m.origin == Origin::Channel
                        && m.nonce.as_ref() == Some(n)
                        && now.saturating_duration_since(m.received_at) <= NONCE_WINDOW
                })
                .cloned();
            if let Some(m) = earlier {
                st.nonce_dedupes += 1;
                return Json(payloads::message(&m, payloads::bot_user())).into_response();
            }
        }
    }
    if c.archived {
        if let Some(t) = st.channels.get_mut(&c.id) {
            t.archived = false;
        }
    }
    let at = Placement {
        channel_id: c.id,
        origin: Origin::Channel,
        interaction_id: None,
        // A DM is seen by its recipient only.
        ephemeral_to: c.recipient,
        settled: true,
        nonce,
    };
    let m = store_message(&mut st, at, &body.json, body.files);
    Json(payloads::message(&m, payloads::bot_user())).into_response()
}

/// POST /users/@me/channels: the DM channel with a user (the same one every time). A user
/// who closed DMs still gets a channel; sending into it fails.
pub(super) fn dm_channel(shared: &Shared, body: &Value) -> Response {
    let mut st = shared.lock();
    let recipient = body["recipient_id"]
        .as_str()
        .and_then(|s| s.parse::<u64>().ok())
        .or_else(|| body["recipient_id"].as_u64());
    let Some(user) = recipient.and_then(|id| st.users.get(&id).cloned()) else {
        return refuse(
            &mut st,
            "open DM",
            StatusCode::BAD_REQUEST,
            50007,
            "Cannot send messages to this user",
        );
    };
    let c = open_dm(&mut st, &user);
    Json(payloads::channel(&st, &c)).into_response()
}

/// The DM channel between the bot and `user`, opened if needed.
pub(crate) fn open_dm(st: &mut State, user: &FakeUser) -> FakeChannel {
    if let Some(c) = st
        .dm_channels
        .get(&user.id)
        .and_then(|id| st.channels.get(id))
    {
        return c.clone();
    }
    let id = st.fresh_id();
    let c = FakeChannel {
        id,
        name: String::new(),
        kind: ChannelKind::Dm,
        parent_id: None,
        guild_id: None,
        recipient: Some(user.id),
        archived: false,
        locked: false,
        deleted: false,
    };
    st.dm_channels.insert(user.id, id);
    st.channels.insert(id, c.clone());
    c
}

/// POST /channels/{id}/threads (Start Thread without Message) and
/// POST /channels/{id}/messages/{message}/threads (Start Thread from Message).
pub(super) fn start_thread(
    shared: &Shared,
    channel: &str,
    message: Option<&str>,
    body: &Value,
) -> Response {
    let mut st = shared.lock();
    let what = "start thread";
    let c = match reachable(&mut st, channel, what) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    // Threads grow in text channels only: elsewhere 50024 "Cannot execute action on this
    // channel type" (JSON Error Codes).
    if c.kind != ChannelKind::Text {
        return reject(
            &mut st,
            &format!("{what} in a channel of type {}", c.kind.number()),
            StatusCode::BAD_REQUEST,
            50024,
            "Cannot execute action on this channel type",
        );
    }
    // "`type` currently defaults to `PRIVATE_THREAD`" (Start Thread without Message); the
    // fake has public threads only, so the type must be said. From a message the thread is
    // public ("When called on a `GUILD_TEXT` channel, creates a `PUBLIC_THREAD`").
    if message.is_none() && body["type"].as_u64() != Some(11) {
        return invalid_form(
            &mut st,
            what,
            "type must be 11 (PUBLIC_THREAD); it defaults to PRIVATE_THREAD",
        );
    }
    let name = body["name"].as_str().unwrap_or("");
    let n = name.chars().count();
    if !(1..=100).contains(&n) {
        return invalid_form(&mut st, what, &format!("name is {n} characters (1-100)"));
    }
    if st.bot_permissions(c.id) & perm::CREATE_PUBLIC_THREADS == 0 {
        return missing_permissions(&mut st, "start thread without CREATE_PUBLIC_THREADS");
    }
    let id = match message {
        None => st.fresh_id(),
        Some(m) => {
            let found = m
                .parse::<u64>()
                .ok()
                .and_then(|id| st.message(id))
                .filter(|m| m.channel_id == c.id && !m.deleted)
                .map(|m| m.id);
            let Some(id) = found else {
                return reject(
                    &mut st,
                    what,
                    StatusCode::NOT_FOUND,
                    10008,
                    "Unknown Message",
                );
            };
            // "The id of the created thread will be the same as the id of the source
            // message, and as such a message can only have a single thread created from it."
            if st.channels.contains_key(&id) {
                return reject(
                    &mut st,
                    what,
                    StatusCode::BAD_REQUEST,
                    160004,
                    "A thread has already been created for this message",
                );
            }
            id
        }
    };
    let thread = new_thread(id, &c, name);
    st.channels.insert(id, thread.clone());
    let payload = payloads::channel(&st, &thread);
    if let Err(e) = payloads::check_channel(&payload) {
        st.violation(e);
    }
    drop(st);
    gateway::dispatch(shared, thread.guild_id, "THREAD_CREATE", payload.clone());
    (StatusCode::CREATED, Json(payload)).into_response()
}

/// A thread in `parent`'s guild.
pub(crate) fn new_thread(id: u64, parent: &FakeChannel, name: &str) -> FakeChannel {
    FakeChannel {
        id,
        name: name.to_owned(),
        kind: ChannelKind::PublicThread,
        parent_id: Some(parent.id),
        guild_id: parent.guild_id,
        recipient: None,
        archived: false,
        locked: false,
        deleted: false,
    }
}

/// GET /guilds/{id}/threads/active (List Active Guild Threads): "Returns all active threads
/// in the guild, including public and private threads. Threads are ordered by their `id`, in
/// descending order", as `{ "threads": [channel], "members": [thread member] }`
/// (<https://discord.com/developers/docs/resources/guild#list-active-guild-threads>). Active
/// means not archived ("Archived threads … are not returned by this endpoint" in Topics >
/// Threads). The fake's guilds are [`GUILD_ID`](super::super::state::GUILD_ID) and those a
/// test added channels to.
pub(super) fn active_threads(shared: &Shared, guild: &str) -> Response {
    let st = shared.lock();
    let guild = guild
        .parse::<u64>()
        .ok()
        .filter(|g| *g == GUILD_ID || st.channels.values().any(|c| c.guild_id == Some(*g)));
    let Some(guild) = guild else {
        drop(st);
        let mut st = shared.lock();
        return refuse(
            &mut st,
            "list active threads",
            StatusCode::NOT_FOUND,
            10004,
            "Unknown Guild",
        );
    };
    let mut threads: Vec<&FakeChannel> = st
        .channels
        .values()
        .filter(|c| c.is_thread() && !c.archived && !c.deleted && c.guild_id == Some(guild))
        .collect();
    threads.sort_by_key(|c| std::cmp::Reverse(c.id));
    let threads: Vec<Value> = threads.iter().map(|c| payloads::channel(&st, c)).collect();
    Json(serde_json::json!({ "threads": threads, "members": [] })).into_response()
}
