//! Injected failures of the REST API, switchable per test: server errors as Discord's edge
//! gives them, rate limits, and lost responses (the request is performed, the answer is not
//! delivered). Which request fails is decided by the seed and a counter of the requests the
//! filter lets through, so a test is reproducible.

use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

/// One way a request may fail.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// 500, 502 or 503 with a JSON, HTML or plain body, as Discord's API or its edge
    /// (Cloudflare, Envoy) answers when it fails. Nothing is performed.
    ServerError,
    /// 429 with Discord's rate limit body and headers. Nothing is performed.
    RateLimited { retry_after: f64 },
    /// The request is performed (the message is created, the callback acknowledged), then the
    /// answer is a 500: the client cannot know that it succeeded.
    LostResponse,
}

/// Which requests faults may hit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RouteFilter {
    /// Every request but command registration and gateway discovery.
    All,
    /// POST/GET/PATCH/DELETE under /channels/{id}/messages.
    ChannelMessages,
    /// /webhooks/{app}/{token}…: follow-ups and the original response.
    Webhooks,
    /// POST /interactions/{id}/{token}/callback.
    InteractionCallbacks,
    /// POST /users/@me/channels (opening a DM).
    DmChannels,
    /// Creating threads.
    Threads,
    /// PUT …/commands: only when asked for by name.
    Registration,
    /// Any of these.
    Any(Vec<RouteFilter>),
}

/// The group a request belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteGroup {
    ChannelMessages,
    Webhooks,
    InteractionCallbacks,
    DmChannels,
    Threads,
    Registration,
    Gateway,
    Other,
}

impl RouteGroup {
    pub fn of(method: &str, segs: &[&str]) -> RouteGroup {
        match (method, segs) {
            (_, ["gateway", ..]) => RouteGroup::Gateway,
            ("PUT", ["applications", ..]) => RouteGroup::Registration,
            (_, ["interactions", _, _, "callback"]) => RouteGroup::InteractionCallbacks,
            (_, ["webhooks", ..]) => RouteGroup::Webhooks,
            (_, ["channels", _, "threads"]) | (_, ["channels", _, "messages", _, "threads"]) => {
                RouteGroup::Threads
            }
            (_, ["channels", _, "messages", ..]) => RouteGroup::ChannelMessages,
            ("POST", ["users", "@me", "channels"]) => RouteGroup::DmChannels,
            _ => RouteGroup::Other,
        }
    }

    /// A stand-in for Discord's `X-RateLimit-Bucket` hash.
    fn bucket(self) -> &'static str {
        match self {
            RouteGroup::ChannelMessages => "80c17d2f203122d936070c88c8d10f33",
            RouteGroup::Webhooks => "6f7e1f6d2a8b4c0e9a3d5b7c1e2f4a6b",
            RouteGroup::InteractionCallbacks => "a1b2c3d4e5f60718293a4b5c6d7e8f90",
            _ => "b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4",
        }
    }
}

impl RouteFilter {
    pub fn matches(&self, group: RouteGroup) -> bool {
        match self {
            RouteFilter::All => !matches!(group, RouteGroup::Registration | RouteGroup::Gateway),
            RouteFilter::ChannelMessages => group == RouteGroup::ChannelMessages,
            RouteFilter::Webhooks => group == RouteGroup::Webhooks,
            RouteFilter::InteractionCallbacks => group == RouteGroup::InteractionCallbacks,
            RouteFilter::DmChannels => group == RouteGroup::DmChannels,
            RouteFilter::Threads => group == RouteGroup::Threads,
            RouteFilter::Registration => group == RouteGroup::Registration,
            RouteFilter::Any(list) => list.iter().any(|f| f.matches(group)),
        }
    }
}

/// A fault plan: a `share` (0.0 to 1.0) of the requests `routes` selects fails, each with a
/// kind drawn from `kinds`.
#[derive(Clone, Debug)]
pub struct Faults {
    pub share: f64,
    pub seed: u64,
    pub kinds: Vec<Fault>,
    pub routes: RouteFilter,
}

impl Faults {
    /// Every selected request fails with `kind`.
    pub fn always(kind: Fault, routes: RouteFilter) -> Self {
        Self {
            share: 1.0,
            seed: 0,
            kinds: vec![kind],
            routes,
        }
    }

    /// A `share` of every request a message takes (channel messages, interaction responses and
    /// follow-ups, opening DMs) fails: a 5xx, a 429 asking for 50 ms, or a lost response.
    pub fn on_messages(share: f64, seed: u64) -> Self {
        Self {
            share,
            seed,
            kinds: vec![
                Fault::ServerError,
                Fault::RateLimited { retry_after: 0.05 },
                Fault::LostResponse,
            ],
            routes: RouteFilter::Any(vec![
                RouteFilter::ChannelMessages,
                RouteFilter::Webhooks,
                RouteFilter::InteractionCallbacks,
                RouteFilter::DmChannels,
            ]),
        }
    }

    /// Decides the fate of the `n`th selected request: the fault and a number to vary its body.
    pub fn draw(&self, n: u64) -> Option<(Fault, u64)> {
        if self.kinds.is_empty() {
            return None;
        }
        let a = splitmix64(self.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let b = splitmix64(a);
        let unit = (a >> 11) as f64 / (1u64 << 53) as f64;
        if unit >= self.share {
            return None;
        }
        let kind = self.kinds[(b % self.kinds.len() as u64) as usize].clone();
        Some((kind, splitmix64(b)))
    }
}

/// Injected faults so far, by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FaultCounts {
    pub server_errors: usize,
    pub rate_limited: usize,
    pub lost_responses: usize,
}

impl FaultCounts {
    pub fn total(&self) -> usize {
        self.server_errors + self.rate_limited + self.lost_responses
    }
    pub fn count(&mut self, fault: &Fault) {
        match fault {
            Fault::ServerError => self.server_errors += 1,
            Fault::RateLimited { .. } => self.rate_limited += 1,
            Fault::LostResponse => self.lost_responses += 1,
        }
    }
}

fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A server error as Discord answers one: its API's JSON 500, Cloudflare's HTML 502, or the
/// Envoy proxy's plain-text 503.
pub fn server_error(variant: u64) -> Response {
    match variant % 3 {
        0 => lost_response(),
        1 => (
            StatusCode::BAD_GATEWAY,
            [(header::CONTENT_TYPE, "text/html")],
            "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n\
             <center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>cloudflare</center>\r\n\
             </body>\r\n</html>\r\n",
        )
            .into_response(),
        _ => (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "text/plain")],
            "upstream connect error or disconnect/reset before headers. reset reason: overflow",
        )
            .into_response(),
    }
}

/// The 500 that stands for a lost answer.
pub fn lost_response() -> Response {
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        [(header::CONTENT_TYPE, "application/json")],
        r#"{"message": "500: Internal Server Error", "code": 0}"#,
    )
        .into_response()
}

/// A 429 as documented (Topics > Rate Limits > Exceeding A Rate Limit): the JSON body
/// `message`, `retry_after` (seconds, float) and `global`, and the headers `Retry-After`
/// (whole seconds, as in the documented example) and `X-RateLimit-Limit`, `-Remaining`,
/// `-Reset`, `-Reset-After`, `-Bucket` (Header Format) and `-Scope` ("Returned only on HTTP
/// 429 responses"; `user` for a per-route limit).
pub fn rate_limited(retry_after: f64, group: RouteGroup) -> Response {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
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
    let mut put = |name: &'static str, value: String| {
        if let Ok(v) = HeaderValue::from_str(&value) {
            h.insert(name, v);
        }
    };
    put("retry-after", format!("{}", retry_after.ceil() as u64));
    put("x-ratelimit-limit", "5".into());
    put("x-ratelimit-remaining", "0".into());
    put("x-ratelimit-reset", format!("{:.3}", now + retry_after));
    put("x-ratelimit-reset-after", format!("{retry_after:.3}"));
    put("x-ratelimit-bucket", group.bucket().into());
    put("x-ratelimit-scope", "user".into());
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_are_reproducible_and_near_the_share() {
        let f = Faults {
            share: 0.3,
            seed: 42,
            kinds: vec![Fault::ServerError, Fault::LostResponse],
            routes: RouteFilter::All,
        };
        let a: Vec<_> = (0..1000).map(|n| f.draw(n)).collect();
        let b: Vec<_> = (0..1000).map(|n| f.draw(n)).collect();
        assert_eq!(a, b);
        let hits = a.iter().filter(|d| d.is_some()).count();
        assert!((200..400).contains(&hits), "{hits}");
        assert!(a.iter().flatten().any(|(k, _)| *k == Fault::LostResponse));
        assert!(Faults::always(Fault::ServerError, RouteFilter::All)
            .draw(7)
            .is_some());
    }

    #[test]
    fn registration_fails_only_when_asked() {
        let put = RouteGroup::of("PUT", &["applications", "1", "commands"]);
        assert_eq!(put, RouteGroup::Registration);
        assert!(!RouteFilter::All.matches(put));
        assert!(RouteFilter::Registration.matches(put));
        let post = RouteGroup::of("POST", &["channels", "1", "messages"]);
        assert!(RouteFilter::All.matches(post));
        assert!(
            RouteFilter::Any(vec![RouteFilter::Webhooks, RouteFilter::ChannelMessages])
                .matches(post)
        );
        assert!(!RouteFilter::Webhooks.matches(post));
    }
}
