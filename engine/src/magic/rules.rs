//! The rules for people, by topic: `/rules magic-chess [topic]`.

use super::deck::HAND;
use super::moves::{either, forward, name, FROG_REACH};
use super::pieces::{seat_name, Kind, Spell, SEAT_NAMES};
use super::{home, BACK_ROW, QUIET_ROUNDS};
use crate::seat::Seat;
use crate::spelling::did_you_mean;

/// Every topic by the name the overview lists it under.
const TOPICS: [&str; 8] = [
    "king",
    "wizard",
    "fairy",
    "frog",
    "pawn",
    "freeze",
    "slow",
    "anti-jump",
];

/// The overview. Its numbers and lists come from what the game plays: the
/// armies from the starting squares and the pawns' direction, the hand from
/// the deal, the quiet draw from [`QUIET_ROUNDS`] (engine/tests/rule_texts_magic.rs).
fn overview() -> String {
    let armies: Vec<String> = (0..4u8)
        .map(Seat)
        .map(|seat| {
            let dir = match forward(seat) {
                (0, 1) => "up",
                (0, _) => "down",
                (1, _) => "right",
                _ => "left",
            };
            format!(
                "{} {}-{} (Pawns move {dir})",
                seat_name(seat),
                name(home(seat, 0, 0)),
                name(home(seat, BACK_ROW.len() as i32 - 1, 0))
            )
        })
        .collect();
    let back_row: Vec<&str> = BACK_ROW.iter().map(|k| k.name()).collect();
    let spells: Vec<String> = Spell::ALL
        .iter()
        .map(|s| format!("`{} e5`", s.word()))
        .collect();
    format!(
        "\
Magic Chess: four players, four armies in the corners of an 8x8 board, and a deck of spell cards. \
Be the last player standing.

Armies: {back_row} on the edge from each player's corner (left to right), {pawns} Pawns in front. \
{armies}. {first} starts; then {rest} (clockwise).

Each player gets {HAND} hidden spell cards. On your turn do exactly one:
- move a piece, capturing an enemy piece it lands on: `a2-a3` (`a2a3` and `a2 a3` read the same), `b7-b8=fairy`;
- play a card under an enemy piece, then draw one: {spells};
- pass: `pass`.
Then every card under your own pieces goes to the discard pile: a spell lasts until its target's next turn.

Capture the King of a player still in the game and that player is out: their pieces stay (they can be captured, not passed through), and the capturer draws a card. \
The draw pile is never reshuffled. No check: Kings are simply captured. \
{QUIET_ROUNDS} rounds with no capture and no pawn move draw the game.

Topics: {topics}.",
        back_row = back_row.join(", "),
        pawns = BACK_ROW.len(),
        armies = armies.join(", "),
        first = SEAT_NAMES[0],
        rest = SEAT_NAMES[1..].join(", "),
        spells = spells.join(", "),
        topics = TOPICS.join(", "),
    )
}

const KING: &str = "King (K): one square in any direction, like a chess king. There is no check: a King may move into attack and be captured. \
When the King of a player still in the game is captured, that player is eliminated and the capturer draws a card.";

/// The spells that may be played under a King, from [`Spell::may_target`].
fn king() -> String {
    let spells: Vec<&str> = Spell::ALL
        .into_iter()
        .filter(|s| s.may_target(Kind::King))
        .map(Spell::name)
        .collect();
    format!("{KING} Only {} may be played under a King.", either(spells))
}

const WIZARD: &str = "Wizard (W): moves like a rook, any distance along a rank or a file, stopped by the first piece (which it may capture if it is an enemy). \
Slowed: 1 square only.";

const FAIRY: &str = "Fairy (F): moves like a bishop, or makes a knight move, which is exactly two squares in one straight direction and then one square at a right angle. \
The knight move jumps over the two squares of that path, never over an eliminated player's piece; under Anti-Jump both squares must be empty. \
Slowed: 1 diagonal square only (the knight move is not one square).";

fn frog() -> String {
    format!(
        "Frog (R): 1 to {FROG_REACH} squares in a straight line in any of the eight directions, jumping over the pieces on the squares between, \
but never over an eliminated player's piece. Under Anti-Jump it may not jump over a piece; slowed, it moves 1 square only."
    )
}

fn pawn() -> String {
    let words: Vec<String> = Kind::PROMOTIONS
        .iter()
        .map(|k| format!("={}", k.word()))
        .collect();
    format!(
        "Pawn (P): 1 square straight toward the far side of its own army onto an empty square; captures one square diagonally forward. \
No double step, no en passant. On the far edge it promotes, by the player's choice, to a {}: `b7-b8=fairy` (or {}).",
        either(Kind::PROMOTIONS.map(Kind::name)),
        either(words)
    )
}

fn freeze() -> String {
    format!(
        "Freeze: played under {}. That piece cannot move on its owner's next turn; the card is then discarded.",
        Spell::Freeze.targets()
    )
}

fn slow() -> String {
    format!(
        "Slow: played under {}. On its owner's next turn that piece may move 1 square only \
(a Fairy may not make its knight move); the card is then discarded.",
        Spell::Slow.targets()
    )
}

fn anti_jump() -> String {
    format!(
        "Anti-Jump: played under {}. On its owner's next turn that piece may not jump over any piece: \
a Frog may not pass over an occupied square, a Fairy's knight move needs both squares of its path empty; the card is then discarded.",
        Spell::AntiJump.targets()
    )
}

/// The overview without a topic, or one piece's or spell's card.
pub fn rules(topic: Option<&str>) -> Result<String, String> {
    let Some(t) = topic else {
        return Ok(overview());
    };
    let text = match t.trim().to_ascii_lowercase().as_str() {
        "" | "overview" => overview(),
        "king" | "kings" => king(),
        "wizard" | "wizards" => WIZARD.into(),
        "fairy" | "fairies" => FAIRY.into(),
        "frog" | "frogs" => frog(),
        "pawn" | "pawns" => pawn(),
        "freeze" => freeze(),
        "slow" => slow(),
        "anti-jump" | "antijump" | "anti jump" => anti_jump(),
        other => {
            return Err(format!(
                "Magic Chess has no rules topic '{other}'.{} Topics: {}.",
                did_you_mean(other, TOPICS),
                TOPICS.join(", ")
            ))
        }
    };
    Ok(text)
}
