//! JSON payloads in Discord's shapes. Serenity silently drops an event it cannot deserialize,
//! so every interaction is checked against serenity's own model types before it is sent.

use serde_json::{json, Value};
use serenity::all as model;

use super::state::{FakeMessage, FakeUser, APPLICATION_ID, GUILD_ID};

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

pub fn ready(session_id: &str, resume_url: &str) -> Value {
    json!({
        "v": 10,
        "user": bot_user(),
        "guilds": [{"id": GUILD_ID.to_string(), "unavailable": true}],
        "session_id": session_id,
        "resume_gateway_url": resume_url,
        "shard": [0, 1],
        "application": {"id": APPLICATION_ID.to_string(), "flags": 0},
    })
}

pub fn partial_channel(id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(),
        "name": name,
        "type": 0,
        "guild_id": GUILD_ID.to_string(),
        "permissions": "2248473465835073",
    })
}

/// A message as the REST API returns it.
pub fn message(m: &FakeMessage, author: Value) -> Value {
    let attachments: Vec<Value> = m
        .files
        .iter()
        .enumerate()
        .map(|(n, f)| {
            let id = m.id * 100 + n as u64;
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
        "timestamp": TIMESTAMP,
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
    })
}

/// The fields every interaction carries.
fn interaction_base(id: u64, token: &str, kind: u8, u: &FakeUser, channel: (u64, &str)) -> Value {
    json!({
        "id": id.to_string(),
        "application_id": APPLICATION_ID.to_string(),
        "type": kind,
        "guild_id": GUILD_ID.to_string(),
        "channel_id": channel.0.to_string(),
        "channel": partial_channel(channel.0, channel.1),
        "member": member(u),
        "token": token,
        "version": 1,
        "app_permissions": "2248473465835073",
        "locale": "en-US",
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": GUILD_ID.to_string()},
        "context": 0,
        "attachment_size_limit": 10_485_760,
    })
}

/// A slash command or autocomplete interaction. `options` are already typed option objects.
#[allow(clippy::too_many_arguments)]
pub fn command_interaction(
    id: u64,
    token: &str,
    autocomplete: bool,
    u: &FakeUser,
    channel: (u64, &str),
    command: &Value,
    options: Vec<Value>,
    resolved_users: &[FakeUser],
) -> Value {
    let mut v = interaction_base(id, token, if autocomplete { 4 } else { 2 }, u, channel);
    let mut users = serde_json::Map::new();
    let mut members = serde_json::Map::new();
    for r in resolved_users {
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
        "guild_id": GUILD_ID.to_string(),
    });
    if !users.is_empty() {
        data["resolved"] = json!({"users": users, "members": members});
    }
    v["data"] = data;
    v
}

/// A button click on `message`.
pub fn component_interaction(
    id: u64,
    token: &str,
    u: &FakeUser,
    channel: (u64, &str),
    custom_id: &str,
    message: Value,
) -> Value {
    let mut v = interaction_base(id, token, 3, u, channel);
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

#[cfg(test)]
pub fn check_message(v: &Value) -> Result<(), String> {
    serde_json::from_value::<model::Message>(v.clone())
        .map(drop)
        .map_err(|e| format!("serenity cannot read this message: {e}\n{v:#}"))
}

#[cfg(test)]
mod tests {
    use super::super::state::Origin;
    use super::*;

    #[test]
    fn payloads_read_as_serenity_types() {
        let alice = FakeUser::new(11, "alice");
        check_ready(&ready("s", "ws://127.0.0.1:1")).unwrap();
        let cmd = json!({"id": "5", "name": "board"});
        let opts = vec![json!({"name": "game", "type": 4, "value": 1})];
        let i = command_interaction(
            7,
            "t",
            false,
            &alice,
            (3, "general"),
            &cmd,
            opts,
            std::slice::from_ref(&alice),
        );
        check_interaction(&i).unwrap();
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
            settled: true,
            deleted: false,
            raw: Value::Null,
        };
        let mv = message(&m, bot_user());
        check_message(&mv).unwrap();
        check_interaction(&component_interaction(
            8,
            "t2",
            &alice,
            (3, "general"),
            "b",
            mv,
        ))
        .unwrap();
    }
}
