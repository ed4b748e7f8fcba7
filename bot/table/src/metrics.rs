//! What an operator watches: counters, gauges and histograms through the `metrics` facade,
//! exported in the Prometheus text format on a local address when `TOKAR_METRICS_ADDR` is set
//! (off by default). Without an exporter installed every call here costs next to nothing.
//!
//! | name | kind | what |
//! | --- | --- | --- |
//! | `tokar_commands_total{command}` | counter | interactions answered |
//! | `tokar_command_seconds{command}` | histogram | from the table's start to its answer |
//! | `tokar_outbox_depth` | gauge | entries waiting for delivery |
//! | `tokar_outbox_oldest_seconds` | gauge | age of the oldest waiting entry |
//! | `tokar_deliveries_total` | counter | entries delivered |
//! | `tokar_delivery_retries_total{reason}` | counter | attempts that will be retried |
//! | `tokar_delivery_failures_total{code}` | counter | entries that cannot be delivered as they are |
//! | `tokar_delivery_seconds` | histogram | from an entry's commit to Discord's acceptance |
//! | `tokar_games_in_play` | gauge | games started and not finished, counted every 10 minutes |
//! | `tokar_gateway_ready` | gauge | 1 while the gateway is connected and ready |
//! | `tokar_gateway_shards{range,total}` | gauge | gateway shards this process runs (`range` of `total`) |
//! | `tokar_discord_identify_total` | counter | IDENTIFYs the shards sent (each spends one of the day's session starts) |
//! | `tokar_discord_sessions_ready_total` | counter | READYs received: IDENTIFYs Discord accepted |
//! | `tokar_discord_session_starts_remaining` | gauge | session starts Discord had left at this process's start (`session_start_limit.remaining`) |
//! | `tokar_discord_start_refusals_total{reason}` | counter | starts refused before any IDENTIFY (`token`, `registration`, `session_starts`, `gateway`) |
//! | `tokar_discord_invalid_requests_total{status}` | counter | the bot's own requests (start-up, answers, delivery) Discord answered 401, 403 or 429: Discord bans an IP for a while past 10,000 of them in 10 minutes |
//! | `tokar_replays_drawn_total` | counter | `/replay` GIFs drawn (`table/src/replay_cache.rs`) |
//! | `tokar_replay_cache_hits_total` | counter | `/replay` of a finished game answered with its kept GIF |
//!
//! A scrape that answers is the health check: the process is up; `tokar_gateway_ready` and the
//! outbox's age say whether it is doing its work.

use std::net::SocketAddr;
use std::time::Duration;

/// Installs the Prometheus exporter, listening on `addr` (keep it local: 127.0.0.1).
pub fn serve(addr: SocketAddr) -> Result<(), String> {
    metrics_exporter_prometheus::PrometheusBuilder::new()
        .with_http_listener(addr)
        .install()
        .map_err(|e| format!("metrics endpoint on {addr}: {e}"))
}

pub fn command_answered(command: &str, took: Duration) {
    let command = command.to_owned();
    metrics::counter!("tokar_commands_total", "command" => command.clone()).increment(1);
    metrics::histogram!("tokar_command_seconds", "command" => command).record(took.as_secs_f64());
}

pub fn outbox(depth: usize, oldest: Duration) {
    metrics::gauge!("tokar_outbox_depth").set(depth as f64);
    metrics::gauge!("tokar_outbox_oldest_seconds").set(oldest.as_secs_f64());
}

pub fn delivered(since_commit: Duration) {
    metrics::counter!("tokar_deliveries_total").increment(1);
    metrics::histogram!("tokar_delivery_seconds").record(since_commit.as_secs_f64());
}

pub fn retry(reason: &'static str) {
    metrics::counter!("tokar_delivery_retries_total", "reason" => reason).increment(1);
}

pub fn failure(code: String) {
    metrics::counter!("tokar_delivery_failures_total", "code" => code).increment(1);
}

pub fn games_in_play(n: usize) {
    metrics::gauge!("tokar_games_in_play").set(n as f64);
}

pub fn gateway_ready(ready: bool) {
    metrics::gauge!("tokar_gateway_ready").set(if ready { 1.0 } else { 0.0 });
}

/// The gateway shards this process runs: which, of how many, and their count as the value, so
/// that the scrapes of several processes say together whether every shard is run.
pub fn gateway_shards(range: std::ops::Range<u32>, total: u32) {
    let label = format!("{}..{}", range.start, range.end);
    metrics::gauge!("tokar_gateway_shards", "range" => label, "total" => total.to_string())
        .set(f64::from(range.end - range.start));
}

/// One IDENTIFY sent by a shard: Discord allows a bot a fixed number a day (1,000 for most
/// bots, `session_start_limit`) and resets its token when they run out.
pub fn identify_attempt(_shard: u32) {
    metrics::counter!("tokar_discord_identify_total").increment(1);
}

/// One READY received: an IDENTIFY Discord accepted.
pub fn session_ready(_shard: u32) {
    metrics::counter!("tokar_discord_sessions_ready_total").increment(1);
}

/// The session starts Discord said were left, read before connecting.
pub fn session_starts_remaining(remaining: u64) {
    metrics::gauge!("tokar_discord_session_starts_remaining").set(remaining as f64);
}

/// A start refused before any IDENTIFY, and why (`token`, `registration`, `session_starts`,
/// `gateway`).
pub fn start_refused(reason: &'static str) {
    metrics::counter!("tokar_discord_start_refusals_total", "reason" => reason).increment(1);
}

/// One request Discord counts as invalid: "An invalid request is one that results in **401**,
/// **403**, or **429** statuses", and an IP making 10,000 of them in 10 minutes is restricted
/// for a while (Topics > Rate Limits > Invalid Request Limit). Other statuses are not counted.
pub fn invalid_request(status: u16) {
    if matches!(status, 401 | 403 | 429) {
        metrics::counter!("tokar_discord_invalid_requests_total", "status" => status.to_string())
            .increment(1);
    }
}

/// A `/replay` GIF drawn.
pub fn replay_drawn() {
    metrics::counter!("tokar_replays_drawn_total").increment(1);
}

/// A `/replay` of a finished game answered with the GIF drawn before.
pub fn replay_cache_hit() {
    metrics::counter!("tokar_replay_cache_hits_total").increment(1);
}
