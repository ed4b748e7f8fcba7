//! The REST API under /api/v10: the routes serenity and poise use, with Discord's rules.

use std::time::Instant;

use axum::body::{to_bytes, Body};
use axum::extract::{FromRequest, Multipart, Request, State as AxState};
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use tracing::debug;

use super::limits;
use super::payloads;
use super::state::{FakeButton, FakeFile, FakeMessage, Kind, Origin, State, FIRST_RESPONSE_LIMIT};
use super::{AppState, Shared};

/// Discord's JSON error shape.
fn discord_error(status: StatusCode, code: u32, message: &str) -> Response {
    (status, Json(json!({"code": code, "message": message}))).into_response()
}

/// A refused request that also counts as the bot breaking a rule.
fn refuse(st: &mut State, what: &str, status: StatusCode, code: u32, message: &str) -> Response {
    st.violation(format!("{what}: {message}"));
    discord_error(status, code, message)
}

fn invalid_form(st: &mut State, what: &str, reason: &str) -> Response {
    refuse(
        st,
        what,
        StatusCode::BAD_REQUEST,
        50035,
        &format!("Invalid Form Body: {reason}"),
    )
}

/// A request body: JSON, or multipart with `payload_json` and `files[n]`.
struct Body2 {
    json: Value,
    files: Vec<FakeFile>,
}

async fn read_body(req: Request) -> Result<Body2, String> {
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    if is_multipart {
        let mut mp = Multipart::from_request(req, &())
            .await
            .map_err(|e| e.to_string())?;
        let mut json = Value::Null;
        let mut files = Vec::new();
        while let Some(field) = mp.next_field().await.map_err(|e| e.to_string())? {
            let name = field.name().unwrap_or("").to_owned();
            if name == "payload_json" {
                let text = field.text().await.map_err(|e| e.to_string())?;
                json = serde_json::from_str(&text).map_err(|e| format!("payload_json: {e}"))?;
            } else if name.starts_with("files[") {
                let file_name = field.file_name().unwrap_or("").to_owned();
                let content_type = field.content_type().map(str::to_owned);
                let bytes = field.bytes().await.map_err(|e| e.to_string())?.to_vec();
                files.push(FakeFile {
                    name: file_name,
                    content_type,
                    bytes,
                });
            } else {
                return Err(format!("unexpected multipart field `{name}`"));
            }
        }
        Ok(Body2 { json, files })
    } else {
        let bytes = to_bytes(req.into_body(), 64 << 20)
            .await
            .map_err(|e| e.to_string())?;
        let json = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).map_err(|e| format!("body is not JSON: {e}"))?
        };
        Ok(Body2 {
            json,
            files: Vec::new(),
        })
    }
}

/// Every /api/v10 request lands here and is routed by hand (paths like `@original` and `@me`
/// are simplest matched as segments).
pub async fn handle(AxState(app): AxState<AppState>, req: Request<Body>) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let shared = app.shared.clone();
    let authorized = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("Bot "));
    debug!(target: "fake_discord", "{method} {path}");
    shared.lock().requests.push(format!("{method} {path}"));
    let Some(rest) = path.strip_prefix("/api/v10/") else {
        let mut st = shared.lock();
        return refuse(
            &mut st,
            &path,
            StatusCode::NOT_FOUND,
            0,
            "404: Not Found (no /api/v10 prefix)",
        );
    };
    let segs: Vec<String> = rest.split('/').map(str::to_owned).collect();
    let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
    if !authorized && segs.first() != Some(&"interactions") {
        return discord_error(StatusCode::UNAUTHORIZED, 0, "401: Unauthorized");
    }
    let body = match read_body(req).await {
        Ok(b) => b,
        Err(e) => {
            let mut st = shared.lock();
            return invalid_form(&mut st, &path, &e);
        }
    };
    let response = route(&app, &method, &segs, body);
    shared.changed();
    response
}

fn route(app: &AppState, method: &Method, segs: &[&str], body: Body2) -> Response {
    let shared = &app.shared;
    match (method.as_str(), segs) {
        ("GET", ["gateway"]) => Json(json!({"url": app.gateway_url})).into_response(),
        ("GET", ["gateway", "bot"]) => Json(json!({
            "url": app.gateway_url,
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }))
        .into_response(),
        ("PUT", ["applications", app_id, "commands"]) => register(shared, app_id, None, body.json),
        ("PUT", ["applications", app_id, "guilds", guild, "commands"]) => {
            let guild = guild.parse::<u64>().ok();
            register(shared, app_id, guild, body.json)
        }
        ("POST", ["interactions", id, token, "callback"]) => callback(shared, id, token, body),
        ("PATCH", ["webhooks", _app, token, "messages", "@original"]) => edit_original(shared, token, body),
        ("DELETE", ["webhooks", _app, token, "messages", "@original"]) => delete_original(shared, token),
        ("GET", ["webhooks", _app, token, "messages", "@original"]) => get_original(shared, token),
        ("POST", ["webhooks", _app, token]) => followup(shared, token, body),
        ("POST", ["channels", channel, "messages"]) => channel_message(shared, channel, body),
        ("POST", ["users", "@me", "channels"]) => dm_channel(shared, body.json),
        _ => {
            let mut st = shared.lock();
            let what = format!("{method} /{}", segs.join("/"));
            refuse(&mut st, &what, StatusCode::NOT_FOUND, 0, "404: route not served by the fake Discord")
        }
    }
}

fn register(shared: &Shared, app_id: &str, guild: Option<u64>, body: Value) -> Response {
    let mut st = shared.lock();
    if app_id != super::state::APPLICATION_ID.to_string() {
        return refuse(
            &mut st,
            "register commands",
            StatusCode::FORBIDDEN,
            50001,
            "Missing Access (wrong application id)",
        );
    }
    let Some(list) = body.as_array() else {
        return invalid_form(
            &mut st,
            "register commands",
            "expected an array of commands",
        );
    };
    if list.len() > 100 {
        return invalid_form(&mut st, "register commands", "more than 100 commands");
    }
    let mut stored = Vec::new();
    for c in list {
        let mut c = c.clone();
        if let Err(e) = check_command(&c) {
            return invalid_form(&mut st, "register commands", &e);
        }
        let id = st.fresh_id();
        c["id"] = json!(id.to_string());
        c["application_id"] = json!(super::state::APPLICATION_ID.to_string());
        c["version"] = json!(id.to_string());
        c["type"] = c.get("type").cloned().unwrap_or(json!(1));
        c["default_member_permissions"] = c
            .get("default_member_permissions")
            .cloned()
            .unwrap_or(Value::Null);
        if let Some(g) = guild {
            c["guild_id"] = json!(g.to_string());
        }
        stored.push(c);
    }
    st.commands.retain(|(g, _)| *g != guild);
    st.commands
        .extend(stored.iter().cloned().map(|c| (guild, c)));
    st.registrations += 1;
    Json(Value::Array(stored)).into_response()
}

/// Discord's rules for command definitions.
fn check_command(c: &Value) -> Result<(), String> {
    let name_ok = |n: &str| {
        (1..=32).contains(&n.chars().count())
            && n.chars()
                .all(|ch| ch.is_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '_')
    };
    let name = c["name"].as_str().unwrap_or("");
    if !name_ok(name) {
        return Err(format!("command name `{name}`"));
    }
    let d = c["description"].as_str().unwrap_or("").chars().count();
    if !(1..=100).contains(&d) {
        return Err(format!("/{name}: description of {d} characters"));
    }
    let options = c["options"].as_array().cloned().unwrap_or_default();
    if options.len() > 25 {
        return Err(format!("/{name}: more than 25 options"));
    }
    let mut seen_optional = false;
    for o in &options {
        let oname = o["name"].as_str().unwrap_or("");
        if !name_ok(oname) {
            return Err(format!("/{name}: option name `{oname}`"));
        }
        let d = o["description"].as_str().unwrap_or("").chars().count();
        if !(1..=100).contains(&d) {
            return Err(format!("/{name} {oname}: description of {d} characters"));
        }
        let required = o["required"].as_bool().unwrap_or(false);
        if required && seen_optional {
            return Err(format!(
                "/{name}: required option `{oname}` after an optional one"
            ));
        }
        seen_optional |= !required;
        let choices = o["choices"].as_array().map_or(0, Vec::len);
        if choices > 25 {
            return Err(format!("/{name} {oname}: more than 25 choices"));
        }
        if choices > 0 && o["autocomplete"].as_bool() == Some(true) {
            return Err(format!(
                "/{name} {oname}: choices and autocomplete together"
            ));
        }
    }
    Ok(())
}

/// Users mentioned in content and whether @everyone/@here or roles appear.
fn mentioned(content: &str) -> (Vec<u64>, bool, bool) {
    let mut users = Vec::new();
    let mut roles = false;
    let mut rest = content;
    while let Some(start) = rest.find("<@") {
        rest = &rest[start + 2..];
        let Some(end) = rest.find('>') else { break };
        let inner = &rest[..end];
        if let Some(role) = inner.strip_prefix('&') {
            roles |= role.parse::<u64>().is_ok();
        } else if let Ok(id) = inner.trim_start_matches('!').parse::<u64>() {
            if !users.contains(&id) {
                users.push(id);
            }
        }
    }
    let everyone = content.contains("@everyone") || content.contains("@here");
    (users, everyone, roles)
}

/// Whom Discord would notify for this content under these allowed_mentions.
fn pings(content: &str, allowed: Option<&Value>) -> (Vec<u64>, bool) {
    let (users, everyone, roles) = mentioned(content);
    let Some(am) = allowed else {
        return (users, everyone || roles);
    };
    let parse: Vec<&str> = am["parse"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let listed: Vec<u64> = am["users"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| {
                    v.as_str()
                        .and_then(|s| s.parse().ok())
                        .or_else(|| v.as_u64())
                })
                .collect()
        })
        .unwrap_or_default();
    let pinged = if parse.contains(&"users") {
        users
    } else {
        users.into_iter().filter(|u| listed.contains(u)).collect()
    };
    let listed_roles = am["roles"].as_array().is_some_and(|a| !a.is_empty());
    let loud = (everyone && parse.contains(&"everyone"))
        || (roles && (parse.contains(&"roles") || listed_roles));
    (pinged, loud)
}

fn buttons_of(body: &Value) -> Vec<FakeButton> {
    body["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .map(|b| FakeButton {
            custom_id: b["custom_id"].as_str().unwrap_or("").to_owned(),
            label: b["label"].as_str().unwrap_or("").to_owned(),
        })
        .collect()
}

fn is_ephemeral(body: &Value) -> bool {
    body["flags"].as_u64().is_some_and(|f| f & 64 != 0)
}

/// Stores a new message and returns it.
#[allow(clippy::too_many_arguments)]
fn store_message(
    st: &mut State,
    channel_id: u64,
    body: &Value,
    files: Vec<FakeFile>,
    origin: Origin,
    interaction_id: Option<u64>,
    ephemeral_to: Option<u64>,
    settled: bool,
) -> FakeMessage {
    let content = body["content"].as_str().unwrap_or("").to_owned();
    let (pinged_users, loud) = pings(&content, body.get("allowed_mentions"));
    let m = FakeMessage {
        id: st.fresh_id(),
        channel_id,
        content,
        origin,
        interaction_id,
        ephemeral_to,
        files,
        buttons: buttons_of(body),
        pinged_users,
        pinged_everyone_or_roles: loud,
        settled,
        deleted: false,
        raw: body.clone(),
    };
    st.messages.push(m.clone());
    m
}

fn callback(shared: &Shared, id: &str, token: &str, body: Body2) -> Response {
    let now = Instant::now();
    let mut st = shared.lock();
    let id: u64 = id.parse().unwrap_or(0);
    let Some(i) = st.interactions.get(&id).cloned() else {
        return refuse(
            &mut st,
            "interaction callback",
            StatusCode::NOT_FOUND,
            10062,
            "Unknown interaction",
        );
    };
    if i.token != token {
        return refuse(
            &mut st,
            "interaction callback",
            StatusCode::UNAUTHORIZED,
            50027,
            "Invalid Webhook Token",
        );
    }
    if i.first_response.is_some() {
        return refuse(
            &mut st,
            "interaction callback",
            StatusCode::BAD_REQUEST,
            40060,
            "Interaction has already been acknowledged.",
        );
    }
    let kind = body.json["type"].as_u64().unwrap_or(0);
    let data = body.json.get("data").cloned().unwrap_or(Value::Null);
    if let Some(x) = st.interactions.get_mut(&id) {
        x.first_response = Some((now, kind));
    }
    if now.duration_since(i.dispatched) > FIRST_RESPONSE_LIMIT {
        let late = now.duration_since(i.dispatched);
        return refuse(
            &mut st,
            &format!("interaction callback after {late:?}"),
            StatusCode::NOT_FOUND,
            10062,
            "Unknown interaction",
        );
    }
    match (i.kind, kind) {
        (Kind::Autocomplete, 8) => {
            if let Err(e) = limits::check_choices(&data) {
                return invalid_form(&mut st, "autocomplete", &e);
            }
            if let Some(x) = st.interactions.get_mut(&id) {
                x.choices = Some(data["choices"].as_array().cloned().unwrap_or_default());
            }
        }
        (Kind::Autocomplete, other) => {
            return invalid_form(
                &mut st,
                "autocomplete",
                &format!("callback type {other} for an autocomplete interaction"),
            );
        }
        (_, 8) => {
            return invalid_form(
                &mut st,
                "callback",
                "autocomplete result for a non-autocomplete interaction",
            )
        }
        (_, 4) => {
            if let Err(e) = limits::check_message(&data, body.files.len(), false) {
                return invalid_form(&mut st, "interaction response", &e);
            }
            let eph = is_ephemeral(&data).then_some(i.user.id);
            let m = store_message(
                &mut st,
                i.channel_id,
                &data,
                body.files,
                Origin::Response,
                Some(id),
                eph,
                true,
            );
            if let Some(x) = st.interactions.get_mut(&id) {
                x.original = Some(m.id);
                x.ephemeral = eph.is_some();
            }
        }
        (_, 5) => {
            let eph = is_ephemeral(&data).then_some(i.user.id);
            let placeholder = json!({"content": ""});
            let m = store_message(
                &mut st,
                i.channel_id,
                &placeholder,
                Vec::new(),
                Origin::Response,
                Some(id),
                eph,
                false,
            );
            if let Some(x) = st.interactions.get_mut(&id) {
                x.original = Some(m.id);
                x.deferred = true;
                x.ephemeral = eph.is_some();
            }
        }
        (Kind::Component, 6) => {}
        (Kind::Component, 7) => {
            if let Err(e) = limits::check_message(&data, body.files.len(), true) {
                return invalid_form(&mut st, "update message", &e);
            }
        }
        (_, other) => {
            return invalid_form(
                &mut st,
                "callback",
                &format!("callback type {other} not served"),
            )
        }
    }
    StatusCode::NO_CONTENT.into_response()
}

fn edit_original(shared: &Shared, token: &str, body: Body2) -> Response {
    let mut st = shared.lock();
    let Some(i) = st.interaction_by_token(token).cloned() else {
        return refuse(
            &mut st,
            "edit original",
            StatusCode::NOT_FOUND,
            10015,
            "Unknown Webhook",
        );
    };
    let Some(original) = i.original else {
        return refuse(
            &mut st,
            "edit original before any response",
            StatusCode::NOT_FOUND,
            10008,
            "Unknown Message",
        );
    };
    if let Err(e) = limits::check_message(&body.json, body.files.len(), true) {
        return invalid_form(&mut st, "edit original", &e);
    }
    let content = body.json["content"].as_str().map(str::to_owned);
    let (pinged, loud) = pings(
        content.as_deref().unwrap_or(""),
        body.json.get("allowed_mentions"),
    );
    let buttons = buttons_of(&body.json);
    let Some(m) = st.message_mut(original) else {
        return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
    };
    if m.deleted {
        return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
    }
    // Mentions notify only when a message is first shown: the edit of a deferred placeholder.
    if !m.settled {
        m.pinged_users = pinged;
        m.pinged_everyone_or_roles = loud;
    }
    if let Some(c) = content {
        m.content = c;
    }
    if body.json.get("components").is_some() {
        m.buttons = buttons;
    }
    m.files.extend(body.files);
    m.settled = true;
    m.raw = body.json;
    let m = m.clone();
    Json(payloads::message(&m, payloads::bot_user())).into_response()
}

fn delete_original(shared: &Shared, token: &str) -> Response {
    let mut st = shared.lock();
    let Some(i) = st.interaction_by_token(token).cloned() else {
        return refuse(
            &mut st,
            "delete original",
            StatusCode::NOT_FOUND,
            10015,
            "Unknown Webhook",
        );
    };
    let Some(m) = i.original.and_then(|id| st.message_mut(id)) else {
        return refuse(
            &mut st,
            "delete original before any response",
            StatusCode::NOT_FOUND,
            10008,
            "Unknown Message",
        );
    };
    m.deleted = true;
    StatusCode::NO_CONTENT.into_response()
}

fn get_original(shared: &Shared, token: &str) -> Response {
    let mut st = shared.lock();
    let Some(i) = st.interaction_by_token(token).cloned() else {
        return refuse(
            &mut st,
            "get original",
            StatusCode::NOT_FOUND,
            10015,
            "Unknown Webhook",
        );
    };
    match i
        .original
        .and_then(|id| st.message(id))
        .filter(|m| !m.deleted)
    {
        Some(m) => Json(payloads::message(m, payloads::bot_user())).into_response(),
        None => discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message"),
    }
}

fn followup(shared: &Shared, token: &str, body: Body2) -> Response {
    let mut st = shared.lock();
    let Some(i) = st.interaction_by_token(token).cloned() else {
        return refuse(
            &mut st,
            "follow-up",
            StatusCode::NOT_FOUND,
            10015,
            "Unknown Webhook",
        );
    };
    if i.first_response.is_none() {
        return refuse(
            &mut st,
            "follow-up before the interaction was answered",
            StatusCode::NOT_FOUND,
            10015,
            "Unknown Webhook",
        );
    }
    if i.kind == Kind::Autocomplete {
        return refuse(
            &mut st,
            "follow-up on autocomplete",
            StatusCode::BAD_REQUEST,
            50035,
            "Invalid Form Body",
        );
    }
    if let Err(e) = limits::check_message(&body.json, body.files.len(), false) {
        return invalid_form(&mut st, "follow-up", &e);
    }
    let eph = is_ephemeral(&body.json).then_some(i.user.id);
    let m = store_message(
        &mut st,
        i.channel_id,
        &body.json,
        body.files,
        Origin::Followup,
        Some(i.id),
        eph,
        true,
    );
    Json(payloads::message(&m, payloads::bot_user())).into_response()
}

fn channel_message(shared: &Shared, channel: &str, body: Body2) -> Response {
    let mut st = shared.lock();
    let Ok(channel_id) = channel.parse::<u64>() else {
        return refuse(
            &mut st,
            "channel message",
            StatusCode::NOT_FOUND,
            10003,
            "Unknown Channel",
        );
    };
    let dm_user = st
        .dm_channels
        .iter()
        .find(|(_, c)| **c == channel_id)
        .map(|(u, _)| *u);
    if !st.channels.contains_key(&channel_id) && dm_user.is_none() {
        return refuse(
            &mut st,
            "channel message",
            StatusCode::NOT_FOUND,
            10003,
            "Unknown Channel",
        );
    }
    if is_ephemeral(&body.json) {
        st.violation(
            "channel message with the ephemeral flag: Discord shows it to everyone".into(),
        );
    }
    if let Err(e) = limits::check_message(&body.json, body.files.len(), false) {
        return invalid_form(&mut st, "channel message", &e);
    }
    // A DM is seen by its recipient only.
    let m = store_message(
        &mut st,
        channel_id,
        &body.json,
        body.files,
        Origin::Channel,
        None,
        dm_user,
        true,
    );
    Json(payloads::message(&m, payloads::bot_user())).into_response()
}

fn dm_channel(shared: &Shared, body: Value) -> Response {
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
    let channel = match st.dm_channels.get(&user.id) {
        Some(c) => *c,
        None => {
            let c = st.fresh_id();
            st.dm_channels.insert(user.id, c);
            c
        }
    };
    Json(json!({
        "id": channel.to_string(),
        "type": 1,
        "last_message_id": null,
        "recipients": [payloads::user(&user)],
    }))
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_allowed_users_are_pinged() {
        let am = json!({"parse": [], "users": ["12"]});
        assert_eq!(pings("<@11> <@12> @everyone", Some(&am)), (vec![12], false));
        assert_eq!(pings("<@11> @everyone", None), (vec![11], true));
        let all = json!({"parse": ["users", "everyone"]});
        assert_eq!(pings("<@!11> @here", Some(&all)), (vec![11], true));
    }
}
