//! The rules for people: `/rules arcana` and `/rules arcana <unit>`.

use super::unit::Unit;

const OVERVIEW: &str = "\
Tokar's Arcana (White Mask Productions, 1998): the Human army against the Undead army on an 8x8 board.

Object: kill the enemy General (Battle Mage or Necromancer) by any means; the game ends at once.

Armies: 8 Soldiers, 2 Sergeants, 2 Lieutenants, 2 Captains, 1 Chief, 1 General each, in the two rows nearest their owner (Figure 1-1, seen from the owner's side: Lieutenant, Sergeant, Captain, Chief, General, Captain, Sergeant, Lieutenant). The creator (seat 0) sits at ranks 1-2.
Human: Imperial Warrior, Blue Knight, Wind Mage, Priest of the Winds, Alchemist, Duelist, Battle Mage.
Undead: Skeleton, Zombie, Mummy, Tomb Keeper, Dark Priest, Necromancer.

A turn: command one unit to do one thing its card allows. Killed models go to their owner's graveyard. \"Adjacent\" means the eight surrounding squares. \"Forward\"/\"ahead\" is toward the enemy lines. A model that walks off the board dies (Skeletons reappear beside their General instead).
Some actions ask for follow-up decisions (relocating vanquished models, reviving a killed Priest, raising a unit after a Zombie's kill, placing a traded unit): answer with `place <square>` or `decline`.
Tomb gas paralyses enemies next to a Mummy from the end of a turn; firebrew tokens burn down at the end of their owner's turns; a Dark Priest moved by others rests for one turn.
Check: when a side could kill the enemy General on its next turn, the game announces it.
A side with nothing it may do passes. 100 turns without a kill, revival or placement, or 600 turns in all, draw the game.

Notation: `e2-e3` move, `e2xe3` kill without moving, `d1-d4xe5` move then kill, `a1-off` walk off the board, `bolt a1>a4`, `brew f1>e3`, `f1-c1 brew c1>e3`, `vanquish e4`, `e4-e5 vanquish`, `promote a8=blue-knight`, `recall a8>d2`, `revive a1>b2`, `trade a7+b7=mummy`, `wind d8>a7`, `explode d8>a8`, `smite d8`, `place e4`, `decline`, `pass`.

Unit cards: /rules arcana <unit> (for example: blue-knight, mummy). The numbered rulings (R1...): /rules arcana rulings.";

/// The rules page of the project, whose numbered rulings `/rules arcana
/// rulings` lists (one source for players and developers).
const RULES_PAGE: &str = include_str!("../../rules/arcana.md");

/// The rulings' paragraphs: (number, headline, whole text without markup).
fn ruling_paragraphs() -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    for para in RULES_PAGE.split("\n\n") {
        let Some(rest) = para.trim_start().strip_prefix("**R") else {
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
        let text = format!("R{head}{body}").replace('`', "");
        out.push((n, format!("R{head}"), text));
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
    out
}

/// One ruling in full: "r7", "R7".
fn ruling(topic: &str) -> Option<String> {
    let n: u32 = topic.strip_prefix(['r', 'R'])?.parse().ok()?;
    ruling_paragraphs()
        .into_iter()
        .find(|(m, _, _)| *m == n)
        .map(|(_, _, text)| text)
}

/// The overview, the rulings, or one unit's card.
pub fn rules(topic: Option<&str>) -> Result<String, String> {
    match topic.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(OVERVIEW.to_string()),
        Some(t) if t.eq_ignore_ascii_case("overview") => Ok(OVERVIEW.to_string()),
        Some(t) if t.eq_ignore_ascii_case("rulings") => Ok(rulings()),
        Some(t) => match (ruling(t), Unit::parse(t)) {
            (Some(text), _) => Ok(text),
            (None, Some(u)) => Ok(u.card().to_string()),
            (None, None) => Err(format!(
                "No Arcana unit or topic is called '{t}'. Topics: rulings, r1 to r{}; units: {}.",
                ruling_paragraphs().len(),
                Unit::ALL
                    .iter()
                    .map(|u| u.id())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        },
    }
}
