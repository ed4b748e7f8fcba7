//! PUT …/commands: registering the bot's commands, with Discord's limits on definitions.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::super::state::APPLICATION_ID;
use super::super::Shared;
use super::{invalid_form, refuse};

/// "Slash commands can have a maximum of 8000 characters for combined name, description, and
/// value properties for each command, its options (including subcommands and groups), and
/// choices" (Interactions > Application Commands > Slash Commands).
pub const COMBINED_LIMIT: usize = 8000;

pub(super) fn register(shared: &Shared, app_id: &str, guild: Option<u64>, body: Value) -> Response {
    let mut st = shared.lock();
    if app_id != APPLICATION_ID.to_string() {
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
        c["application_id"] = json!(APPLICATION_ID.to_string());
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
pub fn check_command(c: &Value) -> Result<(), String> {
    let name = c["name"].as_str().unwrap_or("");
    check_level(c, name, 0)?;
    let total = combined_length(c);
    if total > COMBINED_LIMIT {
        return Err(format!(
            "/{name}: {total} characters of names, descriptions and values (max {COMBINED_LIMIT})"
        ));
    }
    Ok(())
}

fn name_ok(n: &str) -> bool {
    (1..=32).contains(&n.chars().count())
        && n.chars()
            .all(|ch| ch.is_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '_')
}

/// Checks a command, or a subcommand (group) at `depth`, and its options.
fn check_level(c: &Value, path: &str, depth: usize) -> Result<(), String> {
    let name = c["name"].as_str().unwrap_or("");
    if !name_ok(name) {
        return Err(format!("command name `{name}` in /{path}"));
    }
    let d = c["description"].as_str().unwrap_or("").chars().count();
    if !(1..=100).contains(&d) {
        return Err(format!("/{path}: description of {d} characters"));
    }
    let options = c["options"].as_array().cloned().unwrap_or_default();
    if options.len() > 25 {
        return Err(format!("/{path}: more than 25 options"));
    }
    let mut seen_optional = false;
    for o in &options {
        let oname = o["name"].as_str().unwrap_or("");
        let kind = o["type"].as_u64().unwrap_or(0);
        if (kind == 1 || kind == 2) && depth < 2 {
            check_level(o, &format!("{path} {oname}"), depth + 1)?;
            continue;
        }
        if !name_ok(oname) {
            return Err(format!("/{path}: option name `{oname}`"));
        }
        let d = o["description"].as_str().unwrap_or("").chars().count();
        if !(1..=100).contains(&d) {
            return Err(format!("/{path} {oname}: description of {d} characters"));
        }
        let required = o["required"].as_bool().unwrap_or(false);
        if required && seen_optional {
            return Err(format!(
                "/{path}: required option `{oname}` after an optional one"
            ));
        }
        seen_optional |= !required;
        let choices = o["choices"].as_array().map_or(0, Vec::len);
        if choices > 25 {
            return Err(format!("/{path} {oname}: more than 25 choices"));
        }
        if choices > 0 && o["autocomplete"].as_bool() == Some(true) {
            return Err(format!(
                "/{path} {oname}: choices and autocomplete together"
            ));
        }
        // "min_length … (minimum of 0, maximum of 6000)", "max_length … (minimum of 1,
        // maximum of 6000)" (Application Command Option Structure).
        if o["min_length"].as_u64().is_some_and(|n| n > 6000)
            || o["max_length"].as_u64().is_some_and(|n| n == 0 || n > 6000)
        {
            return Err(format!(
                "/{path} {oname}: min_length/max_length beyond 0..6000"
            ));
        }
    }
    Ok(())
}

/// The longest of a field and its localizations: "When localization fields are present, only
/// the longest localization for each field (including the default value) is counted".
fn longest(v: &Value, field: &str) -> usize {
    let own = match &v[field] {
        Value::String(s) => s.chars().count(),
        Value::Null => 0,
        other => other.to_string().chars().count(),
    };
    let localized = v[format!("{field}_localizations")]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(Value::as_str)
        .map(|s| s.chars().count())
        .max()
        .unwrap_or(0);
    own.max(localized)
}

/// Name, description and value lengths of a command, its options and their choices.
pub fn combined_length(c: &Value) -> usize {
    let mut total = longest(c, "name") + longest(c, "description");
    for o in c["options"].as_array().into_iter().flatten() {
        total += combined_length(o);
    }
    for ch in c["choices"].as_array().into_iter().flatten() {
        total += longest(ch, "name") + longest(ch, "value");
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combined_length_counts_options_choices_and_the_longest_localization() {
        let c = json!({"name": "ab", "description": "cde",
            "description_localizations": {"fr": "cdefg"},
            "options": [{"name": "o", "description": "dd", "type": 3,
                "choices": [{"name": "x", "value": "yy"}, {"name": "z", "value": 10}]}]});
        assert_eq!(combined_length(&c), 2 + 5 + (1 + 2 + (1 + 2) + (1 + 2)));
        assert!(check_command(&c).is_ok());
        let opts: Vec<_> = (0..25)
            .map(|n| {
                json!({"name": format!("o{n}"), "description": "d".repeat(100), "type": 3,
                    "choices": (0..25).map(|k| json!({"name": format!("c{k}"), "value": "v".repeat(10)})).collect::<Vec<_>>()})
            })
            .collect();
        let big = json!({"name": "big", "description": "d", "options": opts});
        assert!(combined_length(&big) > COMBINED_LIMIT);
        assert!(check_command(&big).unwrap_err().contains("8000"));
    }
}
