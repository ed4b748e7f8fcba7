//! Move notation: `e2-e4` to an empty square, `e4xe5` onto an occupied one
//! (battle, freeze, elimination or capture), `=W` for a pawn's replacement,
//! and the prefix `king:` for the King overriding another commander. Case
//! and spaces are free, and the sign between the squares may be left out
//! (`e2e4`, `e2 e4`, `king:c3c4`); the table writes the action back in full.

use super::piece::{Commander, Kind};
use super::{team_of, Action, Gladiator, BOARD};
use crate::error::ActionError;
use crate::seat::Seat;

pub fn format(g: &Gladiator, a: &Action) -> String {
    let sep = if g.at(a.to).is_some() { 'x' } else { '-' };
    let mut s = String::new();
    if a.by_king {
        s.push_str("king: ");
    }
    s.push_str(&BOARD.name(a.from));
    s.push(sep);
    s.push_str(&BOARD.name(a.to));
    if let Some(k) = a.promote {
        s.push('=');
        s.push(k.letter());
    }
    s
}

const HOW: &str = "write a move as e2-e4, an attack as e4xe5, a replacement as a11-a12=W, an override as king: c3-c4";

fn syntax(text: &str, why: &str) -> ActionError {
    ActionError::Syntax(format!("Cannot read '{}': {why}.", text.trim()))
}

/// Reads `letter digits` from the front of `s`.
fn take_square(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_alphabetic() {
        return None;
    }
    let n = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if n == 0 {
        return None;
    }
    Some((&s[..1 + n], &s[1 + n..]))
}

pub fn parse(g: &Gladiator, seat: Seat, text: &str) -> Result<Action, ActionError> {
    let lower = text.trim().to_ascii_lowercase();
    let mut rest: &str = &lower;
    let mut by_king = false;
    if let Some(r) = rest.strip_prefix("king:") {
        by_king = true;
        rest = r;
    }
    let compact: String = rest.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.is_empty() {
        return Err(syntax(text, HOW));
    }
    let Some((a, tail)) = take_square(&compact) else {
        return Err(syntax(text, HOW));
    };
    let join = if tail.starts_with(['-', 'x']) {
        &tail[..1]
    } else {
        "-"
    };
    let tail = tail
        .strip_prefix('-')
        .or_else(|| tail.strip_prefix('x'))
        .unwrap_or(tail);
    let Some((b, tail)) = take_square(tail) else {
        return Err(syntax(text, HOW));
    };
    // `b1-c3-d4`: one square too many, named.
    if let Some(extra) = tail
        .strip_prefix('-')
        .or_else(|| tail.strip_prefix('x'))
        .filter(|t| take_square(t).is_some())
    {
        let sep = &tail[..1];
        return Err(syntax(
            text,
            &format!("a move names two squares ({a}{join}{b}), so '{sep}{extra}' is one too many"),
        ));
    }
    let promote = match tail {
        "" => None,
        t => {
            let Some(l) = t.strip_prefix('=') else {
                return Err(syntax(text, HOW));
            };
            let mut cs = l.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) => match Kind::from_letter(c) {
                    Some(k) => Some(k),
                    None => {
                        return Err(syntax(
                            text,
                            "after = write a piece letter (W Warrior, S Scout, C Champion, M Mounted Knight, B Black Knight, N King's Knight, F Footman, E Squire)",
                        ))
                    }
                },
                _ => return Err(syntax(text, HOW)),
            }
        }
    };
    let square = |s: &str| {
        BOARD.parse(s).ok_or_else(|| {
            syntax(
                text,
                &format!("there is no square {s} on the 10x12 board (files a-j, ranks 1-12)"),
            )
        })
    };
    let (from, to) = (square(a)?, square(b)?);
    // The King's seat can only override during another commander's move, so
    // a plain move it types then is an override.
    if !by_king
        && seat.index() < 8
        && Commander::ORDER[seat.index() % 4] == Commander::King
        && team_of(seat) == g.team_to_move()
        && g.commander_to_move() != Commander::King
    {
        by_king = true;
    }
    let action = Action {
        from,
        to,
        promote,
        by_king,
    };
    g.check_action(seat, &action)?;
    Ok(action)
}
