//! Interaction callbacks and the interaction webhook: the original response and follow-ups.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::super::limits;
use super::super::payloads;
use super::super::state::{
    FakeInteraction, Kind, Origin, State, FIRST_RESPONSE_LIMIT, TOKEN_LIFETIME,
};
use super::super::Shared;
use super::store::{buttons_of, is_ephemeral, pings, store_message, Placement};
use super::{discord_error, invalid_form, refuse, reject, Body2};

const UNKNOWN_MESSAGE: (StatusCode, u32, &str) = (StatusCode::NOT_FOUND, 10008, "Unknown Message");

pub(super) fn callback(shared: &Shared, id: &str, token: &str, body: Body2) -> Response {
    let mut st = shared.lock();
    let now = st.now();
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
        let (status, code, message) = (
            StatusCode::BAD_REQUEST,
            40060,
            "Interaction has already been acknowledged.",
        );
        // Repeating a callback whose answer was lost is what a careful client does; so is a
        // second bot process that received the same interaction on another session of the
        // shard and lost the race.
        if i.ack_lost || i.delivered_to > 1 {
            return reject(
                &mut st,
                "repeated interaction callback",
                status,
                code,
                message,
            );
        }
        return refuse(&mut st, "interaction callback", status, code, message);
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
    let placement = |settled: bool, eph: Option<u64>| Placement {
        channel_id: i.channel_id,
        origin: Origin::Response,
        interaction_id: Some(id),
        ephemeral_to: eph,
        settled,
        nonce: None,
    };
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
            let m = store_message(&mut st, placement(true, eph), &data, body.files);
            if let Some(x) = st.interactions.get_mut(&id) {
                x.original = Some(m.id);
                x.ephemeral = eph.is_some();
            }
        }
        (_, 5) => {
            let eph = is_ephemeral(&data).then_some(i.user.id);
            let placeholder = json!({"content": ""});
            let m = store_message(&mut st, placement(false, eph), &placeholder, Vec::new());
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

/// The interaction behind a webhook token, if the token is known and still valid: "Interaction
/// tokens are valid for **15 minutes**" (Interactions > Receiving and Responding > Followup
/// Messages); past that Discord answers 401 with 50027 "Invalid Webhook Token".
fn by_token(st: &mut State, token: &str, what: &str) -> Result<FakeInteraction, Box<Response>> {
    let Some(i) = st.interaction_by_token(token).cloned() else {
        return Err(Box::new(refuse(
            st,
            what,
            StatusCode::NOT_FOUND,
            10015,
            "Unknown Webhook",
        )));
    };
    let age = st.now().saturating_duration_since(i.dispatched);
    if age > TOKEN_LIFETIME {
        return Err(Box::new(reject(
            st,
            &format!("{what} with an interaction token {}s old", age.as_secs()),
            StatusCode::UNAUTHORIZED,
            50027,
            "Invalid Webhook Token",
        )));
    }
    Ok(i)
}

/// The original response, unless there is none or it was deleted (10008 Unknown Message).
fn original_of(st: &mut State, i: &FakeInteraction, what: &str) -> Result<u64, Box<Response>> {
    let (status, code, message) = UNKNOWN_MESSAGE;
    match i.original.and_then(|id| st.message(id)) {
        // Asking is no mistake: a bot that restarted, or whose response was lost, may ask
        // whether its response got through; Discord answers 10008.
        None if what.starts_with("get") => Err(Box::new(reject(
            st,
            &format!("{what} before any response"),
            status,
            code,
            message,
        ))),
        None => Err(Box::new(refuse(
            st,
            &format!("{what} before any response"),
            status,
            code,
            message,
        ))),
        Some(m) if m.deleted => Err(Box::new(reject(
            st,
            &format!("{what} of a deleted response"),
            status,
            code,
            message,
        ))),
        Some(m) => Ok(m.id),
    }
}

pub(super) fn edit_original(shared: &Shared, token: &str, body: Body2) -> Response {
    let mut st = shared.lock();
    let i = match by_token(&mut st, token, "edit original") {
        Ok(i) => i,
        Err(r) => return *r,
    };
    let original = match original_of(&mut st, &i, "edit original") {
        Ok(id) => id,
        Err(r) => return *r,
    };
    if let Err(e) = limits::check_message(&body.json, body.files.len(), true) {
        return invalid_form(&mut st, "edit original", &e);
    }
    let content = body.json["content"].as_str().map(str::to_owned);
    let buttons = buttons_of(&body.json);
    let Some(m) = st.message_mut(original) else {
        return discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message");
    };
    // An edit notifies nobody, not even the one that fills in a deferred response: mentions
    // notify when a message is created. `pinged_users` follows the payload, `notified` not.
    if let Some(c) = content {
        let (pinged, loud) = pings(&c, body.json.get("allowed_mentions"));
        m.pinged_users = pinged;
        m.pinged_everyone_or_roles = loud;
        m.content = c;
    }
    if body.json.get("components").is_some() {
        m.buttons = buttons;
    }
    m.files.extend(body.files);
    m.settled = true;
    m.edits += 1;
    m.raw = body.json;
    let m = m.clone();
    Json(payloads::message(&m, payloads::bot_user())).into_response()
}

pub(super) fn delete_original(shared: &Shared, token: &str) -> Response {
    let mut st = shared.lock();
    let i = match by_token(&mut st, token, "delete original") {
        Ok(i) => i,
        Err(r) => return *r,
    };
    let original = match original_of(&mut st, &i, "delete original") {
        Ok(id) => id,
        Err(r) => return *r,
    };
    if let Some(m) = st.message_mut(original) {
        m.deleted = true;
    }
    StatusCode::NO_CONTENT.into_response()
}

pub(super) fn get_original(shared: &Shared, token: &str) -> Response {
    let mut st = shared.lock();
    let i = match by_token(&mut st, token, "get original") {
        Ok(i) => i,
        Err(r) => return *r,
    };
    match original_of(&mut st, &i, "get original") {
        Ok(id) => match st.message(id) {
            Some(m) => Json(payloads::message(m, payloads::bot_user())).into_response(),
            None => discord_error(StatusCode::NOT_FOUND, 10008, "Unknown Message"),
        },
        Err(r) => *r,
    }
}

pub(super) fn followup(shared: &Shared, token: &str, body: Body2) -> Response {
    let mut st = shared.lock();
    let i = match by_token(&mut st, token, "follow-up") {
        Ok(i) => i,
        Err(r) => return *r,
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
    // Once the original response is deleted, follow-ups fail with 10008 Unknown Message, as
    // the bot met when it removed a deferred "thinking…" to answer privately instead.
    if i.original
        .and_then(|id| st.message(id))
        .is_some_and(|m| m.deleted)
    {
        let (status, code, message) = UNKNOWN_MESSAGE;
        return refuse(
            &mut st,
            "follow-up after the original response was deleted",
            status,
            code,
            message,
        );
    }
    if st.channels.get(&i.channel_id).is_some_and(|c| c.deleted) {
        return reject(
            &mut st,
            "follow-up in a deleted channel",
            StatusCode::NOT_FOUND,
            10003,
            "Unknown Channel",
        );
    }
    if let Err(e) = limits::check_message(&body.json, body.files.len(), false) {
        return invalid_form(&mut st, "follow-up", &e);
    }
    let eph = is_ephemeral(&body.json).then_some(i.user.id);
    let at = Placement {
        channel_id: i.channel_id,
        origin: Origin::Followup,
        interaction_id: Some(i.id),
        ephemeral_to: eph,
        settled: true,
        nonce: None,
    };
    let m = store_message(&mut st, at, &body.json, body.files);
    let reply = Json(payloads::message(&m, payloads::bot_user())).into_response();
    drop(st);
    // A follow-up is a message posted in the channel: activity, and it unarchives a thread.
    super::thread_activity(shared, i.channel_id);
    reply
}
