//! Discord's rules on what a bot sends, which serenity does not check itself. A body that
//! breaks one is refused with Discord's own error shape and recorded as a violation.

use serde_json::Value;

/// Checks a message body (interaction response data, follow-up, edit or channel message).
/// `files` is the number of uploaded files that come with it.
pub fn check_message(body: &Value, files: usize, editing: bool) -> Result<(), String> {
    let content = body.get("content").and_then(Value::as_str).unwrap_or("");
    let content_len = content.chars().count();
    if content_len > 2000 {
        return Err(format!("content is {content_len} characters (max 2000)"));
    }
    let embeds = body
        .get("embeds")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    check_embeds(&embeds)?;
    let components = body
        .get("components")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    check_components(&components)?;
    if files > 10 {
        return Err(format!("{files} files (max 10)"));
    }
    let has_attachments_kept = body
        .get("attachments")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    if !editing
        && content.trim().is_empty()
        && embeds.is_empty()
        && components.is_empty()
        && files == 0
        && !has_attachments_kept
        && body.get("poll").is_none()
    {
        return Err("Cannot send an empty message".to_owned());
    }
    if let Some(am) = body.get("allowed_mentions") {
        check_allowed_mentions(am)?;
    }
    Ok(())
}

fn check_allowed_mentions(am: &Value) -> Result<(), String> {
    let parse: Vec<&str> = am
        .get("parse")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let users = am
        .get("users")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let roles = am
        .get("roles")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    if parse.contains(&"users") && users > 0 {
        return Err("allowed_mentions: parse users and a users list are mutually exclusive".into());
    }
    if parse.contains(&"roles") && roles > 0 {
        return Err("allowed_mentions: parse roles and a roles list are mutually exclusive".into());
    }
    if users > 100 || roles > 100 {
        return Err("allowed_mentions: at most 100 users and 100 roles".into());
    }
    Ok(())
}

fn len(v: &Value, key: &str) -> usize {
    v.get(key)
        .and_then(Value::as_str)
        .map_or(0, |s| s.chars().count())
}

fn check_embeds(embeds: &[Value]) -> Result<(), String> {
    if embeds.len() > 10 {
        return Err(format!("{} embeds (max 10)", embeds.len()));
    }
    let mut total = 0;
    for e in embeds {
        let title = len(e, "title");
        let description = len(e, "description");
        if title > 256 {
            return Err(format!("embed title is {title} characters (max 256)"));
        }
        if description > 4096 {
            return Err(format!(
                "embed description is {description} characters (max 4096)"
            ));
        }
        total += title + description;
        let fields = e
            .get("fields")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if fields.len() > 25 {
            return Err(format!("{} embed fields (max 25)", fields.len()));
        }
        for f in &fields {
            let (n, v) = (len(f, "name"), len(f, "value"));
            if n > 256 || v > 1024 {
                return Err(format!(
                    "embed field name {n} / value {v} characters (max 256/1024)"
                ));
            }
            total += n + v;
        }
        if let Some(footer) = e.get("footer") {
            let t = len(footer, "text");
            if t > 2048 {
                return Err(format!("embed footer is {t} characters (max 2048)"));
            }
            total += t;
        }
        if let Some(author) = e.get("author") {
            let n = len(author, "name");
            if n > 256 {
                return Err(format!("embed author name is {n} characters (max 256)"));
            }
            total += n;
        }
    }
    if total > 6000 {
        return Err(format!("embeds hold {total} characters in all (max 6000)"));
    }
    Ok(())
}

fn check_components(rows: &[Value]) -> Result<(), String> {
    if rows.len() > 5 {
        return Err(format!("{} action rows (max 5)", rows.len()));
    }
    let mut ids = std::collections::HashSet::new();
    for row in rows {
        if row.get("type").and_then(Value::as_u64) != Some(1) {
            return Err("a top-level component must be an action row (type 1)".into());
        }
        let inner = row
            .get("components")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if inner.is_empty() || inner.len() > 5 {
            return Err(format!(
                "an action row holds {} components (1 to 5)",
                inner.len()
            ));
        }
        for c in &inner {
            let style = c.get("style").and_then(Value::as_u64).unwrap_or(0);
            let label = len(c, "label");
            if label > 80 {
                return Err(format!("button label is {label} characters (max 80)"));
            }
            if style == 5 {
                continue; // link buttons carry a url, not a custom_id
            }
            let id = c.get("custom_id").and_then(Value::as_str).unwrap_or("");
            let n = id.chars().count();
            if n == 0 || n > 100 {
                return Err(format!("custom_id is {n} characters (1 to 100)"));
            }
            if !ids.insert(id.to_owned()) {
                return Err(format!("custom_id `{id}` used twice in one message"));
            }
        }
    }
    Ok(())
}

/// Checks an autocomplete answer: at most 25 choices, names and values of 1-100 characters.
pub fn check_choices(data: &Value) -> Result<(), String> {
    let choices = data
        .get("choices")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if choices.len() > 25 {
        return Err(format!("{} autocomplete choices (max 25)", choices.len()));
    }
    for c in &choices {
        let n = len(c, "name");
        if n == 0 || n > 100 {
            return Err(format!("choice name is {n} characters (1 to 100)"));
        }
        if let Some(v) = c.get("value").and_then(Value::as_str) {
            let n = v.chars().count();
            if n > 100 {
                return Err(format!("choice value is {n} characters (max 100)"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn refuses_what_discord_refuses() {
        assert!(check_message(&json!({"content": "x".repeat(2001)}), 0, false).is_err());
        assert!(check_message(&json!({"content": ""}), 0, false).is_err());
        assert!(check_message(&json!({"content": ""}), 1, false).is_ok());
        let long_id = json!({"content": "a", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "x", "custom_id": "i".repeat(101)}]}]});
        assert!(check_message(&long_id, 0, false).is_err());
        let embed = json!({"embeds": [{"title": "t".repeat(257)}]});
        assert!(check_message(&embed, 0, false).is_err());
        let many: Vec<_> = (0..26)
            .map(|n| json!({"name": n.to_string(), "value": n}))
            .collect();
        assert!(check_choices(&json!({ "choices": many })).is_err());
        assert!(check_choices(&json!({"choices": [{"name": "a", "value": "b"}]})).is_ok());
    }
}
