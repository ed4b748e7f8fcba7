//! One reply as Discord messages within Discord's limits: content split into messages of at
//! most 2000 characters, at most 10 files and 5 rows of 5 buttons on a message, a custom_id
//! longer than 100 characters dropped (and logged), and only the users a reply names pinged.
//! Shared by the interaction answers and the outbox's delivery worker.

use std::num::NonZeroU64;

use poise::serenity_prelude as serenity;
use serenity::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton, CreateMessage,
};
use tracing::{error, warn};

use crate::table::Reply;

/// Discord's limits on one message.
const MAX_CONTENT: usize = 2000;
const MAX_FILES: usize = 10;
const MAX_ROWS: usize = 5;
const MAX_BUTTONS_PER_ROW: usize = 5;
const MAX_CUSTOM_ID: usize = 100;
const MAX_LABEL: usize = 80;

/// One Discord message, within Discord's limits.
pub(crate) struct Outgoing {
    pub content: String,
    pub files: Vec<CreateAttachment>,
    pub rows: Vec<CreateActionRow>,
    /// Users this message may ping.
    pub ping: Vec<serenity::UserId>,
    pub ephemeral: bool,
    /// The custom ids of the buttons in `rows`, in order (the builders do not give them back).
    pub custom_ids: Vec<String>,
}

impl Outgoing {
    pub fn text(content: &str, ephemeral: bool) -> Self {
        Self {
            content: content.to_owned(),
            files: Vec::new(),
            rows: Vec::new(),
            ping: Vec::new(),
            ephemeral,
            custom_ids: Vec::new(),
        }
    }

    /// Splits one reply into as many messages as Discord's limits need. The first message
    /// carries the pings, the pictures and the buttons, so the ping and the board arrive
    /// together.
    pub fn split(reply: &Reply) -> Vec<Outgoing> {
        let ephemeral = reply.ephemeral_to.is_some();
        let ping: Vec<serenity::UserId> = if ephemeral {
            Vec::new()
        } else {
            reply
                .mentions
                .iter()
                .filter_map(|u| NonZeroU64::new(u.id).map(serenity::UserId::from))
                .collect()
        };
        let mut content = reply.content.clone();
        let missing: Vec<String> = ping
            .iter()
            .map(|id| format!("<@{}>", id.get()))
            .filter(|tag| !content.contains(tag.as_str()))
            .collect();
        if !missing.is_empty() {
            content = format!("{} {}", missing.join(" "), content);
        }

        let mut chunks = split_text(&content, MAX_CONTENT);
        let mut files: Vec<CreateAttachment> = reply
            .images
            .iter()
            .map(|img| CreateAttachment::bytes(img.png.clone(), file_name(&img.name)))
            .collect();
        let (rows, custom_ids) = button_rows(&reply.buttons);

        // Extra files beyond what one message holds go on extra messages.
        let mut extra_files = Vec::new();
        while files.len() > MAX_FILES {
            let rest = files.split_off(MAX_FILES);
            extra_files.push(std::mem::replace(&mut files, rest));
        }
        if !files.is_empty() {
            extra_files.push(files);
        }
        let mut file_batches = extra_files.into_iter();

        if chunks.is_empty() {
            chunks.push(String::new());
        }
        let mut out: Vec<Outgoing> = chunks
            .into_iter()
            .enumerate()
            .map(|(i, content)| Outgoing {
                content,
                files: if i == 0 {
                    file_batches.next().unwrap_or_default()
                } else {
                    Vec::new()
                },
                rows: if i == 0 { rows.clone() } else { Vec::new() },
                ping: if i == 0 { ping.clone() } else { Vec::new() },
                ephemeral,
                custom_ids: if i == 0 {
                    custom_ids.clone()
                } else {
                    Vec::new()
                },
            })
            .collect();
        for batch in file_batches {
            out.push(Outgoing {
                content: String::new(),
                files: batch,
                rows: Vec::new(),
                ping: Vec::new(),
                ephemeral,
                custom_ids: Vec::new(),
            });
        }
        // Discord refuses a message with neither content nor files nor components.
        for o in &mut out {
            if o.content.trim().is_empty() && o.files.is_empty() && o.rows.is_empty() {
                o.content = "\u{200b}".to_owned();
            }
        }
        out
    }

    pub fn into_message(self) -> CreateMessage {
        CreateMessage::new()
            .content(self.content)
            .allowed_mentions(mentions(&self.ping))
            .components(self.rows)
            .add_files(self.files)
    }
}

/// Only these users may be pinged: never @everyone, @here, roles or the replied-to user.
pub(crate) fn mentions(users: &[serenity::UserId]) -> CreateAllowedMentions {
    CreateAllowedMentions::new()
        .users(users.iter().copied())
        .replied_user(false)
}

/// The table's buttons as action rows (5 per row, at most 5 rows), with their custom ids.
fn button_rows(buttons: &[crate::table::Button]) -> (Vec<CreateActionRow>, Vec<String>) {
    let valid: Vec<&crate::table::Button> = buttons
        .iter()
        .filter(|b| {
            let ok = !b.custom_id.is_empty() && b.custom_id.chars().count() <= MAX_CUSTOM_ID;
            if !ok {
                error!(custom_id = %b.custom_id, "button dropped: custom_id must be 1-100 characters");
            }
            ok
        })
        .collect();
    if valid.len() > MAX_ROWS * MAX_BUTTONS_PER_ROW {
        warn!(
            count = valid.len(),
            "more than 25 buttons: the rest are dropped"
        );
    }
    let kept = &valid[..valid.len().min(MAX_ROWS * MAX_BUTTONS_PER_ROW)];
    let rows = kept
        .chunks(MAX_BUTTONS_PER_ROW)
        .map(|row| {
            CreateActionRow::Buttons(
                row.iter()
                    .map(|b| {
                        let label = if b.label.trim().is_empty() {
                            "…".to_owned()
                        } else {
                            truncate(&b.label, MAX_LABEL)
                        };
                        CreateButton::new(b.custom_id.clone())
                            .label(label)
                            .style(serenity::ButtonStyle::Primary)
                    })
                    .collect(),
            )
        })
        .collect();
    (rows, kept.iter().map(|b| b.custom_id.clone()).collect())
}

/// What recognises a message Tokar sent among a channel's messages, when its nonce cannot
/// (Discord does not store the nonce with the message: a fetched message has none): the
/// custom ids of its buttons (which name the game and the move), the names of its files, and
/// its text without leading and trailing white space, which Discord may strip. The text is
/// compared as it is otherwise: Tokar's texts are plain, so Discord has nothing else to
/// normalise in them, and a message whose text Discord did change is not recognised, so it is
/// sent again rather than lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fingerprint {
    content: String,
    files: Vec<String>,
    custom_ids: Vec<String>,
}

impl Fingerprint {
    /// The fingerprint of a message as Discord returns it.
    pub fn of_message(m: &serenity::Message) -> Fingerprint {
        let custom_ids = m
            .components
            .iter()
            .flat_map(|row| &row.components)
            .filter_map(|c| match c {
                serenity::ActionRowComponent::Button(b) => match &b.data {
                    serenity::ButtonKind::NonLink { custom_id, .. } => Some(custom_id.clone()),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        Fingerprint {
            content: m.content.trim().to_owned(),
            files: m.attachments.iter().map(|a| a.filename.clone()).collect(),
            custom_ids,
        }
    }
}

impl Outgoing {
    /// The fingerprint the message this part becomes will have.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint {
            content: self.content.trim().to_owned(),
            files: self.files.iter().map(|f| f.filename.clone()).collect(),
            custom_ids: self.custom_ids.clone(),
        }
    }
}

/// A safe attachment name ending in .png, or .txt for text files (an exported record), or
/// .gif for animations (a replay).
fn file_name(name: &str) -> String {
    let ext = ["txt", "gif"]
        .into_iter()
        .find(|e| name.ends_with(&format!(".{e}")))
        .unwrap_or("png");
    let stem: String = name
        .trim_end_matches(".png")
        .trim_end_matches(".txt")
        .trim_end_matches(".gif")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    let stem = if stem.is_empty() {
        "board".to_owned()
    } else {
        stem
    };
    format!("{stem}.{ext}")
}

/// Cuts at most `max` characters, marking the cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

/// Splits text into pieces of at most `max` characters, preferring line breaks.
fn split_text(text: &str, max: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut current = String::new();
    let mut current_len = 0;
    for line in text.split_inclusive('\n') {
        let line_len = line.chars().count();
        if current_len + line_len <= max {
            current.push_str(line);
            current_len += line_len;
            continue;
        }
        if !current.is_empty() {
            pieces.push(std::mem::take(&mut current));
            current_len = 0;
        }
        if line_len <= max {
            current.push_str(line);
            current_len = line_len;
        } else {
            let chars: Vec<char> = line.chars().collect();
            for part in chars.chunks(max) {
                pieces.push(part.iter().collect());
            }
        }
    }
    if !current.is_empty() {
        pieces.push(current);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_splits_on_lines_within_the_limit() {
        let line = "x".repeat(900);
        let text = format!("{line}\n{line}\n{line}\n");
        let pieces = split_text(&text, 2000);
        assert_eq!(pieces.len(), 2);
        assert!(pieces.iter().all(|p| p.chars().count() <= 2000));
        assert_eq!(pieces.concat(), text);
    }

    #[test]
    fn a_single_overlong_line_is_cut() {
        let text = "é".repeat(4500);
        let pieces = split_text(&text, 2000);
        assert_eq!(
            pieces.iter().map(|p| p.chars().count()).collect::<Vec<_>>(),
            [2000, 2000, 500]
        );
    }

    #[test]
    fn file_names_are_sanitised() {
        assert_eq!(file_name("game 12/turn 3.png"), "game_12_turn_3.png");
        assert_eq!(file_name("game-3-record.txt"), "game-3-record.txt");
        assert_eq!(file_name("game-3-replay.gif"), "game-3-replay.gif");
        assert_eq!(file_name(""), "board.png");
    }

    #[test]
    fn labels_are_truncated_with_a_mark() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
