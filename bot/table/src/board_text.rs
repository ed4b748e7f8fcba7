//! The text board: everything the picture shows, in words, for the console and for Discord's
//! text (a reader without the picture, a screen reader, a search in the channel). It is built
//! from the spectator's [`View`] alone, like the picture, so it can never say more than the
//! picture does.

use tokar_engine::board::Shape;
use tokar_engine::view::{PieceView, RollRole, StatusKind, StatusView};
use tokar_engine::View;

/// The text board: a grid of letters where the board is a grid held by at most two sides (one
/// side upper case, the other lower case), else every side's pieces by square; then each side's
/// hand, lost pieces and public notes, every piece's conditions and hit points, and the last
/// dice. The decision waited for is in the status line above it ([`super::text::status`]).
pub fn diagram(view: &View) -> String {
    let mut lines = Vec::new();
    let grid = grid(view);
    let listed = grid.is_none();
    if let Some(g) = grid {
        lines.push(g);
    }
    for (i, s) in view.seats.iter().enumerate() {
        let mut parts = Vec::new();
        if listed {
            let pieces: Vec<String> = view
                .pieces
                .iter()
                .filter(|p| p.seat.index() == i)
                .map(|p| format!("{} {}", p.glyph.name, view.board.name(p.cell)))
                .collect();
            parts.push(if pieces.is_empty() {
                "no pieces".to_string()
            } else {
                pieces.join(", ")
            });
        } else {
            let on_board = view.pieces.iter().filter(|p| p.seat.index() == i).count();
            parts.push(format!("{on_board} on the board"));
        }
        if let Some(n) = s.hand_size {
            parts.push(format!("{n} card{} in hand", plural(n)));
        }
        if !s.lost.is_empty() {
            let lost: Vec<&str> = s.lost.iter().map(|g| g.name.as_str()).collect();
            parts.push(format!("lost: {}", lost.join(", ")));
        }
        parts.extend(s.notes.iter().cloned());
        lines.push(format!(
            "{}{}: {}",
            s.name,
            if s.eliminated { " (out)" } else { "" },
            parts.join("; ")
        ));
    }
    let cards = view.seats.iter().any(|s| s.hand_size.is_some());
    let conditions: Vec<String> = view
        .pieces
        .iter()
        .filter(|p| !p.statuses.is_empty())
        .map(|p| {
            let words: Vec<String> = p.statuses.iter().map(|s| status_words(s, cards)).collect();
            format!("{}: {}", piece_name(view, p), words.join(", "))
        })
        .collect();
    if !conditions.is_empty() {
        lines.push(format!("Conditions: {}.", conditions.join("; ")));
    }
    let hurt: Vec<String> = view
        .pieces
        .iter()
        .filter_map(|p| match p.hp {
            Some((hp, max)) if hp < max => Some(format!("{} {hp}/{max}", piece_name(view, p))),
            _ => None,
        })
        .collect();
    if view.pieces.iter().any(|p| p.hp.is_some()) {
        lines.push(if hurt.is_empty() {
            "Hit points: every piece at full strength.".to_string()
        } else {
            format!(
                "Hit points: {}; every other piece at full strength.",
                hurt.join(", ")
            )
        });
    }
    if !view.under.is_empty() {
        let cards: Vec<String> = view
            .under
            .iter()
            .map(|(cell, card)| format!("{card} under {}", view.board.name(*cell)))
            .collect();
        lines.push(format!("Cards under pieces: {}.", cards.join(", ")));
    }
    if let Some(dice) = last_dice(view) {
        lines.push(dice);
    }
    lines.join("\n")
}

/// "Last dice: White attacks with 6 and 5 (11); Black defends with 2 (2)." The throws by side
/// where the view splits them (a battle's attacker and defender, with the totals the game
/// compares), else the one throw of the turn.
fn last_dice(view: &View) -> Option<String> {
    let name = |seat: tokar_engine::Seat| {
        view.seats
            .get(seat.index())
            .map_or("Someone", |s| s.name.as_str())
    };
    let rolls: Vec<String> = view
        .rolls
        .iter()
        .filter(|r| !r.dice.is_empty())
        .map(|r| {
            let verb = match r.role {
                RollRole::Attack => "attacks with",
                RollRole::Defence => "defends with",
                RollRole::Turn => "rolled",
            };
            let total = r.total.map(|t| format!(" ({t})")).unwrap_or_default();
            format!("{} {verb} {}{total}", name(r.seat), numbers(&r.dice))
        })
        .collect();
    if !rolls.is_empty() {
        return Some(format!("Last dice: {}.", rolls.join("; ")));
    }
    match &view.dice {
        Some((seat, dice)) if !dice.is_empty() => Some(format!(
            "Last dice: {} rolled {}.",
            name(*seat),
            numbers(dice)
        )),
        _ => None,
    }
}

/// "c5 Skeleton (Undead)".
fn piece_name(view: &View, p: &PieceView) -> String {
    let side = view
        .seats
        .get(p.seat.index())
        .map(|s| format!(" ({})", s.name))
        .unwrap_or_default();
    format!("{} {}{side}", view.board.name(p.cell), p.glyph.name)
}

/// A condition in words, with its count. In games with cards the spells lie under the piece
/// as cards, which the words say.
fn status_words(s: &StatusView, cards: bool) -> String {
    let n = s.count.unwrap_or(0);
    let card = |what: &str, card: &str| {
        if cards {
            format!("{what} (a {card} card under it)")
        } else {
            what.to_string()
        }
    };
    match s.kind {
        StatusKind::Paralysed => "paralysed".into(),
        StatusKind::Firebrew => format!("firebrew, {n} token{} left", plural(n.into())),
        StatusKind::Resting => match s.count {
            Some(n) => format!("resting (moved by others), {n} turn{}", plural(n.into())),
            None => "resting (moved by others)".into(),
        },
        StatusKind::Frozen => card("frozen", "Freeze"),
        StatusKind::Slowed => card("slowed", "Slow"),
        StatusKind::AntiJump => card("cannot jump", "Anti-Jump"),
        StatusKind::Controlled => "controlled by the enemy".into(),
        StatusKind::ExtraTurn => "takes an extra turn".into(),
        StatusKind::Held => match s.count {
            Some(n) => format!("holds the captured Queen, {n} turn{}", plural(n.into())),
            None => "holds the captured Queen".into(),
        },
        StatusKind::Guarded => "guarded".into(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// "3", "3 and 5", "1, 4 and 6".
fn numbers(dice: &[u8]) -> String {
    let words: Vec<String> = dice.iter().map(|d| d.to_string()).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// A grid of letters, when the board is a grid and at most two sides (colours) hold pieces
/// on it: the first side in upper case, the other in lower case.
fn grid(view: &View) -> Option<String> {
    let Shape::Grid { files, ranks } = view.board.shape() else {
        return None;
    };
    let mut colours: Vec<u8> = view.seats.iter().map(|s| s.colour).collect();
    colours.sort();
    colours.dedup();
    if colours.len() > 2 {
        return None;
    }
    let first = view.seats.first().map_or(0, |s| s.colour);
    let mut out = String::from("```\n");
    for r in (0..ranks as i32).rev() {
        out.push_str(&format!("{:>2} ", r + 1));
        for f in 0..files as i32 {
            let cell = view.board.at(f, r);
            let piece = view.pieces.iter().find(|p| Some(p.cell) == cell);
            let c = match piece {
                Some(p) if view.seats.get(p.seat.index()).map(|s| s.colour) == Some(first) => {
                    p.glyph.letter.to_ascii_uppercase()
                }
                Some(p) => p.glyph.letter.to_ascii_lowercase(),
                None => '.',
            };
            out.push(c);
            out.push(' ');
        }
        out.pop();
        out.push('\n');
    }
    out.push_str("   ");
    for f in 0..files {
        out.push((b'a' + f) as char);
        out.push(' ');
    }
    out.pop();
    out.push_str("\n```");
    Some(out)
}
