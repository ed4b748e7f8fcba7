//! JSON payloads in Discord's shapes. Serenity silently drops an event it cannot deserialize,
//! so every interaction is checked against serenity's own model types before it is sent.

use serde_json::{json, Value};
use serenity::all as model;

use super::state::{
    snowflake_time, ChannelKind, Clock, FakeChannel, FakeMessage, FakeUser, State, Upload,
    APPLICATION_ID, GUILD_ID,
};

pub const TIMESTAMP: &str = "2026-01-01T12:00:00.000000+00:00";

pub fn user(u: &FakeUser) -> Value {
    json!({
        "id": u.id.to_string(),
        "username": u.name,
        "global_name": u.name,
        "discriminator": "0",
        "avatar": null,
        "bot": false,
        "public_flags": 0,
    })
}

pub fn bot_user() -> Value {
    json!({
        "id": APPLICATION_ID.to_string(),
        "username": "Tokar",
        "global_name": null,
        "discriminator": "0",
        "avatar": null,
        "bot": true,
        "public_flags": 0,
        "verified": true,
        "mfa_enabled": false,
        "flags": 0,
    })
}

pub fn member(u: &FakeUser) -> Value {
    json!({
        "user": user(u),
        "nick": null,
        "avatar": null,
        "roles": [],
        "joined_at": TIMESTAMP,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "permissions": "2248473465835073",
        "communication_disabled_until": null,
    })
}

/// READY for a session of `shard` (`[shard_id, num_shards]`), listing `guilds`: "Guilds
/// the user is in" as unavailable guilds, and the "Shard information associated with this
/// session, if sent when identifying" (Events > Gateway Events > Ready).
pub fn ready(session_id: &str, resume_url: &str, shard: [u32; 2], guilds: &[u64]) -> Value {
    let guilds: Vec<Value> = guilds
        .iter()
        .map(|g| json!({"id": g.to_string(), "unavailable": true}))
        .collect();
    json!({
        "v": 10,
        "user": bot_user(),
        "guilds": guilds,
        "session_id": session_id,
        "resume_gateway_url": resume_url,
        "shard": shard,
        "application": {"id": APPLICATION_ID.to_string(), "flags": 0},
    })
}

/// An ISO8601 timestamp (as Discord writes them, `2026-01-01T12:00:00.000000+00:00`) of the
/// Unix time `ms` in milliseconds.
pub fn iso(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}000+00:00",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        ms % 1000
    )
}

/// A thread's `thread_metadata`: "`archived`, `archive_timestamp`, `auto_archive_duration`,
/// `locked`. `archive_timestamp` is changed when creating, archiving, or unarchiving a thread"
/// (Topics > Threads > Thread Fields), times on the fake clock.
fn thread_metadata(c: &FakeChannel, clock: &Clock) -> Value {
    let mut v = json!({
        "archived": c.archived,
        "auto_archive_duration": c.auto_archive_minutes,
        "archive_timestamp": iso(clock.wall_ms(c.archive_changed)),
        "locked": c.locked,
        "create_timestamp": iso(clock.wall_ms(c.created)),
    });
    if c.kind == ChannelKind::PrivateThread {
        v["invitable"] = json!(true);
    }
    v
}

/// A channel as GET /channels/{id} returns it.
pub fn channel(st: &State, c: &FakeChannel) -> Value {
    match c.kind {
        ChannelKind::Dm => {
            let recipient = c
                .recipient
                .and_then(|u| st.users.get(&u))
                .map(user)
                .unwrap_or(Value::Null);
            json!({
                "id": c.id.to_string(),
                "type": 1,
                "last_message_id": null,
                "flags": 0,
                "recipients": [recipient],
            })
        }
        kind => {
            let mut v = json!({
                "id": c.id.to_string(),
                "type": kind.number(),
                "guild_id": c.guild_id.unwrap_or(GUILD_ID).to_string(),
                "name": c.name,
                "parent_id": c.parent_id.map(|p| p.to_string()),
                "last_message_id": null,
                "rate_limit_per_user": 0,
                "flags": 0,
                "nsfw": false,
            });
            match kind {
                k if k.is_thread() => {
                    let count = st
                        .messages
                        .iter()
                        .filter(|m| m.channel_id == c.id && !m.deleted)
                        .count();
                    v["owner_id"] = json!(c.owner_id.to_string());
                    v["message_count"] = json!(count);
                    v["member_count"] = json!(1);
                    v["total_message_sent"] = json!(count);
                    v["thread_metadata"] = thread_metadata(c, &st.clock);
                }
                ChannelKind::Category => {
                    v["position"] = json!(0);
                    v["permission_overwrites"] = json!([]);
                }
                ChannelKind::Forum => {
                    v["position"] = json!(0);
                    v["permission_overwrites"] = json!([]);
                    v["topic"] = Value::Null;
                    v["available_tags"] = json!([]);
                    v["default_reaction_emoji"] = Value::Null;
                    v["default_sort_order"] = Value::Null;
                    v["default_forum_layout"] = json!(0);
                }
                ChannelKind::Voice => {
                    v["bitrate"] = json!(64000);
                    v["user_limit"] = json!(0);
                    v["position"] = json!(0);
                    v["permission_overwrites"] = json!([]);
                }
                _ => {
                    v["position"] = json!(0);
                    v["permission_overwrites"] = json!([]);
                    v["topic"] = Value::Null;
                }
            }
            v
        }
    }
}

/// The partial channel an interaction carries: "Partial `Channel` objects only have `id`,
/// `name`, `type`, `permissions`, … `parent_id`, `guild_id`, … Threads will also have the
/// `thread_metadata` field." (Interactions > Receiving and Responding > Interaction Object).
pub fn partial_channel(c: &FakeChannel, user_permissions: u64, clock: &Clock) -> Value {
    let mut v = json!({
        "id": c.id.to_string(),
        "type": c.kind.number(),
        "permissions": user_permissions.to_string(),
        "last_message_id": null,
        "flags": 0,
    });
    if c.in_guild() {
        v["name"] = json!(c.name);
        v["guild_id"] = json!(c.guild_id.unwrap_or(GUILD_ID).to_string());
        v["nsfw"] = json!(false);
        v["rate_limit_per_user"] = json!(0);
        v["parent_id"] = json!(c.parent_id.map(|p| p.to_string()));
    }
    if c.is_thread() {
        v["thread_metadata"] = thread_metadata(c, clock);
    }
    v
}

/// A message as the REST API returns it.
pub fn message(m: &FakeMessage, author: Value) -> Value {
    let attachments: Vec<Value> = m
        .files
        .iter()
        .enumerate()
        .map(|(n, f)| {
            // Ids the fake skipped for them when it stored the message.
            let id = m.id + 1 + n as u64;
            json!({
                "id": id.to_string(),
                "filename": f.name,
                "size": f.bytes.len(),
                "url": format!("https://cdn.fake/attachments/{}/{}/{}", m.channel_id, id, f.name),
                "proxy_url": format!("https://media.fake/attachments/{}/{}/{}", m.channel_id, id, f.name),
                "content_type": f.content_type,
                "ephemeral": m.ephemeral_to.is_some(),
            })
        })
        .collect();
    let components: Vec<Value> = if m.buttons.is_empty() {
        Vec::new()
    } else {
        m.buttons
            .chunks(5)
            .map(|row| {
                json!({"type": 1, "components": row.iter().map(|b| json!({
                    "type": 2, "style": 1, "label": b.label, "custom_id": b.custom_id,
                })).collect::<Vec<_>>()})
            })
            .collect()
    };
    json!({
        "id": m.id.to_string(),
        "channel_id": m.channel_id.to_string(),
        "author": author,
        "content": m.content,
        // The snowflake's own time: "(snowflake >> 22) + 1420070400000" (Reference > Snowflakes).
        "timestamp": iso(snowflake_time(m.id)),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": m.pinged_everyone_or_roles,
        "mentions": m.pinged_users.iter().map(|id| json!({
            "id": id.to_string(), "username": "user", "discriminator": "0", "avatar": null,
            "global_name": null, "public_flags": 0,
        })).collect::<Vec<_>>(),
        "mention_roles": [],
        "attachments": attachments,
        "embeds": [],
        "pinned": false,
        "type": if m.interaction_id.is_some() { 20 } else { 0 },
        "flags": if m.ephemeral_to.is_some() { 64 } else { 0 },
        "components": components,
        "application_id": APPLICATION_ID.to_string(),
        "webhook_id": m.interaction_id.map(|_| APPLICATION_ID.to_string()),
        "nonce": m.nonce,
    })
}

/// A message as Discord stores it and GET /channels/{id}/messages returns it: without the
/// `nonce`, which only the create response and the MESSAGE_CREATE event carry ("Value will
/// appear in the Message Create event", Create Message > JSON/Form Params).
pub fn stored_message(m: &FakeMessage, author: Value) -> Value {
    let mut v = message(m, author);
    if let Some(o) = v.as_object_mut() {
        o.remove("nonce");
    }
    v
}

/// Where an interaction comes from: the channel and the bot's permissions there.
pub struct Source<'a> {
    pub channel: &'a FakeChannel,
    pub app_permissions: u64,
    /// The fake clock, for the times in a thread's metadata.
    pub clock: Clock,
}

/// The permissions of the invoking member (the fake's users hold what the bot holds).
const MEMBER_PERMISSIONS: u64 = super::permissions::DEFAULT;

/// The fields every interaction carries. From a guild channel (or thread): `guild_id`,
/// `member`, `context` 0 (GUILD); from the DM with the bot: no `guild_id`, `user` instead of
/// `member` ("User object for the invoking user, if invoked in a DM"), `context` 1 (BOT_DM).
/// `app_permissions` is the "Bitwise set of permissions the app has in the source location
/// of the interaction", as a string (Interactions > Receiving and Responding > Interaction
/// Structure). For a guild-installed app, `authorizing_integration_owners` maps "0" to the
/// guild id, or to "0" in a DM with the bot (Authorizing Integration Owners Object).
fn interaction_base(id: u64, token: &str, kind: u8, u: &FakeUser, src: &Source) -> Value {
    let c = src.channel;
    let mut v = json!({
        "id": id.to_string(),
        "application_id": APPLICATION_ID.to_string(),
        "type": kind,
        "channel_id": c.id.to_string(),
        "channel": partial_channel(c, MEMBER_PERMISSIONS, &src.clock),
        "token": token,
        "version": 1,
        "app_permissions": src.app_permissions.to_string(),
        "locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": 10_485_760,
    });
    if c.in_guild() {
        let guild = c.guild_id.unwrap_or(GUILD_ID).to_string();
        v["guild_id"] = json!(guild);
        v["guild_locale"] = json!("en-US");
        v["member"] = member(u);
        v["context"] = json!(0);
        v["authorizing_integration_owners"] = json!({"0": guild});
    } else {
        v["user"] = user(u);
        v["context"] = json!(1);
        v["authorizing_integration_owners"] = json!({"0": "0"});
    }
    v
}

/// What `resolved` carries for a command's options.
#[derive(Default)]
pub struct Resolved<'a> {
    pub users: Vec<FakeUser>,
    pub attachments: Vec<&'a Upload>,
}

/// An attachment as `resolved.attachments` carries it, its URL served by the fake itself.
pub fn attachment(base_url: &str, u: &Upload) -> Value {
    let url = format!("{base_url}/attachments/{}/{}", u.id, u.file.name);
    json!({
        "id": u.id.to_string(),
        "filename": u.file.name,
        "size": u.file.bytes.len(),
        "url": url,
        "proxy_url": url,
        "content_type": u.file.content_type,
        "ephemeral": true,
    })
}

/// A slash command or autocomplete interaction. `options` are already typed option objects.
#[allow(clippy::too_many_arguments)]
pub fn command_interaction(
    id: u64,
    token: &str,
    autocomplete: bool,
    u: &FakeUser,
    src: &Source,
    command: &Value,
    options: Vec<Value>,
    resolved: &Resolved,
    base_url: &str,
) -> Value {
    let mut v = interaction_base(id, token, if autocomplete { 4 } else { 2 }, u, src);
    let mut users = serde_json::Map::new();
    let mut members = serde_json::Map::new();
    for r in &resolved.users {
        users.insert(r.id.to_string(), user(r));
        let mut m = member(r);
        if let Some(obj) = m.as_object_mut() {
            obj.remove("user");
        }
        members.insert(r.id.to_string(), m);
    }
    let mut data = json!({
        "id": command["id"].clone(),
        "name": command["name"].clone(),
        "type": 1,
        "options": options,
    });
    if let Some(g) = command.get("guild_id") {
        data["guild_id"] = g.clone();
    }
    let mut res = serde_json::Map::new();
    if !users.is_empty() {
        res.insert("users".into(), Value::Object(users));
        if src.channel.in_guild() {
            res.insert("members".into(), Value::Object(members));
        }
    }
    if !resolved.attachments.is_empty() {
        let files: serde_json::Map<String, Value> = resolved
            .attachments
            .iter()
            .map(|a| (a.id.to_string(), attachment(base_url, a)))
            .collect();
        res.insert("attachments".into(), Value::Object(files));
    }
    if !res.is_empty() {
        data["resolved"] = Value::Object(res);
    }
    v["data"] = data;
    v
}

/// A button click on `message`.
pub fn component_interaction(
    id: u64,
    token: &str,
    u: &FakeUser,
    src: &Source,
    custom_id: &str,
    message: Value,
) -> Value {
    let mut v = interaction_base(id, token, 3, u, src);
    v["data"] = json!({"custom_id": custom_id, "component_type": 2});
    v["message"] = message;
    v
}

/// Serenity drops what it cannot read: make sure it can read this interaction.
pub fn check_interaction(v: &Value) -> Result<(), String> {
    serde_json::from_value::<model::Interaction>(v.clone())
        .map(drop)
        .map_err(|e| format!("serenity cannot read this interaction: {e}\n{v:#}"))
}

pub fn check_ready(v: &Value) -> Result<(), String> {
    serde_json::from_value::<model::Ready>(v.clone())
        .map(drop)
        .map_err(|e| format!("serenity cannot read READY: {e}"))
}

/// Serenity must read channels the fake sends in events and answers.
pub fn check_channel(v: &Value) -> Result<(), String> {
    serde_json::from_value::<model::Channel>(v.clone())
        .map(drop)
        .map_err(|e| format!("serenity cannot read this channel: {e}\n{v:#}"))
}

#[cfg(test)]
pub fn check_message(v: &Value) -> Result<(), String> {
    serde_json::from_value::<model::Message>(v.clone())
        .map(drop)
        .map_err(|e| format!("serenity cannot read this message: {e}\n{v:#}"))
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::state::{FakeFile, Origin};
    use super::*;

    fn text(id: u64) -> FakeChannel {
        FakeChannel::new(
            id,
            "general",
            ChannelKind::Text,
            Some(GUILD_ID),
            None,
            Instant::now(),
        )
    }

    #[test]
    fn payloads_read_as_serenity_types() {
        let alice = FakeUser::new(11, "alice");
        check_ready(&ready("s", "ws://127.0.0.1:1", [1, 2], &[GUILD_ID])).unwrap();
        let cmd = json!({"id": "5", "name": "board"});
        let opts = vec![json!({"name": "game", "type": 4, "value": 1})];
        let ch = text(3);
        let src = Source {
            channel: &ch,
            app_permissions: 1 << 11,
            clock: Clock::default(),
        };
        let upload = Upload {
            id: 77,
            file: FakeFile {
                name: "a.pgn".into(),
                content_type: Some("text/plain".into()),
                bytes: b"1. e4".to_vec(),
            },
        };
        let resolved = Resolved {
            users: vec![alice.clone()],
            attachments: vec![&upload],
        };
        let i = command_interaction(
            7,
            "t",
            false,
            &alice,
            &src,
            &cmd,
            opts,
            &resolved,
            "http://127.0.0.1:9",
        );
        check_interaction(&i).unwrap();
        assert_eq!(i["app_permissions"], "2048");
        assert_eq!(i["context"], 0);
        let mut thread = text(4);
        thread.kind = ChannelKind::PublicThread;
        thread.parent_id = Some(3);
        thread.archived = true;
        let mut dm = text(5);
        dm.kind = ChannelKind::Dm;
        dm.recipient = Some(11);
        for c in [&thread, &dm] {
            let src = Source {
                channel: c,
                app_permissions: 0,
                clock: Clock::default(),
            };
            let i = command_interaction(
                8,
                "t",
                false,
                &alice,
                &src,
                &cmd,
                vec![],
                &Resolved::default(),
                "",
            );
            check_interaction(&i).unwrap();
        }
        let mut st = State::new();
        st.users.insert(11, alice.clone());
        for c in [&ch, &thread, &dm] {
            check_channel(&channel(&st, c)).unwrap();
        }
        // Every kind the fake has reads as serenity's channel, as GET /channels/{id} and as
        // an interaction's source.
        for kind in [
            ChannelKind::Voice,
            ChannelKind::Category,
            ChannelKind::Announcement,
            ChannelKind::AnnouncementThread,
            ChannelKind::PrivateThread,
            ChannelKind::Forum,
        ] {
            let mut c = text(6);
            c.kind = kind;
            c.parent_id = kind.is_thread().then_some(3);
            let v = channel(&st, &c);
            assert_eq!(v["type"], kind.number());
            check_channel(&v).unwrap();
            let src = Source {
                channel: &c,
                app_permissions: 0,
                clock: Clock::default(),
            };
            let i = command_interaction(
                9,
                "t",
                false,
                &alice,
                &src,
                &cmd,
                vec![],
                &Resolved::default(),
                "",
            );
            check_interaction(&i).unwrap();
        }
        let m = FakeMessage {
            id: 9,
            channel_id: 3,
            content: "hi".into(),
            origin: Origin::Channel,
            interaction_id: None,
            ephemeral_to: None,
            files: vec![],
            buttons: vec![super::super::state::FakeButton {
                custom_id: "b".into(),
                label: "B".into(),
            }],
            pinged_users: vec![11],
            pinged_everyone_or_roles: false,
            notified: vec![11],
            received_at: Instant::now(),
            nonce: Some("n-1".into()),
            edits: 0,
            settled: true,
            deleted: false,
            raw: Value::Null,
        };
        let mv = message(&m, bot_user());
        check_message(&mv).unwrap();
        check_interaction(&component_interaction(8, "t2", &alice, &src, "b", mv)).unwrap();
    }
}
