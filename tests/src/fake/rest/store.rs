//! Messages as Discord stores them: mentions, who gets notified, buttons.

use serde_json::Value;

use super::super::state::{ChannelKind, FakeButton, FakeFile, FakeMessage, Origin, State};

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

/// Whom this content may notify under these allowed_mentions.
pub(crate) fn pings(content: &str, allowed: Option<&Value>) -> (Vec<u64>, bool) {
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

pub(super) fn buttons_of(body: &Value) -> Vec<FakeButton> {
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

pub(super) fn is_ephemeral(body: &Value) -> bool {
    body["flags"].as_u64().is_some_and(|f| f & 64 != 0)
}

/// Where a new message goes and what it is.
pub(super) struct Placement {
    pub channel_id: u64,
    pub origin: Origin,
    pub interaction_id: Option<u64>,
    pub ephemeral_to: Option<u64>,
    /// False for a deferred "thinking…" placeholder.
    pub settled: bool,
    pub nonce: Option<String>,
}

/// Stores a new message and returns it. Notifications are decided here, once: mentioned
/// users that allowed_mentions lets through and that can see the message (an ephemeral
/// message is seen by one user only), and the other user of a DM. A deferred placeholder
/// notifies nobody, and neither does the edit that later fills it in.
pub(super) fn store_message(
    st: &mut State,
    at: Placement,
    body: &Value,
    files: Vec<FakeFile>,
) -> FakeMessage {
    let content = body["content"].as_str().unwrap_or("").to_owned();
    let (pinged_users, loud) = pings(&content, body.get("allowed_mentions"));
    let mut notified = Vec::new();
    if at.settled {
        notified = pinged_users
            .iter()
            .copied()
            .filter(|u| at.ephemeral_to.is_none_or(|v| v == *u))
            .collect();
        let dm_recipient = st
            .channels
            .get(&at.channel_id)
            .filter(|c| c.kind == ChannelKind::Dm)
            .and_then(|c| c.recipient);
        if let Some(r) = dm_recipient {
            if !notified.contains(&r) {
                notified.push(r);
            }
        }
    }
    let id = st.fresh_id();
    // The ids of its attachments (`id + 1 + n`, payloads.rs) are given to nothing else.
    st.next_id += files.len() as u64;
    let m = FakeMessage {
        id,
        channel_id: at.channel_id,
        content,
        origin: at.origin,
        interaction_id: at.interaction_id,
        ephemeral_to: at.ephemeral_to,
        files,
        buttons: buttons_of(body),
        pinged_users,
        pinged_everyone_or_roles: loud,
        notified,
        received_at: st.now(),
        nonce: at.nonce,
        edits: 0,
        settled: at.settled,
        deleted: false,
        raw: body.clone(),
    };
    let now = st.now();
    if let Some(t) = st
        .channels
        .get_mut(&m.channel_id)
        .filter(|t| t.is_thread() && !t.archived)
    {
        // "Activity is defined as sending a message" (Topics > Threads).
        t.last_activity = now;
    }
    st.messages.push(m.clone());
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_allowed_users_are_pinged() {
        let am = json!({"parse": [], "users": ["12"]});
        assert_eq!(pings("<@11> <@12> @everyone", Some(&am)), (vec![12], false));
        assert_eq!(pings("<@11> @everyone", None), (vec![11], true));
        let all = json!({"parse": ["users", "everyone"]});
        assert_eq!(pings("<@!11> @here", Some(&all)), (vec![11], true));
    }
}
