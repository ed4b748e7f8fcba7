//! "Invalid Request Limit aka Cloudflare bans" (Topics > Rate Limits): "IP addresses that make
//! too many invalid HTTP requests are automatically and temporarily restricted from accessing
//! the Discord API. Currently, this limit is **10,000 per 10 minutes**. An invalid request is
//! one that results in **401**, **403**, or **429** statuses", and "429 errors returned with
//! `X-RateLimit-Scope: shared` are not counted against you." The window is measured on the fake
//! clock; the limit is [`Limits::invalid_requests`](super::super::state::Limits). While it is
//! exceeded every API request gets 429 (those refusals are not counted again: they are the
//! restriction's answers, not the API's).

use std::time::Duration;

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::super::state::State;
use super::super::Shared;

/// "10,000 per 10 minutes".
pub const WINDOW: Duration = Duration::from_secs(10 * 60);

fn prune(st: &mut State) {
    let now = st.now();
    while st
        .invalid_requests
        .front()
        .is_some_and(|t| now.saturating_duration_since(*t) >= WINDOW)
    {
        st.invalid_requests.pop_front();
    }
}

/// Invalid requests within the last 10 minutes of the fake clock.
pub(crate) fn recent(st: &mut State) -> usize {
    prune(st);
    st.invalid_requests.len()
}

/// Counts `r` if it is an invalid answer.
pub(crate) fn count(st: &mut State, r: &Response) {
    let status = r.status().as_u16();
    if !matches!(status, 401 | 403 | 429) {
        return;
    }
    let shared_scope = r
        .headers()
        .get("x-ratelimit-scope")
        .is_some_and(|v| v == "shared");
    if status == 429 && shared_scope {
        return;
    }
    let now = st.now();
    st.invalid_requests.push_back(now);
    st.invalid_total += 1;
}

/// The 429 every request gets while the limit is exceeded, else `None`.
pub(crate) fn banned(shared: &Shared) -> Option<Response> {
    let mut st = shared.lock();
    if recent(&mut st) < st.limits.invalid_requests {
        return None;
    }
    let now = st.now();
    let retry = st
        .invalid_requests
        .front()
        .map_or(WINDOW, |t| (*t + WINDOW).saturating_duration_since(now));
    st.invalid_refusals += 1;
    drop(st);
    let retry_after = retry.as_secs_f64();
    let body = serde_json::json!({
        "message": "You are being blocked from accessing our API temporarily due to exceeding our rate limits frequently. Please read our docs at https://discord.com/developers/docs/topics/rate-limits to prevent this moving forward.",
        "retry_after": retry_after,
        "global": true,
        "code": 0,
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
    h.insert("x-ratelimit-global", HeaderValue::from_static("true"));
    h.insert("x-ratelimit-scope", HeaderValue::from_static("global"));
    Some(r)
}
