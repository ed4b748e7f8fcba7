//! The rules for people: `/rules arcana` and `/rules arcana <unit>`.

use super::cards::{card_page, editions_note, stated};
use super::ruleset::{Ruleset, Variation};
use super::unit::{Family, Unit};
use crate::spelling::did_you_mean;

/// The topics besides units and numbered rulings, for "did you mean".
const TOPICS: [&str; 3] = ["overview", "rulings", "undead-arcana"];

const OVERVIEW: &str = "\
Tokar's Arcana (White Mask Productions, 1998): the Human army against the Undead army on an 8x8 board.

Object: kill the enemy General (Battle Mage or Necromancer) by any means; the game ends at once.

Armies: 8 Soldiers, 2 Sergeants, 2 Lieutenants, 2 Captains, 1 Chief, 1 General each, in the two rows nearest their owner (Figure 1-1, seen from the owner's side: Lieutenant, Sergeant, Captain, Chief, General, Captain, Sergeant, Lieutenant). The creator (seat 0) sits at ranks 1-2.
Human: Imperial Warrior, Blue Knight, Wind Mage, Priest of the Winds, Alchemist, Duelist, Battle Mage.
Undead: Skeleton, Zombie, Mummy, Tomb Keeper, Dark Priest, Necromancer.

A turn: command one unit to do one thing its card allows. Killed models go to their owner's graveyard. \"Adjacent\" means the eight surrounding squares. \"Forward\"/\"ahead\" is toward the enemy lines. A model that walks off the board dies (a Skeleton instead {SKELETON}).
Some actions ask for follow-up decisions (relocating vanquished models, reviving a killed Priest, raising a unit after a Zombie's kill, placing a traded unit): answer with `place <square>` or `decline`.
Tomb gas paralyses enemies next to a Mummy from the end of a turn; firebrew tokens burn down at the end of their owner's turns; a Dark Priest moved by others rests for one turn.
Check: when a side could kill the enemy General on its next turn, the game announces it.
A side with nothing it may do passes. 100 turns without a kill, revival or placement, or 600 turns in all, draw the game.

Notation: `e2-e3` move (`e2e3` and `e2 e3` read the same), `e2xe3` kill without moving, `d1-d4xe5` move then kill, `a1-off` walk off the board, `bolt a1>a4`, `brew f1>e3`, `f1-c1 brew c1>e3`, `vanquish e4`, `e4-e5 vanquish`, `promote a8=blue-knight`, `recall a8>d2`, `revive a1>b2`, `trade a7+b7=mummy`, `wind d8>a7`, `explode d8>a8`, `smite d8`, `place e4`, `decline`, `pass`.

Undead Arcana, the second way to play: `/new game:arcana army:undead-arcana` (or its unit picks, such as army:ghoul/ghost/cultist/wraith/vampire/lich); its rules: /rules arcana undead-arcana.

Unit cards: /rules arcana <unit> (for example: blue-knight, mummy, ghoul). The numbered rulings (R1..., U1...): /rules arcana rulings.";

/// The Undead Arcana page; `{RULES}` stands for the rules that differ from
/// Tokar's or between editions, written by [`undead_arcana`].
const UNDEAD_ARCANA: &str = "\
Undead Arcana: an Undead army picks, rank by rank, one of two units; either side may field the Human army or any Undead army.
Ranks (pawn = Soldier, rook = Lieutenant, knight = Sergeant, bishop = Captain, queen = Chief, king = General): pawn skeleton/ghoul (8), rook mummy/ghost (2), knight zombie/cultist (2), bishop tomb-keeper/wraith (2), queen dark-priest/vampire (1), king necromancer/lich (1).
Army option: `human`; `undead` (Tokar's Arcana's Undead, Tokar's rules); `undead-arcana` (the same units, Undead Arcana's rules); `alternate` (every alternative); or picks separated by `/` (or commas): `ghoul/ghost/cultist/wraith/vampire/lich`, `pawn:ghoul*4+skeleton*4/wraith`, `bishop:wraith*1+tomb-keeper`. A unit without a count fills the rest of its rank; ranks not named keep Tokar's unit. Mixed ranks are placed from the owner's left in the order written.
Under Undead Arcana's rules buried models (Ghoul, Vampire on a white square, the Lich's price) are gone for good, not in the graveyard (U3), and:
{RULES}
Notation: `scare a1`, `control b1>c2`, `swing c1`, `d1xe2-d2` (Vampire: kill, then move), `enslave e1>e2=blue-knight`, `bury a2`, `bury skeleton`, and `decline` to refuse a Vampire's extra turn.";

/// The rules that differ under Undead Arcana, as `stated` by the rulesets,
/// each after whom it concerns.
const UNDEAD_ARCANA_RULES: [(&str, Variation); 5] = [
    ("A Skeleton ", Variation::SkeletonToFirstLine),
    ("A Dark Priest ", Variation::DarkPriestStrikesAllies),
    ("A Zombie ", Variation::ZombieTurnsVictim),
    ("A Cultist ", Variation::CultistControlsGeneral),
    (
        "Loss, for both sides whenever either army plays by Undead Arcana's rules: besides losing the General, a side ",
        Variation::GeneralSafeByAnyAction,
    ),
];

/// The overview, with Tokar's Skeleton as Tokar's rules have him.
fn overview() -> String {
    let skeleton = Variation::SkeletonToFirstLine;
    let tokar = Ruleset::current(false);
    OVERVIEW.replace("{SKELETON}", skeleton.clause(tokar.holds(skeleton)))
}

/// The Undead Arcana page, with every rule that differs by edition given for
/// each edition (the current one first).
fn undead_arcana() -> String {
    let rulesets: Vec<Ruleset> = Ruleset::all()
        .into_iter()
        .filter(|r| r.undead_arcana)
        .collect();
    let mut lines = Vec::new();
    let mut editions = false;
    for (lead, v) in UNDEAD_ARCANA_RULES {
        for (label, text) in stated(v, &rulesets) {
            editions |= !label.is_empty();
            lines.push(match label.is_empty() {
                true => format!("{lead}{text}"),
                false => format!("[{label}] {lead}{text}"),
            });
        }
    }
    if editions {
        lines.push(editions_note());
    }
    UNDEAD_ARCANA.replace("{RULES}", &lines.join("\n"))
}

/// The rules page of the project, whose numbered rulings `/rules arcana
/// rulings` lists (one source for players and developers).
const RULES_PAGE: &str = include_str!("../../rules/arcana.md");

/// The rulings' paragraphs: (number, headline, whole text without markup).
fn ruling_paragraphs() -> Vec<(u32, String, String)> {
    ruling_paragraphs_of('R')
}

/// The paragraphs of the rulings numbered with `letter` (R: Tokar's Arcana,
/// U: Undead Arcana).
fn ruling_paragraphs_of(letter: char) -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    let prefix = format!("**{letter}");
    for para in RULES_PAGE.split("\n\n") {
        let Some(rest) = para.trim_start().strip_prefix(prefix.as_str()) else {
            continue;
        };
        let flat = rest.split_whitespace().collect::<Vec<_>>().join(" ");
        let Some((head, body)) = flat.split_once("**") else {
            continue;
        };
        let Some((number, _)) = head.split_once('.') else {
            continue;
        };
        let Ok(n) = number.parse::<u32>() else {
            continue;
        };
        let text = format!("{letter}{head}{body}").replace('`', "");
        out.push((n, format!("{letter}{head}"), text));
    }
    out
}

/// The headline of every ruling, and how to read one in full.
fn rulings() -> String {
    let mut out =
        String::from("Arcana rulings, where the rule text is silent or ambiguous (/rules arcana r7 shows one in full):\n");
    for (_, head, _) in ruling_paragraphs() {
        out.push_str(&head);
        out.push('\n');
    }
    out.push_str("Undead Arcana (/rules arcana u3 shows one in full):\n");
    for (_, head, _) in ruling_paragraphs_of('U') {
        out.push_str(&head);
        out.push('\n');
    }
    out
}

/// One ruling in full: "r7", "R7".
fn ruling(topic: &str) -> Option<String> {
    let letter = topic.chars().next()?.to_ascii_uppercase();
    if letter != 'R' && letter != 'U' {
        return None;
    }
    let n: u32 = topic[1..].parse().ok()?;
    ruling_paragraphs_of(letter)
        .into_iter()
        .find(|(m, _, _)| *m == n)
        .map(|(_, _, text)| text)
}

/// The one-word values of a free-text option, for "did you mean": an army
/// is a preset (U11) or one Undead unit filling its rank.
pub fn named_values(option: &str) -> Vec<&'static str> {
    match option {
        "army" => ["human", "undead", "undead-arcana", "alternate"]
            .into_iter()
            .chain(
                Unit::ALL
                    .iter()
                    .filter(|u| u.family() == Family::Undead)
                    .map(|u| u.id()),
            )
            .collect(),
        _ => Vec::new(),
    }
}

/// The overview, the rulings, or one unit's card.
pub fn rules(topic: Option<&str>) -> Result<String, String> {
    match topic.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(overview()),
        Some(t) if t.eq_ignore_ascii_case("overview") => Ok(overview()),
        Some(t)
            if [
                "undead-arcana",
                "undead arcana",
                "undeadarcana",
                "army",
                "armies",
            ]
            .iter()
            .any(|w| t.eq_ignore_ascii_case(w)) =>
        {
            Ok(undead_arcana())
        }
        Some(t) if t.eq_ignore_ascii_case("rulings") => Ok(rulings()),
        Some(t) => match (ruling(t), Unit::parse(t)) {
            (Some(text), _) => Ok(text),
            (None, Some(u)) => Ok(card_page(u)),
            (None, None) => Err(format!(
                "No Arcana unit or topic is called '{t}'.{} Topics: rulings, undead-arcana, r1 to r{}, u1 to u{}; units: {}.",
                did_you_mean(t, TOPICS.into_iter().chain(Unit::ALL.iter().map(|u| u.id()))),
                ruling_paragraphs().len(),
                ruling_paragraphs_of('U').len(),
                Unit::ALL
                    .iter()
                    .map(|u| u.id())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        },
    }
}
