//! The rules for people: an overview, one card per piece, and a few topics.
//! The numbered rulings (R1...) are in engine/rules/gladiator.md.

use super::piece::Kind;
use crate::spelling::did_you_mean;

/// Every topic by the name the overview lists it under.
const TOPICS: [&str; 14] = [
    "king",
    "queen",
    "mounted-knight",
    "footman",
    "champion",
    "warrior",
    "black-knight",
    "scout",
    "kings-knight",
    "squire",
    "combat",
    "turn",
    "check",
    "rulings",
];

const OVERVIEW: &str = "\
Gladiator Chess: a 10x12 board, two teams (White at ranks 1-2 moves first, Black at ranks 11-12).
Each team has four commanders who move in order every turn: the King (himself, the Mounted Knight, \
the Footmen), the Queen (herself, the Champion, the Warriors), the Black Knight (himself, the Scouts), \
the King's Knight (himself, the Squires). Each commander moves one piece; no piece moves twice in a turn.
The King may override another commander: type `king: c3-c4` during that commander's move; the \
overridden commander loses its move. A commander with no move must be overridden.
Moving onto an enemy is a battle: the attacker rolls its dice plus 1d6, the defender its own; the \
difference comes off the loser's hit points (the defender wins ties). At zero the loser dies and the \
winner takes the square; otherwise both stay where they were. Hit points last between battles.
Win by holding the enemy Queen for 5 of her team's turns, by checkmate, or by killing the King.
Notation: e2-e4 (e2e4 and e2 e4 read the same), e4xe5 (attack, freeze, capture), a11-a12=W (pawn replaced), king: c3-c4 (override).
Topics: king, queen, mounted-knight, footman, champion, warrior, black-knight, scout, kings-knight, \
squire, combat, turn, check, rulings.";

fn card(kind: Kind) -> String {
    let stats = if kind == Kind::Queen {
        "No combat: she never attacks and is never attacked.".to_string()
    } else {
        format!(
            "Combat: {}d6 (+1d6 when attacking), {} hit points.",
            kind.dice(),
            kind.max_hp()
        )
    };
    let text = match kind {
        Kind::King => "Moves one square in any direction (as a Queen while his Queen is held). \
While his King's Knight lives and his Queen is free he is guarded: he cannot be attacked or frozen, \
can be checked and checkmated, and instantly eliminates any piece on a square he moves to (never \
either Queen; his own pieces only to escape check). Once his King's Knight is dead, or his Queen held, \
he fights like any piece, can be attacked, frozen and killed, and can no longer be checked. He commands \
the Mounted Knight and the Footmen and may override the other commanders.",
        Kind::Queen => "Moves as a chess Queen. Landing on an enemy freezes it: it leaves the board \
for the tally until she leaves the square (never the guarded King, never the other Queen). Friends \
attacking the piece she holds frozen roll one more die. At the start of her move she heals every \
wounded friend beside her. Only the Black Knight, a Scout, or a King who is no longer guarded can \
capture her; held for 5 of her team's turns, she loses the game. She is freed when her abductor dies \
or when her team captures the other Queen (the Queens are swapped), and returns beside her King.",
        Kind::MountedKnight => "Moves as a chess knight, jumping. Commanded by the King.",
        Kind::Footman => "Moves one or two squares straight ahead at any time, attacks one square \
diagonally ahead. On the far side it is replaced by a Warrior or Scout its team lost, if any. \
Returns fully healed from a battle it wins. Commanded by the King.",
        Kind::Champion => "Moves exactly 3 or 5 squares along ranks and files, turning once at most \
(90 degrees), through empty squares only. Protects the Queen, who commands him.",
        Kind::Warrior => "Moves as a rook. Returns fully healed from a battle it wins. Commanded by the Queen.",
        Kind::BlackKnight => "Moves as a chess knight, jumping. Can capture the enemy Queen; \
commands the Scouts.",
        Kind::Scout => "Moves as a bishop (the two Scouts on different colours). Can capture the \
enemy Queen, and then must be killed to free her. Commanded by the Black Knight.",
        Kind::KingsKnight => "Moves as a chess knight, jumping. The King's guard: while he lives \
the King cannot be attacked. Commands the Squires. (The setup table's \"Mounted Lancer\" is he.)",
        Kind::Squire => "Moves as a chess pawn (two squares from its starting rank, no en passant), \
attacks diagonally ahead. On the far side it is replaced by any piece its team lost. Returns fully \
healed from a battle it wins. Commanded by the King's Knight.",
    };
    format!("{}: {text}\n{stats}", kind.name())
}

const COMBAT: &str = "\
Combat: the attacker rolls its dice plus 1d6 (plus another 1d6 against a piece its own Queen holds \
frozen); the defender rolls its own dice. The lower total loses the difference in hit points; the \
defender wins ties (losing nothing). At zero or less the loser dies and the winner takes the square; \
if both live, both stay where they were. Warriors, Footmen and Squires that win are healed fully. \
Dice: King 5d6/30, Mounted Knight 3d6/16, Footman 1d6/4, Champion 4d6/20, Warrior 2d6/6, \
Black Knight 4d6/20, Scout 3d6/12, King's Knight 4d6/20, Squire 1d6/2.";

const TURN: &str = "\
A turn is four moves, one per commander in order: King, Queen, Black Knight, King's Knight. \
Before a commander's move the King may override it (`king: c3-c4`) and move any piece that has not \
moved this turn; the commander loses that move. A commander with no legal move must be overridden; \
if no piece at all can move, the move passes. The King cannot override his own move, except when \
none of his own pieces can move.";

const CHECK: &str = "\
Check applies only to a guarded King (King's Knight alive, Queen free). Any enemy piece whose \
movement reaches his square checks him, the Queen included. No move may leave one's own guarded \
King in check whatever the dice say; a team in check must end it with its current move (the King \
may override to do so). If it cannot, the King is checkmated and his team loses.";

const RULINGS: &str = "\
The rulings where the text is unclear are numbered R1-R25 on the rules page of the project \
(engine/rules/gladiator.md): the Mounted Lancer is the King's Knight; a failed attacker stays; an \
attack is the piece's move; the hold counts the captive Queen's team's turns; and so on.";

pub fn rules(topic: Option<&str>) -> Result<String, String> {
    let Some(t) = topic.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(OVERVIEW.to_string());
    };
    match t.to_ascii_lowercase().as_str() {
        "combat" | "battle" | "dice" => return Ok(COMBAT.into()),
        "turn" | "override" | "order" => return Ok(TURN.into()),
        "check" | "checkmate" => return Ok(CHECK.into()),
        "rulings" => return Ok(RULINGS.into()),
        _ => {}
    }
    match Kind::lookup(t) {
        Some(k) => Ok(card(k)),
        None => Err(format!(
            "No Gladiator rules topic '{t}'.{} Topics: {}.",
            did_you_mean(t, TOPICS),
            TOPICS.join(", ")
        )),
    }
}
