//! The rules for people: an overview, one card per piece, and a few topics.
//! The numbered rulings (R1...) are in engine/rules/gladiator.md.

use super::moves::champion_steps;
use super::piece::{Commander, Kind, Team, ATTACK_DICE, DIE_SIDES, FOOTMAN_BECOMES, FROZEN_DICE};
use super::{BOARD, HOLD_TURNS};
use crate::board::Shape;
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

/// "ranks 1-2": the two rows a team starts on.
fn home_ranks(team: Team) -> String {
    let back = team.back_rank() + 1;
    let pawns = back + team.forward();
    format!("ranks {}-{}", back.min(pawns), back.max(pawns))
}

/// A die roll as the texts write it: "5d6".
fn dice(n: usize) -> String {
    format!("{n}d{DIE_SIDES}")
}

/// "the King (himself, the Mounted Knight, the Footmen)": a commander and
/// the pieces [`Kind::commander`] gives him.
fn command(c: Commander) -> String {
    let pieces: Vec<String> = Kind::ALL
        .into_iter()
        .filter(|k| k.commander() == c)
        .map(|k| match k {
            _ if k.name() == c.name() => if k == Kind::Queen {
                "herself"
            } else {
                "himself"
            }
            .to_string(),
            Kind::Footman => "the Footmen".to_string(),
            _ if k.is_pawn() || matches!(k, Kind::Warrior | Kind::Scout) => {
                format!("the {}s", k.name())
            }
            _ => format!("the {}", k.name()),
        })
        .collect();
    format!("the {} ({})", c.name(), pieces.join(", "))
}

/// The overview. Its numbers come from what the game plays: the board, the
/// teams' rows, the commanders and their pieces, the attacker's extra dice,
/// the turns a held Queen lasts (engine/tests/rule_texts_gladiator.rs).
fn overview() -> String {
    let (files, ranks) = match BOARD.shape() {
        Shape::Grid { files, ranks } => (files, ranks),
        Shape::Web { .. } => unreachable!("Gladiator is played on a grid"),
    };
    let commands: Vec<String> = Commander::ORDER.into_iter().map(command).collect();
    format!(
        "\
Gladiator Chess: a {files}x{ranks} board, two teams (White at {white} moves first, Black at {black}).
Each team has {n} commanders who move in order every turn: {commands}. Each commander moves one piece; no piece moves twice in a turn.
The King may override another commander: type `king: c3-c4` during that commander's move; the \
overridden commander loses its move. A commander with no move must be overridden.
Moving onto an enemy is a battle: the attacker rolls its dice plus {extra}, the defender its own; the \
difference comes off the loser's hit points (the defender wins ties). At zero the loser dies and the \
winner takes the square; otherwise both stay where they were. Hit points last between battles.
Win by holding the enemy Queen for {HOLD_TURNS} of her team's turns, by checkmate, or by killing the King.
Notation: e2-e4 (e2e4 and e2 e4 read the same), e4xe5 (attack, freeze, capture), a11-a12=W (pawn replaced), king: c3-c4 (override).
Topics: {topics}.",
        white = home_ranks(Team::White),
        black = home_ranks(Team::Black),
        n = number_word(Commander::ORDER.len()),
        commands = commands.join(", "),
        extra = dice(ATTACK_DICE),
        topics = TOPICS.join(", "),
    )
}

/// The pieces a Footman may become, in words: "a Warrior or Scout".
fn footman_becomes() -> String {
    let names: Vec<&str> = FOOTMAN_BECOMES.iter().map(|k| k.name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("a {} or {last}", rest.join(", ")),
        _ => format!("a {}", names.concat()),
    }
}

fn card(kind: Kind) -> String {
    let stats = if kind == Kind::Queen {
        "No combat: she never attacks and is never attacked.".to_string()
    } else {
        format!(
            "Combat: {} (+{} when attacking), {} hit points.",
            dice(kind.dice()),
            dice(ATTACK_DICE),
            kind.max_hp()
        )
    };
    let healed = "Returns fully healed from a battle it wins.";
    let text = match kind {
        Kind::King => "Moves one square in any direction (as a Queen while his Queen is held). \
While his King's Knight lives and his Queen is free he is guarded: he cannot be attacked or frozen, \
can be checked and checkmated, and instantly eliminates any piece on a square he moves to (never \
either Queen; his own pieces only to escape check). Once his King's Knight is dead, or his Queen held, \
he fights like any piece, can be attacked, frozen and killed, and can no longer be checked. He commands \
the Mounted Knight and the Footmen and may override the other commanders."
            .to_string(),
        Kind::Queen => format!(
            "Moves as a chess Queen. Landing on an enemy freezes it: it leaves the board \
for the tally until she leaves the square (never the guarded King, never the other Queen). Friends \
attacking the piece she holds frozen roll {more} more {die}. At the start of her move she heals every \
wounded friend beside her. Only the Black Knight, a Scout, or a King who is no longer guarded can \
capture her; held for {HOLD_TURNS} of her team's turns, she loses the game. She is freed when her abductor dies \
or when her team captures the other Queen (the Queens are swapped), and returns beside her King.",
            more = if FROZEN_DICE == 1 { "one".to_string() } else { FROZEN_DICE.to_string() },
            die = if FROZEN_DICE == 1 { "die" } else { "dice" },
        ),
        Kind::MountedKnight => "Moves as a chess knight, jumping. Commanded by the King.".to_string(),
        Kind::Footman => format!(
            "Moves one or two squares straight ahead at any time, attacks one square \
diagonally ahead. On the far side it is replaced by {} its team lost, if any. \
{healed} Commanded by the King.",
            footman_becomes()
        ),
        Kind::Champion => format!(
            "Moves exactly {} squares along ranks and files, turning once at most \
(90 degrees), through empty squares only. Protects the Queen, who commands him.",
            champion_steps()
        ),
        Kind::Warrior => format!("Moves as a rook. {healed} Commanded by the Queen."),
        Kind::BlackKnight => "Moves as a chess knight, jumping. Can capture the enemy Queen; \
commands the Scouts."
            .to_string(),
        Kind::Scout => "Moves as a bishop (the two Scouts on different colours). Can capture the \
enemy Queen, and then must be killed to free her. Commanded by the Black Knight."
            .to_string(),
        Kind::KingsKnight => "Moves as a chess knight, jumping. The King's guard: while he lives \
the King cannot be attacked. Commands the Squires. (The setup table's \"Mounted Lancer\" is he.)"
            .to_string(),
        Kind::Squire => format!(
            "Moves as a chess pawn (two squares from its starting rank, no en passant), \
attacks diagonally ahead. On the far side it is replaced by any piece its team lost. {healed} \
Commanded by the King's Knight."
        ),
    };
    format!("{}: {text}\n{stats}", kind.name())
}

/// The battle rules and every piece's dice and hit points, from [`Kind`].
fn combat() -> String {
    let healers: Vec<String> = Kind::ALL
        .into_iter()
        .filter(|k| k.heals_on_victory())
        .map(|k| match k {
            Kind::Footman => "Footmen".to_string(),
            _ => format!("{}s", k.name()),
        })
        .collect();
    let healers = match healers.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => healers.concat(),
    };
    let stats: Vec<String> = Kind::ALL
        .into_iter()
        .filter(|&k| k != Kind::Queen)
        .map(|k| format!("{} {}/{}", k.name(), dice(k.dice()), k.max_hp()))
        .collect();
    format!(
        "\
Combat: the attacker rolls its dice plus {extra} (plus another {frozen} against a piece its own Queen holds \
frozen); the defender rolls its own dice. The lower total loses the difference in hit points; the \
defender wins ties (losing nothing). At zero or less the loser dies and the winner takes the square; \
if both live, both stay where they were. {healers} that win are healed fully. \
Dice: {stats}.",
        extra = dice(ATTACK_DICE),
        frozen = dice(FROZEN_DICE),
        stats = stats.join(", "),
    )
}

/// The turn: four commanders' moves in [`Commander::ORDER`].
fn turn() -> String {
    let order: Vec<&str> = Commander::ORDER.iter().map(|c| c.name()).collect();
    format!(
        "\
A turn is {n} moves, one per commander in order: {order}. \
Before a commander's move the King may override it (`king: c3-c4`) and move any piece that has not \
moved this turn; the commander loses that move. A commander with no legal move must be overridden; \
if no piece at all can move, the move passes. The King cannot override his own move, except when \
none of his own pieces can move: then he moves any piece not yet moved, typed as a plain move.",
        n = number_word(Commander::ORDER.len()),
        order = order.join(", "),
    )
}

fn number_word(n: usize) -> String {
    ["zero", "one", "two", "three", "four", "five", "six"]
        .get(n)
        .map(|w| w.to_string())
        .unwrap_or_else(|| n.to_string())
}

const CHECK: &str = "\
Check applies only to a guarded King (King's Knight alive, Queen free). Any enemy piece whose \
movement reaches his square checks him, the Queen included. No move may leave one's own guarded \
King in check whatever the dice say; a team in check must end it with its current move (the King \
may override to do so). If it cannot, the King is checkmated and his team loses.";

/// The rules page of the project, whose numbered rulings the `rulings`
/// topic counts (one source for players and developers).
const RULES_PAGE: &str = include_str!("../../rules/gladiator.md");

fn rulings() -> String {
    let count = RULES_PAGE
        .split("\n\n")
        .filter(|p| p.trim_start().starts_with("**R"))
        .count();
    format!(
        "The rulings where the text is unclear are numbered R1-R{count} on the rules page of the project \
(engine/rules/gladiator.md): the Mounted Lancer is the King's Knight; a failed attacker stays; an \
attack is the piece's move; the hold counts the captive Queen's team's turns; and so on."
    )
}

pub fn rules(topic: Option<&str>) -> Result<String, String> {
    let Some(t) = topic.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(overview());
    };
    match t.to_ascii_lowercase().as_str() {
        "combat" | "battle" | "dice" => return Ok(combat()),
        "turn" | "override" | "order" => return Ok(turn()),
        "check" | "checkmate" => return Ok(CHECK.into()),
        "rulings" => return Ok(rulings()),
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
