//! Actions and their notation: `a2-a3`, `b7-b8=fairy`, `freeze e5` (or
//! `cast freeze e5`), `anti-jump c6`, `pass`.

use super::moves::{at, name, Move};
use super::pieces::{Kind, Spell};
use super::MagicChess;
use crate::board::Cell;
use crate::error::ActionError;
use crate::seat::Seat;
use crate::spelling::did_you_mean;
use serde::{Deserialize, Serialize};

/// One turn's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Move a piece, capturing an enemy piece on the destination.
    Move(Move),
    /// Play a card under an enemy piece, then draw one.
    Cast {
        spell: Spell,
        target: Cell,
    },
    Pass,
}

const HINT: &str = "Type a move like a2-a3, a spell like freeze e5, or pass.";

fn cell(text: &str) -> Result<Cell, ActionError> {
    let t = text.trim();
    let b = t.as_bytes();
    if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
        if let Some(c) = at((b[0] - b'a') as i32, (b[1] - b'1') as i32) {
            return Ok(c);
        }
    }
    Err(ActionError::Syntax(format!(
        "Cannot read '{t}': squares run from a1 to h8."
    )))
}

/// Splits `a2a3` into `a2` and `a3`.
fn split_compact(t: &str) -> Option<(&str, &str)> {
    let b = t.as_bytes();
    (1..b.len())
        .find(|&i| b[i].is_ascii_alphabetic() && b[i - 1].is_ascii_digit())
        .map(|i| (&t[..i], &t[i..]))
}

impl MagicChess {
    pub(super) fn format_action(&self, action: &Action) -> String {
        match action {
            Action::Move(m) => match m.promote {
                Some(k) => format!("{}-{}={}", name(m.from), name(m.to), k.word()),
                None => format!("{}-{}", name(m.from), name(m.to)),
            },
            Action::Cast { spell, target } => format!("{} {}", spell.word(), name(*target)),
            Action::Pass => "pass".into(),
        }
    }

    /// Reads the text into an action without asking whether it is legal.
    pub(super) fn read_action(text: &str) -> Result<Action, ActionError> {
        let lower = text
            .trim()
            .to_ascii_lowercase()
            .replace("anti jump", "anti-jump");
        let words: Vec<&str> = lower.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return Err(ActionError::Syntax(HINT.into()));
        };
        if words == ["pass"] {
            return Ok(Action::Pass);
        }
        let (cast, spell_words) = if first == "cast" {
            (true, &words[1..])
        } else {
            (false, &words[..])
        };
        if let Some(spell) = spell_words.first().and_then(|w| Spell::parse(w)) {
            return match spell_words {
                [_, square] => Ok(Action::Cast {
                    spell,
                    target: cell(square)?,
                }),
                _ => Err(ActionError::Syntax(format!(
                    "Name one square for the spell, like: {} e5.",
                    spell.word()
                ))),
            };
        }
        if cast {
            return Err(ActionError::Syntax(match spell_words.first() {
                Some(w) => format!("'{w}' is no spell: the spells are freeze, slow and anti-jump."),
                None => "Name a spell and a square, like: cast freeze e5.".into(),
            }));
        }
        let joined: String = words.join("-");
        let (body, promote) = match joined.split_once('=') {
            Some((b, p)) => {
                let p = p.trim_matches('-');
                match Kind::parse_promotion(p) {
                    Some(k) => (b.trim_end_matches('-').to_string(), Some(k)),
                    None => {
                        return Err(ActionError::Syntax(format!(
                            "Cannot read promotion '{p}':{} Choose wizard, fairy or frog.",
                            did_you_mean(p, ["wizard", "fairy", "frog"])
                        )))
                    }
                }
            }
            None => (joined.clone(), None),
        };
        let body = body.replace('x', "-");
        let parts: Vec<&str> = body.split('-').filter(|s| !s.is_empty()).collect();
        let (a, b) = match parts.as_slice() {
            [a, b] => (*a, *b),
            [one] => split_compact(one).ok_or_else(|| ActionError::Syntax(HINT.into()))?,
            [a, b, extra @ ..] if !extra.is_empty() => {
                return Err(ActionError::Syntax(format!(
                "Cannot read '{}': a move names two squares ({a}-{b}), so '-{}' is one too many.",
                text.trim(),
                extra.join("-")
            )))
            }
            _ => return Err(ActionError::Syntax(HINT.into())),
        };
        let (from, to) = match (cell(a), cell(b)) {
            (Ok(f), Ok(t)) => (f, t),
            (Err(e), _) | (_, Err(e)) => {
                return Err(if parts.len() == 2 || a.len() == 2 {
                    e
                } else {
                    ActionError::Syntax(HINT.into())
                })
            }
        };
        Ok(Action::Move(Move { from, to, promote }))
    }

    pub(super) fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let action = Self::read_action(text)?;
        self.check(seat, &action)?;
        Ok(action)
    }
}
