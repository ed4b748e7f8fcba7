//! The REST API under /api/v10: the routes serenity and poise use, with Discord's rules, and
//! the fake's own "CDN" for files users attach to command options.

mod channels;
mod commands;
mod interactions;
pub(crate) mod invalid;
pub(crate) mod ratelimits;
mod store;

use axum::body::{to_bytes, Body};
use axum::extract::{FromRequest, Multipart, Request, State as AxState};
use axum::http::{header, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use tracing::debug;

use super::faults::{self, Fault, RouteGroup};
use super::state::{FakeFile, State};
use super::{AppState, Shared};

pub(crate) use channels::{new_thread, open_dm, thread_activity};

/// Discord's JSON error shape.
fn discord_error(status: StatusCode, code: u32, message: &str) -> Response {
    (status, Json(json!({"code": code, "message": message}))).into_response()
}

/// A refused request that also counts as the bot breaking a rule.
fn refuse(st: &mut State, what: &str, status: StatusCode, code: u32, message: &str) -> Response {
    st.violation(format!("{what}: {message}"));
    st.rejections.push((what.to_owned(), status.as_u16(), code));
    discord_error(status, code, message)
}

/// A refused request that the bot could not have avoided (a closed DM, a deleted channel, a
/// permission taken away, an expired token): recorded, but not a rule broken.
fn reject(st: &mut State, what: &str, status: StatusCode, code: u32, message: &str) -> Response {
    tracing::info!(target: "fake_discord", "{what}: {status} {code} {message}");
    st.rejections.push((what.to_owned(), status.as_u16(), code));
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

/// Every request lands here. Before it is served, threads due to archive on the fake clock
/// archive, and an API request is refused while the invalid-request limit is exceeded or its
/// rate-limit bucket is empty; after it, an invalid answer (401, 403, 429) is counted and the
/// bucket's headers are added.
pub async fn handle(AxState(app): AxState<AppState>, req: Request<Body>) -> Response {
    let shared = app.shared.clone();
    super::world::archive_due(&shared);
    let api = req
        .uri()
        .path()
        .strip_prefix("/api/v10/")
        .map(str::to_owned);
    let Some(api) = api else {
        return serve(app, req).await;
    };
    if let Some(banned) = invalid::banned(&shared) {
        return banned;
    }
    let bucket = {
        let segs: Vec<&str> = api.split('/').collect();
        let mut st = shared.lock();
        match ratelimits::take(&mut st, req.method().as_str(), &segs) {
            Ok(b) => b,
            Err(limited) => {
                let r = *limited;
                invalid::count(&mut st, &r);
                return r;
            }
        }
    };
    let mut response = serve(app, req).await;
    let mut st = shared.lock();
    // An injected 429 keeps the headers it was given.
    let own = response.headers().contains_key("x-ratelimit-bucket");
    if let Some(b) = bucket.filter(|_| !own) {
        ratelimits::headers(&st, &b, &mut response);
    }
    invalid::count(&mut st, &response);
    response
}

/// Routes a request by hand (paths like `@original` and `@me` are simplest matched as
/// segments).
async fn serve(app: AppState, req: Request<Body>) -> Response {
    let method = req.method().clone();
    let query = req.uri().query().unwrap_or("").to_owned();
    let path = req.uri().path().to_owned();
    let shared = app.shared.clone();
    let authorized = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("Bot "));
    debug!(target: "fake_discord", "{method} {path}");
    shared.lock().requests.push(format!("{method} {path}"));
    if let Some(rest) = path.strip_prefix("/attachments/") {
        return attachment(&shared, rest);
    }
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
    // A reset token: "401 (UNAUTHORIZED): The `Authorization` header was missing or invalid"
    // (Topics > Opcodes and Status Codes > HTTP Response Codes), for every call.
    if shared.lock().token_refused {
        return discord_error(StatusCode::UNAUTHORIZED, 0, "401: Unauthorized");
    }
    let body = match read_body(req).await {
        Ok(b) => b,
        Err(e) => {
            let mut st = shared.lock();
            return invalid_form(&mut st, &path, &e);
        }
    };
    let group = RouteGroup::of(method.as_str(), &segs);
    let fault = draw_fault(&shared, group);
    if matches!(
        fault,
        Some((Fault::ServerError | Fault::RateLimited { .. }, _))
    ) && group == RouteGroup::InteractionCallbacks
    {
        mark_refused(&shared, segs.get(1).copied());
    }
    let response = match fault {
        Some((Fault::ServerError, variant)) => faults::server_error(variant),
        Some((Fault::RateLimited { retry_after }, _)) => faults::rate_limited(retry_after, group),
        Some((Fault::LostResponse, _)) => {
            let performed = route(&app, &method, &segs, &query, body);
            if group == RouteGroup::InteractionCallbacks {
                mark_ack_lost(&shared, segs.get(1).copied());
            }
            debug!(target: "fake_discord", "lost the answer {} to {method} {path}", performed.status());
            faults::lost_response()
        }
        None => route(&app, &method, &segs, &query, body),
    };
    shared.changed();
    response
}

/// Counts the request if the active fault plan selects it and draws its fate.
fn draw_fault(shared: &Shared, group: RouteGroup) -> Option<(Fault, u64)> {
    let mut st = shared.lock();
    let plan = st.faults.clone()?;
    if !plan.routes.matches(group) {
        return None;
    }
    let n = st.fault_counter;
    st.fault_counter += 1;
    let drawn = plan.draw(n)?;
    st.fault_counts.count(&drawn.0);
    tracing::info!(target: "fake_discord", "injecting {:?} into request {n} ({group:?})", drawn.0);
    Some(drawn)
}

fn mark_ack_lost(shared: &Shared, id: Option<&str>) {
    let mut st = shared.lock();
    if let Some(i) = id
        .and_then(|id| id.parse::<u64>().ok())
        .and_then(|id| st.interactions.get_mut(&id))
    {
        if i.first_response.is_some() {
            i.ack_lost = true;
        }
    }
}

fn mark_refused(shared: &Shared, id: Option<&str>) {
    let mut st = shared.lock();
    if let Some(i) = id
        .and_then(|id| id.parse::<u64>().ok())
        .and_then(|id| st.interactions.get_mut(&id))
    {
        i.callback_refused = true;
    }
}

/// GET /attachments/{id}/{name}: the bytes of a file a user attached to a command option.
fn attachment(shared: &Shared, rest: &str) -> Response {
    let st = shared.lock();
    let found = rest
        .split('/')
        .next()
        .and_then(|id| id.parse::<u64>().ok())
        .and_then(|id| st.uploads.get(&id));
    match found {
        Some(u) => (
            StatusCode::OK,
            [(
                header::CONTENT_TYPE,
                u.file
                    .content_type
                    .clone()
                    .unwrap_or_else(|| "application/octet-stream".into()),
            )],
            u.file.bytes.clone(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "404: Not Found").into_response(),
    }
}

fn route(app: &AppState, method: &Method, segs: &[&str], query: &str, body: Body2) -> Response {
    let shared = &app.shared;
    match (method.as_str(), segs) {
        ("GET", ["gateway"]) => Json(json!({"url": app.gateway_url})).into_response(),
        ("GET", ["gateway", "bot"]) => {
            let mut st = shared.lock();
            let now = st.now();
            let limit = st.budget().limit(now);
            Json(json!({
                "url": app.gateway_url,
                // "Recommended number of shards to use when connecting" (see shards.rs).
                "shards": st.recommended_shards,
                // "Session Start Limit Object" (Events > Gateway).
                "session_start_limit": {
                    "total": limit.total,
                    "remaining": limit.remaining,
                    "reset_after": limit.reset_after.as_millis() as u64,
                    "max_concurrency": limit.max_concurrency,
                },
            }))
            .into_response()
        }
        ("PUT", ["applications", app_id, "commands"]) => {
            commands::register(shared, app_id, None, body.json)
        }
        ("PUT", ["applications", app_id, "guilds", guild, "commands"]) => {
            let guild = guild.parse::<u64>().ok();
            commands::register(shared, app_id, guild, body.json)
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            interactions::callback(shared, id, token, body)
        }
        ("PATCH", ["webhooks", _app, token, "messages", "@original"]) => {
            interactions::edit_original(shared, token, body)
        }
        ("DELETE", ["webhooks", _app, token, "messages", "@original"]) => {
            interactions::delete_original(shared, token)
        }
        ("GET", ["webhooks", _app, token, "messages", "@original"]) => {
            interactions::get_original(shared, token)
        }
        ("POST", ["webhooks", _app, token]) => interactions::followup(shared, token, body),
        ("GET", ["channels", channel]) => channels::get_channel(shared, channel),
        ("GET", ["channels", channel, "messages"]) => {
            channels::get_messages(shared, channel, query)
        }
        ("POST", ["channels", channel, "messages"]) => {
            channels::channel_message(shared, channel, body)
        }
        ("POST", ["channels", channel, "threads"]) => {
            channels::start_thread(shared, channel, None, body)
        }
        ("POST", ["channels", channel, "messages", message, "threads"]) => {
            channels::start_thread(shared, channel, Some(message), body)
        }
        ("POST", ["users", "@me", "channels"]) => channels::dm_channel(shared, &body.json),
        ("GET", ["guilds", guild, "threads", "active"]) => channels::active_threads(shared, guild),
        _ => {
            let mut st = shared.lock();
            let what = format!("{method} /{}", segs.join("/"));
            refuse(
                &mut st,
                &what,
                StatusCode::NOT_FOUND,
                0,
                "404: route not served by the fake Discord",
            )
        }
    }
}
