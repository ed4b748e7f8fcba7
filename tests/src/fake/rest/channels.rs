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
    ChannelKind, FakeChannel, FakeFile, FakeMessage, FakeUser, Origin, State,
    DEFAULT_AUTO_ARCHIVE_MINUTES, GUILD_ID,
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

/// GET /channels/{id}/messages ("Get Channel Messages", Resources > Message): "Returns an
/// array of message objects from newest to oldest"; "this endpoint requires the current user to
/// have the `VIEW_CHANNEL` permission" (403, 50001 otherwise, as every channel route here);
/// "If the current user is missing the `READ_MESSAGE_HISTORY` permission in the channel, then
/// no messages will be returned"; "The `before`, `after`, and `around` parameters are mutually
/// exclusive"; `limit` "Max number of messages to return (1-100)", default 50. Ephemeral
/// messages are no part of a channel's history, and stored messages carry no `nonce`.
pub(super) fn get_messages(shared: &Shared, channel: &str, query: &str) -> Response {
    let mut st = shared.lock();
    let what = "get channel messages";
    let c = match reachable(&mut st, channel, what) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    let mut limit = 50usize;
    let mut anchor: Option<(&str, u64)> = None;
    let mut anchors = 0;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match key {
            "limit" => match value.parse::<usize>() {
                Ok(n) if (1..=100).contains(&n) => limit = n,
                _ => return invalid_form(&mut st, what, &format!("limit {value} (1-100)")),
            },
            "before" | "after" | "around" => {
                let Ok(id) = value.parse::<u64>() else {
                    return invalid_form(&mut st, what, &format!("{key} {value} is no snowflake"));
                };
                anchors += 1;
                anchor = Some((key, id));
            }
            _ => {}
        }
    }
    if anchors > 1 {
        return invalid_form(
            &mut st,
            what,
            "before, after and around are mutually exclusive",
        );
    }
    if st.bot_permissions(c.id) & perm::READ_MESSAGE_HISTORY == 0 {
        return Json(Value::Array(Vec::new())).into_response();
    }
    let mut history: Vec<&FakeMessage> = st
        .messages
        .iter()
        .filter(|m| m.channel_id == c.id && !m.deleted)
        .filter(|m| m.origin == Origin::Channel || m.ephemeral_to.is_none())
        .collect();
    history.sort_by_key(|m| m.id);
    let page: Vec<&FakeMessage> = match anchor {
        None => history[history.len().saturating_sub(limit)..].to_vec(),
        Some(("before", id)) => {
            let older: Vec<_> = history.into_iter().filter(|m| m.id < id).collect();
            older[older.len().saturating_sub(limit)..].to_vec()
        }
        Some(("after", id)) => history
            .into_iter()
            .filter(|m| m.id > id)
            .take(limit)
            .collect(),
        Some((_, id)) => {
            let at = history.partition_point(|m| m.id < id);
            let start = at.saturating_sub(limit / 2);
            let end = (start + limit).min(history.len());
            let start = end.saturating_sub(limit).min(start);
            history[start..end].to_vec()
        }
    };
    let list: Vec<Value> = page
        .iter()
        .rev()
        .map(|m| payloads::stored_message(m, payloads::bot_user()))
        .collect();
    Json(Value::Array(list)).into_response()
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
        ChannelKind::Voice | ChannelKind::Category => {
            return reject(
                &mut st,
                what,
                StatusCode::BAD_REQUEST,
                50008,
                "Cannot send messages in a non-text channel",
            )
        }
        // A forum "can only contain threads" (Channel Types); 40058 "Cannot send a message in
        // a forum channel" (JSON Error Codes).
        ChannelKind::Forum => {
            return reject(
                &mut st,
                "message in a forum channel",
                StatusCode::BAD_REQUEST,
                40058,
                "Cannot send a message in a forum channel",
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
        ChannelKind::Text | ChannelKind::Announcement => {
            // "When operating on a guild channel, the current user must have the
            // `SEND_MESSAGES` permission." (Create Message > Limitations)
            if perms & perm::SEND_MESSAGES == 0 {
                return missing_permissions(&mut st, "channel message without SEND_MESSAGES");
            }
        }
        ChannelKind::PublicThread
        | ChannelKind::PrivateThread
        | ChannelKind::AnnouncementThread => {
            if perms & perm::SEND_MESSAGES_IN_THREADS == 0 {
                return missing_permissions(
                    &mut st,
                    "thread message without SEND_MESSAGES_IN_THREADS",
                );
            }
            if let Err(r) = thread_writable(&mut st, &c, perms) {
                return *r;
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
    if let Err(r) = upload_sizes(&mut st, &body.files) {
        return *r;
    }
    // "If true and nonce is present, it will be checked for uniqueness in the past few
    // minutes. If another message was created by the same author with the same nonce, that
    // message will be returned and no new message will be created." (Create Message). Every
    // message the fake stores through this route is the bot's own. The check comes after
    // the channel's own refusals (permissions, closed DMs), which a retry meets again.
    if body.json["enforce_nonce"].as_bool() == Some(true) {
        if let Some(n) = &nonce {
            let (now, window) = (st.now(), st.nonce_window);
            let earlier = st
                .messages
                .iter()
                .find(|m| {
                    m.origin == Origin::Channel
                        && m.nonce.as_ref() == Some(n)
                        && now.saturating_duration_since(m.received_at) <= window
                })
                .cloned();
            if let Some(m) = earlier {
                st.nonce_dedupes += 1;
                return Json(payloads::message(&m, payloads::bot_user())).into_response();
            }
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
    let reply = Json(payloads::message(&m, payloads::bot_user())).into_response();
    drop(st);
    // "Sending a message will automatically unarchive the thread" (Topics > Threads).
    thread_activity(shared, c.id);
    reply
}

/// Whether the bot may post in thread `c` now (`perms` its permissions there):
/// - "Users won't be able to create or update messages in locked threads" without
///   MANAGE_THREADS (Topics > Threads > Locked Threads): a locked active thread answers 403,
///   160005 "Thread is locked"; a locked archived one 400, 50083 "Tried to perform an operation
///   on an archived thread" ("Threads that have `locked` set to true can only be unarchived by
///   a user with the `MANAGE_THREADS` permission", Active & Archived Threads);
/// - an archived thread that is not locked is unarchived by the message ("Sending a message
///   will automatically unarchive the thread, unless the thread has been locked by a
///   moderator"), which the guild's active-thread limit must allow (160006).
pub(super) fn thread_writable(
    st: &mut State,
    c: &FakeChannel,
    perms: u64,
) -> Result<(), Box<Response>> {
    let moderator = perms & perm::MANAGE_THREADS != 0;
    if c.locked && !moderator {
        return Err(Box::new(if c.archived {
            reject(
                st,
                "message in a locked archived thread",
                StatusCode::BAD_REQUEST,
                50083,
                "Thread is archived",
            )
        } else {
            reject(
                st,
                "message in a locked thread",
                StatusCode::FORBIDDEN,
                160005,
                "Thread is locked",
            )
        }));
    }
    if c.archived {
        active_thread_room(st, c.guild_id, c.kind, "unarchive a thread by a message")?;
    }
    Ok(())
}

/// A message was posted in `channel`: if it is a thread, that is activity, and an archived
/// thread is unarchived (THREAD_UPDATE on the gateway).
pub(crate) fn thread_activity(shared: &Shared, channel: u64) {
    let event = {
        let mut st = shared.lock();
        let now = st.now();
        let Some(t) = st.channels.get_mut(&channel).filter(|t| t.is_thread()) else {
            return;
        };
        t.last_activity = now;
        if !t.archived {
            return;
        }
        t.archived = false;
        t.archive_changed = now;
        let t = t.clone();
        (t.guild_id, payloads::channel(&st, &t))
    };
    gateway::dispatch(shared, event.0, "THREAD_UPDATE", event.1);
}

/// Room for one more active thread of `kind` in `guild`: "guilds are capped at a certain
/// number of active threads" (Topics > Threads > Active & Archived Threads); past the cap
/// 400, 160006 "Maximum number of active threads reached", or 160007 "Maximum number of
/// active announcement threads reached" for announcement threads (JSON Error Codes).
pub(super) fn active_thread_room(
    st: &mut State,
    guild: Option<u64>,
    kind: ChannelKind,
    what: &str,
) -> Result<(), Box<Response>> {
    let announcement = kind == ChannelKind::AnnouncementThread;
    let active = st
        .channels
        .values()
        .filter(|t| t.is_thread() && !t.archived && !t.deleted && t.guild_id == guild)
        .filter(|t| (t.kind == ChannelKind::AnnouncementThread) == announcement)
        .count();
    let (limit, code, message) = if announcement {
        (
            st.limits.active_announcement_threads,
            160007,
            "Maximum number of active announcement threads reached",
        )
    } else {
        (
            st.limits.active_threads,
            160006,
            "Maximum number of active threads reached",
        )
    };
    if active >= limit {
        return Err(Box::new(reject(
            st,
            what,
            StatusCode::BAD_REQUEST,
            code,
            message,
        )));
    }
    Ok(())
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
    let now = st.now();
    let mut c = FakeChannel::new(id, "", ChannelKind::Dm, None, None, now);
    c.recipient = Some(user.id);
    st.dm_channels.insert(user.id, id);
    st.channels.insert(id, c.clone());
    c
}

/// 50024 "Cannot execute action on this channel type" (JSON Error Codes): the fake's answer
/// for a thread asked of a channel that cannot hold that kind of thread. (The documentation
/// says which parents take which threads, not which code the refusal carries.)
fn wrong_channel_type(st: &mut State, what: &str) -> Response {
    reject(
        st,
        what,
        StatusCode::BAD_REQUEST,
        50024,
        "Cannot execute action on this channel type",
    )
}

/// POST /channels/{id}/threads (Start Thread without Message, or Start Thread in Forum or Media
/// Channel) and POST /channels/{id}/messages/{message}/threads (Start Thread from Message), as
/// Resources > Channel and Topics > Threads say:
/// - from a message: "When called on a `GUILD_TEXT` channel, creates a `PUBLIC_THREAD`. When
///   called on a `GUILD_ANNOUNCEMENT` channel, creates a `ANNOUNCEMENT_THREAD`. Does not work
///   on a `GUILD_FORUM`"; "The id of the created thread will be the same as the id of the source
///   message, and as such a message can only have a single thread created from it" (160004);
/// - without a message: "`type` currently defaults to `PRIVATE_THREAD`"; "Private threads …
///   can only be created in `GUILD_TEXT` channels"; "`GUILD_ANNOUNCEMENT` channels create
///   `ANNOUNCEMENT_THREAD`" ("The type of thread created matches the type of the parent
///   channel", Public & Private Threads);
/// - in a forum: a first `message` is required ("contents of the first message in the
///   forum/media thread"), "The type of the created thread is `PUBLIC_THREAD`", and "The
///   current user must have the `SEND_MESSAGES` permission (`CREATE_PUBLIC_THREADS` is
///   ignored)"; the answer is the channel "with a nested message object";
/// - a voice channel, a category, a thread or a DM holds no threads (50024);
/// - `name` "1-100 character channel name"; `auto_archive_duration` "can be set to: 60, 1440,
///   4320, 10080" (minutes);
/// - past the guild's active-thread cap: 160006 (160007 for announcement threads).
pub(super) fn start_thread(
    shared: &Shared,
    channel: &str,
    message: Option<&str>,
    body: Body2,
) -> Response {
    let mut st = shared.lock();
    let what = "start thread";
    let c = match reachable(&mut st, channel, what) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    let kinds = format!("{what} in a channel of type {}", c.kind.number());
    let json = &body.json;
    let kind = match (message.is_some(), c.kind) {
        (true, ChannelKind::Text) => ChannelKind::PublicThread,
        (true, ChannelKind::Announcement) => ChannelKind::AnnouncementThread,
        (false, ChannelKind::Forum) => ChannelKind::PublicThread,
        (false, ChannelKind::Text | ChannelKind::Announcement) => {
            let asked = json["type"].as_u64().unwrap_or(12);
            let Some(kind) = ChannelKind::from_number(asked).filter(|k| k.is_thread()) else {
                return invalid_form(
                    &mut st,
                    what,
                    &format!("type {asked} is not a thread type (10, 11, 12)"),
                );
            };
            let allowed = match c.kind {
                ChannelKind::Text => {
                    matches!(kind, ChannelKind::PublicThread | ChannelKind::PrivateThread)
                }
                _ => kind == ChannelKind::AnnouncementThread,
            };
            if !allowed {
                return wrong_channel_type(&mut st, &format!("{kinds}: a thread of type {asked}"));
            }
            kind
        }
        _ => return wrong_channel_type(&mut st, &kinds),
    };
    let forum = c.kind == ChannelKind::Forum;
    let name = json["name"].as_str().unwrap_or("");
    let n = name.chars().count();
    if !(1..=100).contains(&n) {
        return invalid_form(&mut st, what, &format!("name is {n} characters (1-100)"));
    }
    let minutes = match &json["auto_archive_duration"] {
        Value::Null => DEFAULT_AUTO_ARCHIVE_MINUTES,
        v => match v.as_u64() {
            Some(m @ (60 | 1440 | 4320 | 10080)) => m as u32,
            _ => {
                return invalid_form(
                    &mut st,
                    what,
                    &format!("auto_archive_duration {v} is not one of 60, 1440, 4320, 10080"),
                )
            }
        },
    };
    let first = if forum {
        let m = json.get("message").filter(|m| m.is_object()).cloned();
        let Some(m) = m else {
            return invalid_form(
                &mut st,
                what,
                "message: a thread in a forum channel needs its first message",
            );
        };
        if let Err(e) = limits::check_message(&m, body.files.len(), false) {
            return invalid_form(&mut st, what, &format!("message: {e}"));
        }
        if let Err(r) = upload_sizes(&mut st, &body.files) {
            return *r;
        }
        Some(m)
    } else {
        None
    };
    let perms = st.bot_permissions(c.id);
    let (needed, bit) = match (forum, kind) {
        (true, _) => ("SEND_MESSAGES", perm::SEND_MESSAGES),
        (false, ChannelKind::PrivateThread) => {
            ("CREATE_PRIVATE_THREADS", perm::CREATE_PRIVATE_THREADS)
        }
        _ => ("CREATE_PUBLIC_THREADS", perm::CREATE_PUBLIC_THREADS),
    };
    if perms & bit == 0 {
        return missing_permissions(&mut st, &format!("start thread without {needed}"));
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
    if let Err(r) = active_thread_room(&mut st, c.guild_id, kind, what) {
        return *r;
    }
    let now = st.now();
    let mut thread = new_thread(id, &c, name, kind, now);
    thread.auto_archive_minutes = minutes;
    st.channels.insert(id, thread.clone());
    let mut payload = payloads::channel(&st, &thread);
    if let Err(e) = payloads::check_channel(&payload) {
        st.violation(e);
    }
    let created = payload.clone();
    if let Some(m) = first {
        // The forum post's first message carries the thread's id, as Discord's does.
        let at = Placement {
            channel_id: id,
            origin: Origin::Channel,
            interaction_id: None,
            ephemeral_to: None,
            settled: true,
            nonce: None,
        };
        let stored = store_message(&mut st, at, &m, body.files);
        if let Some(x) = st.message_mut(stored.id) {
            x.id = id;
        }
        let mut stored = stored;
        stored.id = id;
        payload["message"] = payloads::message(&stored, payloads::bot_user());
    }
    drop(st);
    gateway::dispatch(shared, thread.guild_id, "THREAD_CREATE", created);
    (StatusCode::CREATED, Json(payload)).into_response()
}

/// A thread of `kind` in `parent`'s guild, created `now` (fake clock).
pub(crate) fn new_thread(
    id: u64,
    parent: &FakeChannel,
    name: &str,
    kind: ChannelKind,
    now: Instant,
) -> FakeChannel {
    FakeChannel::new(id, name, kind, parent.guild_id, Some(parent.id), now)
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

/// Discord's upload limits: "The file upload size limit applies to each file in a request. The
/// default limit is `10 MiB`" (Reference > Uploading Files), and "The maximum request size when
/// sending a message is **25 MiB**" (Resources > Message > Create Message). Past either: 413,
/// 40005 "Request entity too large" (JSON Error Codes). Tests may set smaller limits.
pub(crate) fn upload_sizes(st: &mut State, files: &[FakeFile]) -> Result<(), Box<Response>> {
    let (per_file, per_request) = (st.limits.upload_per_file, st.limits.upload_per_request);
    let biggest = files.iter().map(|f| f.bytes.len()).max().unwrap_or(0);
    let total: usize = files.iter().map(|f| f.bytes.len()).sum();
    if biggest > per_file || total > per_request {
        return Err(Box::new(reject(
            st,
            &format!(
                "upload of {total} bytes in {} files (largest {biggest}; limits {per_file} a file, {per_request} a request)",
                files.len()
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
            40005,
            "Request entity too large",
        )));
    }
    Ok(())
}
