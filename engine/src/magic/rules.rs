//! The rules for people, by topic: `/rules magic-chess [topic]`.

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

const OVERVIEW: &str = "\
Magic Chess: four players, four armies in the corners of an 8x8 board, and a deck of spell cards. \
Be the last player standing.

Armies: King, Wizard, Fairy, Frog on the edge from each player's corner (left to right), four Pawns in front. \
Red a1-d1 (Pawns move up), Blue a8-a5 (Pawns move right), Yellow h8-e8 (Pawns move down), Green h1-h4 (Pawns move left). \
Red starts; then Blue, Yellow, Green (clockwise).

Each player gets three hidden spell cards. On your turn do exactly one:
- move a piece, capturing an enemy piece it lands on: `a2-a3` (`a2a3` and `a2 a3` read the same), `b7-b8=fairy`;
- play a card under an enemy piece, then draw one: `freeze e5`, `slow c6`, `anti-jump a6`;
- pass: `pass`.
Then every card under your own pieces goes to the discard pile: a spell lasts until its target's next turn.

Capture a King and its player is out: their pieces stay (they can be captured, not passed through), and the capturer draws a card. \
The draw pile is never reshuffled. No check: Kings are simply captured. \
Fifty rounds with no capture and no pawn move draw the game.

Topics: king, wizard, fairy, frog, pawn, freeze, slow, anti-jump.";

const KING: &str = "King (K): one square in any direction, like a chess king. There is no check: a King may move into attack and be captured. \
When a King is captured its player is eliminated and the capturer draws a card. Only Freeze may be played under a King.";

const WIZARD: &str = "Wizard (W): moves like a rook, any distance along a rank or a file, stopped by the first piece (which it may capture if it is an enemy). \
Slowed: one square only.";

const FAIRY: &str = "Fairy (F): moves like a bishop, or makes a knight move, which is exactly two squares in one straight direction and then one square at a right angle. \
The knight move jumps over the two squares of that path, unless the Fairy is under Anti-Jump: then both squares must be empty. \
Slowed: one diagonal square only (the knight move is not one square).";

const FROG: &str = "Frog (R): one or two squares in a straight line in any of the eight directions, jumping over a piece on the square between. \
Under Anti-Jump it may not jump over a piece; slowed, it moves one square only.";

const PAWN: &str = "Pawn (P): one square straight toward the far side of its own army onto an empty square; captures one square diagonally forward. \
No double step, no en passant. On the far edge it promotes, by the player's choice, to a Wizard, Fairy or Frog: `b7-b8=fairy` (or =wizard, =frog).";

const FREEZE: &str = "Freeze: played under any enemy piece. That piece cannot move on its owner's next turn; the card is then discarded.";

const SLOW: &str = "Slow: played under an enemy Wizard, Fairy or Frog. On its owner's next turn that piece may move one square only \
(a Fairy may not make its knight move); the card is then discarded.";

const ANTI_JUMP: &str = "Anti-Jump: played under an enemy Fairy or Frog. On its owner's next turn that piece may not jump over any piece: \
a Frog may not pass over an occupied square, a Fairy's knight move needs both squares of its path empty; the card is then discarded.";

/// The overview without a topic, or one piece's or spell's card.
pub fn rules(topic: Option<&str>) -> Result<String, String> {
    let Some(t) = topic else {
        return Ok(OVERVIEW.into());
    };
    let text = match t.trim().to_ascii_lowercase().as_str() {
        "" | "overview" => OVERVIEW,
        "king" | "kings" => KING,
        "wizard" | "wizards" => WIZARD,
        "fairy" | "fairies" => FAIRY,
        "frog" | "frogs" => FROG,
        "pawn" | "pawns" => PAWN,
        "freeze" => FREEZE,
        "slow" => SLOW,
        "anti-jump" | "antijump" | "anti jump" => ANTI_JUMP,
        other => {
            return Err(format!(
                "Magic Chess has no rules topic '{other}'.{} Topics: {}.",
                did_you_mean(other, TOPICS),
                TOPICS.join(", ")
            ))
        }
    };
    Ok(text.into())
}
