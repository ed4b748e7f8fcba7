//! Why an action is good, in words a player reads: what it takes or gives up, whether it wins,
//! and what of the player's own the other side can reach after it ("wins the Skeleton on c5;
//! keeps all your pieces out of the enemy's reach"). For /hint, beside the search's numbers.
//!
//! Like the search, it looks only at a [`Game::redeal`] copy for the seat: what the seat cannot
//! see (other hands, the deck, the future dice) is a guess, so nothing a die or a hidden card
//! decides is ever told as a fact. Where an action throws dice, the words name what it attacks
//! and say that the dice decide.
//!
//! Ruling S9 (engine/rules/search.md) says what counts as "within reach".

use super::any::typed_game;
use crate::board::Cell;
use crate::catalog::AnyGame;
use crate::game::Game;
use crate::seat::{Outcome, Seat, Viewer};
use crate::view::{PieceView, View};

/// Phrases on what `notation` does for `seat` in `game`, most telling first; empty when the
/// action cannot be read in the seat's copy of the position.
pub fn explain_any(game: &AnyGame, seat: Seat, notation: &str, seed: u64) -> Vec<String> {
    typed_game!(game, g => explain(g, seat, notation, seed))
}

/// [`explain_any`] for one game type.
pub fn explain<G: Game>(game: &G, seat: Seat, notation: &str, seed: u64) -> Vec<String> {
    let copy = game.redeal(seat, seed);
    let Ok(action) = copy.parse(seat, notation) else {
        return Vec::new();
    };
    let before = copy.view(Viewer::Seat(seat));
    let Some(mine) = before.seats.get(seat.index()).map(|s| s.colour) else {
        return Vec::new();
    };
    let mut after_game = copy.clone();
    let Ok(events) = after_game.play(seat, &action) else {
        return Vec::new();
    };
    let after = after_game.view(Viewer::Seat(seat));
    // Dice the seat throws itself decide what the action does; dice thrown for another seat
    // (Arachne's roll for the next turn) or a card drawn leave the action's own result known
    // but not what the reply can do.
    let attack = events
        .iter()
        .any(|e| matches!(&e.dice, Some((s, _)) if *s == seat));
    let chance = events.iter().any(|e| e.chance);
    let mut words = Vec::new();
    if let Outcome::Won { winners, .. } = &after.outcome {
        if winners.contains(&seat) && !attack {
            words.push("wins the game".to_string());
        }
    }
    let named = before.board.cells_named(notation);
    if attack {
        let targets: Vec<String> = before
            .pieces
            .iter()
            .filter(|p| named.contains(&p.cell) && colour(&before, p) != Some(mine))
            .map(|p| piece_words(&before, p))
            .collect();
        if targets.is_empty() {
            words.push("leaves the rest to the dice".into());
        } else {
            words.push(format!("attacks {}; the dice decide", join_words(&targets)));
        }
        return words;
    }
    let enemy = |v: &View, p: &PieceView| colour(v, p) != Some(mine);
    let won = words_of(gone(&before, &after, |p| enemy(&before, p)));
    if !won.is_empty() {
        words.push(format!("wins {}", join_words(&won)));
    }
    // A piece of one's own whose square still holds one of the seat's pieces changed (a
    // promotion), and was not given up.
    let given = words_of(
        gone(&before, &after, |p| !enemy(&before, p))
            .into_iter()
            .filter(|(c, _)| !after.pieces.iter().any(|q| q.cell == *c && q.seat == seat))
            .collect(),
    );
    if !given.is_empty() {
        words.push(format!("gives up {}", join_words(&your(&given))));
    }
    if words.is_empty() {
        if let Some(p) = before
            .pieces
            .iter()
            .find(|p| named.first() == Some(&p.cell))
        {
            let to = named.last().copied().filter(|&c| c != p.cell);
            words.push(match to {
                Some(to) if !enemy(&before, p) && plain_move(notation) => format!(
                    "brings {} to {}",
                    piece_words(&before, p),
                    before.board.name(to)
                ),
                _ if !enemy(&before, p) => format!("uses {}", piece_words(&before, p)),
                _ => format!("targets {}", piece_words(&before, p)),
            });
        }
    }
    if !after.outcome.is_over() && !chance {
        if let Some(reach) = reach(&after_game, &after, mine) {
            words.push(if reach.is_empty() {
                "keeps all your pieces out of the enemy's reach".into()
            } else {
                format!(
                    "leaves {} within the enemy's reach",
                    join_words(&your(&reach))
                )
            });
        }
    }
    words
}

/// A move and nothing else: `b1-c3`, `e5-d5-c5-c4`, `b7-b8=fairy`, `king: c3-c4`.
fn plain_move(notation: &str) -> bool {
    let t = notation.trim().trim_start_matches("king:").trim();
    !t.contains(char::is_whitespace) && t.contains('-') && !t.contains('x') && !t.contains("off")
}

fn colour(v: &View, p: &PieceView) -> Option<u8> {
    v.seats.get(p.seat.index()).map(|s| s.colour)
}

/// "the Skeleton on c5".
fn piece_words(v: &View, p: &PieceView) -> String {
    format!("the {} on {}", p.glyph.name, v.board.name(p.cell))
}

/// "the Mummy on d4" as "your Mummy on d4".
fn your(list: &[String]) -> Vec<String> {
    list.iter()
        .map(|w| {
            w.strip_prefix("the ")
                .map_or(w.clone(), |r| format!("your {r}"))
        })
        .collect()
}

/// "a", "a and b", "a, b and c"; more than four are counted.
fn join_words(list: &[String]) -> String {
    match list {
        [] => String::new(),
        [one] => one.clone(),
        _ if list.len() > 4 => format!("{}, {} and {} more", list[0], list[1], list.len() - 2),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn words_of(list: Vec<(Cell, String)>) -> Vec<String> {
    list.into_iter().map(|(_, w)| w).collect()
}

/// The pieces (picked by `side`) that `before` has and `after` no longer has: counted by seat
/// and kind, so a piece pushed elsewhere is not taken for lost. Each is named where it stood.
fn gone(before: &View, after: &View, side: impl Fn(&PieceView) -> bool) -> Vec<(Cell, String)> {
    let mut out = Vec::new();
    let mut kinds: Vec<(Seat, &str)> = before
        .pieces
        .iter()
        .filter(|p| side(p))
        .map(|p| (p.seat, p.glyph.unit.as_str()))
        .collect();
    kinds.sort();
    kinds.dedup();
    for (seat, unit) in kinds {
        let is = |p: &&PieceView| p.seat == seat && p.glyph.unit == unit;
        let then: Vec<&PieceView> = before.pieces.iter().filter(is).collect();
        let now: Vec<&PieceView> = after.pieces.iter().filter(is).collect();
        let missing = then.len().saturating_sub(now.len());
        // Those whose square no longer holds one of them come first.
        let mut candidates: Vec<&&PieceView> = then
            .iter()
            .filter(|p| !now.iter().any(|q| q.cell == p.cell))
            .collect();
        candidates.extend(then.iter().filter(|p| now.iter().any(|q| q.cell == p.cell)));
        out.extend(
            candidates
                .into_iter()
                .take(missing)
                .map(|p| (p.cell, piece_words(before, p))),
        );
    }
    out
}

/// What of the side of colour `mine` the other side could take or attack with one action, if
/// the other side acts next; `None` when the seat's own side acts again first (the turn goes
/// on), so nothing can be said of the reply yet.
fn reach<G: Game>(game: &G, view: &View, mine: u8) -> Option<Vec<String>> {
    let next: Vec<Seat> = game
        .to_act()
        .into_iter()
        .filter(|s| view.seats.get(s.index()).map(|v| v.colour) != Some(mine))
        .collect();
    if next.is_empty() {
        return None;
    }
    let own = |p: &PieceView| colour(view, p) == Some(mine);
    let mut reached: Vec<String> = Vec::new();
    for s in next {
        for a in game.legal_actions(s) {
            let mut g = game.clone();
            let notation = g.format(&a);
            let Ok(events) = g.play(s, &a) else { continue };
            let found = if events.iter().any(|e| e.chance) {
                let named = view.board.cells_named(&notation);
                view.pieces
                    .iter()
                    .filter(|p| own(p) && named.contains(&p.cell))
                    .map(|p| piece_words(view, p))
                    .collect()
            } else {
                words_of(gone(view, &g.view(Viewer::Seat(s)), own))
            };
            for f in found {
                if !reached.contains(&f) {
                    reached.push(f);
                }
            }
        }
    }
    Some(reached)
}
