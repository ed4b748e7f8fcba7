//! The console's `--json` lines: one object a line per outgoing message, with what a
//! program driving the console needs to act on it, the buttons included (a program can
//! then click one with `/button custom_id:<custom_id>` as a person would).

use crate::table::Reply;
use serde::Serialize;

#[derive(Serialize)]
struct JsonReply<'a> {
    channel: &'a str,
    ephemeral_to: Option<&'a str>,
    content: &'a str,
    mentions: Vec<&'a str>,
    images: Vec<String>,
    buttons: Vec<JsonButton<'a>>,
    ok: bool,
}

/// A button as the message shows it: the id `/button custom_id:` takes, and its label.
#[derive(Serialize)]
struct JsonButton<'a> {
    custom_id: &'a str,
    label: &'a str,
}

/// The JSON line of `r` (without its newline), with the names and picture paths the
/// console printed for it: `private` its reader's name, `content` its text as shown.
pub(super) fn line(
    r: &Reply,
    private: Option<&str>,
    content: &str,
    mentions: &[String],
    images: Vec<String>,
) -> Result<String, String> {
    let j = JsonReply {
        channel: &r.channel.name,
        ephemeral_to: private,
        content,
        mentions: mentions.iter().map(String::as_str).collect(),
        images,
        buttons: r
            .buttons
            .iter()
            .map(|b| JsonButton {
                custom_id: &b.custom_id,
                label: &b.label,
            })
            .collect(),
        ok: r.ok,
    };
    serde_json::to_string(&j).map_err(|e| e.to_string())
}
