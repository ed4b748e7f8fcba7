//! Per-route rate limits as Discord gives them (Topics > Rate Limits): "Per-route rate limits
//! exist for many individual endpoints, and may include the HTTP method"; they "account for
//! top-level resources within the path", "channels (`channel_id`), guilds (`guild_id`), and
//! webhooks (`webhook_id` or `webhook_id + webhook_token`)", so each channel (or interaction
//! token) has its own bucket of a route. Every answer of a limited route carries
//! `X-RateLimit-Limit`, `-Remaining`, `-Reset` ("Epoch time … at which the rate limit resets"),
//! `-Reset-After` ("Total time (in seconds) of when the current rate limit bucket will reset.
//! Can have decimals") and `-Bucket` ("A unique string denoting the rate limit being
//! encountered (non-inclusive of top-level resources in the path)"). A request on an empty
//! bucket is refused: "the API will return a HTTP 429 response code with a JSON body" of
//! `message`, `retry_after` and `global`, the `Retry-After` header, and "`X-RateLimit-Scope`
//! … `user` (per bot or user limit)". Nothing of it is performed.
//!
//! "rate limits should not be hard coded into your app": Discord does not document the
//! numbers. The fake's defaults are five requests per five seconds for creating channel
//! messages, as Discord answers today, and the other limits below; tests may set their own.
//! Windows run on the fake clock. Interaction callbacks have no bucket here.
//!
//! The headers are always sent; refusing requests on an empty bucket is opt-in
//! ([`super::super::FakeDiscord::enforce_rate_limits`]): the fake's own tests and the
//! end-to-end suites written before it send bursts (six messages to one channel at once) and
//! the bot talks to the fake with serenity's rate limiter off.

use std::collections::HashMap;
use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::super::state::State;

/// POST /channels/{id}/messages.
pub const CREATE_MESSAGE: &str = "create-message";
/// GET /channels/{id}/messages.
pub const GET_MESSAGES: &str = "get-messages";
/// GET /channels/{id}.
pub const GET_CHANNEL: &str = "get-channel";
/// POST /channels/{id}/threads and …/messages/{id}/threads.
pub const CREATE_THREAD: &str = "create-thread";
/// POST /users/@me/channels.
pub const OPEN_DM: &str = "open-dm";
/// /webhooks/{app}/{token}…: follow-ups and the original response.
pub const WEBHOOK: &str = "webhook";

/// How many requests a bucket takes per window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteLimit {
    pub limit: u32,
    pub per: Duration,
}

/// One bucket of one top-level resource: requests taken in the current window.
#[derive(Clone, Debug)]
struct Bucket {
    taken: u32,
    resets_at: std::time::Instant,
}

/// The limits, enforced when a test switches them on, and the buckets.
#[derive(Debug)]
pub struct RateLimits {
    pub enforce: bool,
    pub routes: HashMap<&'static str, RouteLimit>,
    buckets: HashMap<(&'static str, String), Bucket>,
    /// Requests refused for an empty bucket.
    pub refused: usize,
}

impl Default for RateLimits {
    fn default() -> Self {
        let per = |limit, secs| RouteLimit {
            limit,
            per: Duration::from_secs(secs),
        };
        Self {
            enforce: false,
            routes: HashMap::from([
                (CREATE_MESSAGE, per(5, 5)),
                (GET_MESSAGES, per(5, 5)),
                (GET_CHANNEL, per(5, 5)),
                (CREATE_THREAD, per(10, 10)),
                (OPEN_DM, per(10, 10)),
                (WEBHOOK, per(5, 2)),
            ]),
            buckets: HashMap::new(),
            refused: 0,
        }
    }
}

/// The bucket of a request: its route's name and its top-level resource.
fn route_of(method: &str, segs: &[&str]) -> Option<(&'static str, String)> {
    Some(match (method, segs) {
        ("POST", ["channels", c, "messages"]) => (CREATE_MESSAGE, (*c).to_owned()),
        ("GET", ["channels", c, "messages"]) => (GET_MESSAGES, (*c).to_owned()),
        ("GET", ["channels", c]) => (GET_CHANNEL, (*c).to_owned()),
        ("POST", ["channels", c, "threads"])
        | ("POST", ["channels", c, "messages", _, "threads"]) => (CREATE_THREAD, (*c).to_owned()),
        ("POST", ["users", "@me", "channels"]) => (OPEN_DM, String::new()),
        (_, ["webhooks", app, token, ..]) => (WEBHOOK, format!("{app}/{token}")),
        _ => return None,
    })
}

/// What a taken request's headers say.
pub(crate) struct Taken {
    name: &'static str,
    limit: u32,
    remaining: u32,
    resets_at: std::time::Instant,
}

/// Takes a request from its bucket: `Ok(None)` for a route without a limit, `Ok(Some)` with
/// what its headers say, or the 429 when the bucket is empty.
pub(crate) fn take(
    st: &mut State,
    method: &str,
    segs: &[&str],
) -> Result<Option<Taken>, Box<Response>> {
    let Some((name, resource)) = route_of(method, segs) else {
        return Ok(None);
    };
    let Some(rule) = st.rate_limits.routes.get(name).copied() else {
        return Ok(None);
    };
    let now = st.now();
    let enforce = st.rate_limits.enforce;
    let b = st
        .rate_limits
        .buckets
        .entry((name, resource))
        .or_insert(Bucket {
            taken: 0,
            resets_at: now,
        });
    if now >= b.resets_at {
        b.taken = 0;
        b.resets_at = now + rule.per;
    }
    let mut taken = Taken {
        name,
        limit: rule.limit,
        remaining: 0,
        resets_at: b.resets_at,
    };
    if b.taken >= rule.limit && enforce {
        st.rate_limits.refused += 1;
        let mut r = limited(&taken, taken.resets_at.saturating_duration_since(now));
        headers(st, &taken, &mut r);
        return Err(Box::new(r));
    }
    b.taken += 1;
    taken.remaining = rule.limit.saturating_sub(b.taken);
    Ok(Some(taken))
}

/// A stand-in for Discord's bucket hash.
fn bucket_hash(name: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Seconds, rounded up to the millisecond: a client that waits them is never early.
fn secs_up(d: Duration) -> f64 {
    (d.as_micros().div_ceil(1000) as f64) / 1000.0
}

/// Adds the bucket's headers to an answer.
pub(crate) fn headers(st: &State, t: &Taken, r: &mut Response) {
    let now = st.now();
    let after = t.resets_at.saturating_duration_since(now);
    let reset = st.clock.wall_ms(t.resets_at) as f64 / 1000.0;
    let h = r.headers_mut();
    let mut put = |name: &'static str, value: String| {
        if let Ok(v) = HeaderValue::from_str(&value) {
            h.insert(name, v);
        }
    };
    put("x-ratelimit-limit", t.limit.to_string());
    put("x-ratelimit-remaining", t.remaining.to_string());
    put("x-ratelimit-reset", format!("{reset:.3}"));
    put("x-ratelimit-reset-after", format!("{:.3}", secs_up(after)));
    put("x-ratelimit-bucket", bucket_hash(t.name));
}

/// The 429 of an empty bucket.
fn limited(t: &Taken, retry: Duration) -> Response {
    let retry_after = secs_up(retry);
    let body = serde_json::json!({
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": false,
    });
    let mut r = (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response();
    let h = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&format!("{}", retry_after.ceil() as u64)) {
        h.insert("retry-after", v);
    }
    h.insert("x-ratelimit-scope", HeaderValue::from_static("user"));
    tracing::info!(target: "fake_discord", "rate limited on {} for {retry_after}s", t.name);
    r
}
