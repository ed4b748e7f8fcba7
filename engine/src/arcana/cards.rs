//! The unit cards players read (`/rules arcana <unit>`) and the one-line
//! summaries refusals quote. A card's lines are fixed text, except those that
//! state a rule not the same in every game ([`Variation`]): these are written
//! by [`ruleset`](super::ruleset) for the rules in force, so a card always
//! says what the engine plays.

use super::ruleset::{Ruleset, Variation};
use super::state::RULINGS;
use super::unit::{Family, Unit};

/// One line of a card.
enum Line {
    /// Words that hold in every game.
    Text(&'static str),
    /// A rule that differs between games, after these words.
    Rule(&'static str, Variation),
}
use Line::{Rule, Text};

/// The card of a unit, as printed on the front and the back, followed by the
/// rulings that concern it.
fn lines(unit: Unit) -> &'static [Line] {
    match unit {
        Unit::ImperialWarrior => &[
            Text("Imperial Warrior (Human, Soldier): soldiers with great attacking prowess."),
            Text("- Moves one square forward (only forward), onto an empty square."),
            Text("- Kills without moving: any one soldier class model straight in front of him, or one higher ranking model diagonally forward."),
            Text("Notation: `e2-e3` move, `e2xe3` / `e2xf3` kill. On the far rank he may be promoted by the Battle Mage."),
        ],
        Unit::BlueKnight => &[
            Text("Blue Knight (Human, Sergeant): an honourable swordsman galloping through the ranks."),
            Text("- Moves in an L (1+2 or 2+1 squares in any direction), passing over allied and enemy models."),
            Text("- Kills whomever he lands upon, ally or enemy (ruling R1)."),
            Text("Notation: `b1-c3`."),
        ],
        Unit::WindMage => &[
            Text("Wind Mage (Human, Lieutenant): a spell caster who summons lightning."),
            Text("- Teleports diagonally 1 or 2 squares, over any model, killing whomever he lands on (ally or enemy)."),
            Text("- OR strikes a lightning bolt exactly 3 squares ahead (toward the enemy lines, never sideways or back), killing whoever is there (R4)."),
            Text("Notation: `a1-c3`, `bolt a1>a4`."),
        ],
        Unit::PriestOfTheWinds => &[
            Text("Priest of the Winds (Human, Captain): a blessed healer protected by a guardian angel."),
            Text("- Moves one square in any direction, and/or kills one adjacent soldier class model (never above soldier) (R6)."),
            Text("- OR, standing in a corner of the board, revives a soldier class model from his graveyard onto an empty adjacent square."),
            Text("SPECIAL: when killed in any manner he may at once be revived onto any empty square, once per Priest; his owner decides, even on the opponent's turn (R7)."),
            Text("Notation: `c1-c2`, `c1xb2`, `c1-c2xd3`, `revive a1>b2`; when killed: `place e4` or `decline`."),
        ],
        Unit::Alchemist => &[
            Text("Alchemist (Human, Captain): a cowardly chemist who engulfs his target with fire."),
            Text("- Moves horizontally 1 to 5 squares, staying in his back ranks; he never hops: each model in the way swaps places with him as he goes (R8)."),
            Text("- Throws a firebrew at any model within 2 squares (any two steps, hopping over one model): it gets 3 tokens; its owner removes one each time he ends a turn and the model dies with the last. A model already burning cannot be hit again."),
            Text("- He may throw and move in the same turn, in either order (R9)."),
            Text("Notation: `f1-c1`, `brew f1>e3`, `f1-c1 brew c1>e3` (move then throw), `brew f1>e3 f1-c1` (throw then move)."),
        ],
        Unit::Duelist => &[
            Text("Duelist (Human, Chief): a galloping noble armed with a deadly pistol."),
            Text("- Moves any distance in one of the eight directions until obstructed."),
            Text("- Fires his pistol at any one adjacent model, after moving or without moving."),
            Text("Notation: `d1-d5`, `d1xe2`, `d1-d5xe6`."),
        ],
        Unit::BattleMage => &[
            Text("Battle Mage (Human, General): a royal wizard on horseback."),
            Text("- Rides one square in any direction and/or kills one adjacent model."),
            Text("- OR rides one square (or not) and vanquishes all adjacent enemy models ranking Sergeant/Lieutenant or less; his owner relocates each of them to any empty square (R10)."),
            Text("- OR promotes a soldier standing on the far rank into a Sergeant/Lieutenant unit from his graveyard; if the graveyard holds none, may instead return that soldier to a square adjacent to the Mage (R11)."),
            Text("If he dies, his side loses."),
            Text("Notation: `e1-e2`, `e1xd2`, `e1-e2xe3`, `vanquish e4`, `e4-e5 vanquish`, then `place h5` per model; `promote a8=blue-knight`, `recall a8>d2`."),
        ],
        Unit::Skeleton => &[
            Text("Skeleton (Undead, Soldier): unrelenting juggernauts of destruction."),
            Text("- Moves one square forward; kills by moving into a square with another model."),
            Rule("- ", Variation::SkeletonToFirstLine),
            Text("SPECIAL: cannot be killed by soldier class models."),
            Text("Notation: `e7-e6`, `a1-off>d7`."),
        ],
        Unit::Zombie => &[
            Text("Zombie (Undead, Sergeant): messengers of death."),
            Text("- Moves up to two squares orthogonally, changing direction if he likes, never diagonally, never hopping; kills by moving into a square with another model."),
            Rule("SPECIAL: he ", Variation::ZombieTurnsVictim),
            Text("Notation: `b8-c7`; then `place c6` (`place c6=mummy` where two units share the rank, and always for a victim turned Undead) or `decline` (a recruit only)."),
        ],
        Unit::Mummy => &[
            Text("Mummy (Undead, Lieutenant): an ancient horror."),
            Text("- Moves one square orthogonally; kills by moving into a square with another model."),
            Text("SPECIAL, tomb gas: enemy models adjacent to a Mummy at the end of a turn are paralysed: their owner cannot command them to move, attack or use an ability until the gas is gone at the end of a later turn. SPECIAL rules (immunities, the Priest's revival) still apply. Allies are not affected (R13)."),
            Text("Notation: `a8-a7`."),
        ],
        Unit::TombKeeper => &[
            Text("Tomb Keeper (Undead, Captain): loyal servant to a ruler long past."),
            Text("- Moves one square in any direction, OR kills any one adjacent model (not both) (R6)."),
            Text("SPECIAL: cannot be killed by soldier class models."),
            Text("Notation: `c8-c7`, `c8xd7`."),
        ],
        Unit::DarkPriest => &[
            Text("Dark Priest (Undead, Chief): a mage in constant meditation. He never moves."),
            Text("- Night wind: sacrifices an allied soldier class model (anywhere) to push every enemy model one square back, rear-most row first; a model with no empty square behind it stays (never off the board) (R14)."),
            Text("- OR explodes an allied unit ranking above soldier (anywhere): it dies with every model adjacent to it, allies included; a General-class attack."),
            Rule("- OR ", Variation::DarkPriestStrikesAllies),
            Text("SPECIAL: if moved by others (swapped, pushed, relocated) he rests: he cannot be commanded on his owner's next turn."),
            Text("Notation: `wind d8>a7`, `explode d8>a8`, `smite d8`."),
        ],
        Unit::Necromancer => &[
            Text("Necromancer (Undead, General): a sorcerer of death on skeletal horseback."),
            Text("- Moves one square in any direction, OR kills any one adjacent model."),
            Text("- OR revives one soldier class model from his graveyard onto an empty adjacent square."),
            Text("- OR trades two of his models on the board (2 soldiers; or 2 sergeant/lieutenants; or 2 captains) for one unit of the next class (sergeant/lieutenant; captain; chief) from his graveyard, placed adjacent to him (R15)."),
            Text("If he dies, his side loses."),
            Text("Notation: `e8-e7`, `e8xd7`, `revive e8>d7`, `trade a7+b7=mummy` then `place d7`."),
        ],
        Unit::Ghoul => &[
            Text("Ghoul (Undead Arcana, pawn = Soldier): a carnivorous scavenger who feeds on his victims."),
            Text("- Moves one square diagonally, forward or backward (U2)."),
            Text("- Buries whatever model he lands on, ally or enemy (R1): a buried model is gone for good, not in the graveyard, never revived or traded (U3). Skeletons and Tomb Keepers cannot be buried by him."),
            Text("Notation: `b2-c3`."),
        ],
        Unit::Ghost => &[
            Text("Ghost (Undead Arcana, rook = Lieutenant): a free-roaming spectre who enjoys scaring his opponents."),
            Text("- Moves one square in any direction; captures whatever model he ends on."),
            Text("- OR, without moving, scares all adjacent models, allies and enemies: each moves three squares straight away from him, stopping early at the edge or before another model (U4)."),
            Text("Notation: `a1-b2`, `scare a1`."),
        ],
        Unit::Cultist => &[
            Text("Cultist (Undead Arcana, knight = Sergeant): a dark mage who brainwashes his victims."),
            Text("- Moves one square in any direction; captures whatever model he ends on."),
            Rule("- OR ", Variation::CultistControlsGeneral),
            Text("Notation: `b1-c2`, `control b1>c2`."),
        ],
        Unit::Wraith => &[
            Text("Wraith (Undead Arcana, bishop = Captain): a ghostly reaper armed with a scythe and a smile."),
            Text("- Leaps one or two squares in any of the eight directions, over any model, onto an empty square."),
            Text("- Captures one adjacent model without moving, or after leaping one square (not after leaping two)."),
            Text("- OR, without moving, swings: captures every adjacent model, allies too (refused next to his own General, R2) (U6)."),
            Text("Notation: `c1-e3`, `c1xd2`, `c1-c2xd3`, `swing c1`."),
        ],
        Unit::Vampire => &[
            Text("Vampire (Undead Arcana, queen = Chief): a bloodthirsty warrior entranced with battle."),
            Text("- Moves one square in any direction, and may capture one adjacent model before or after the move (or without moving)."),
            Text("- Life force: after a capture his side may take one extra turn with him (`decline` to end the turn); no further extra turn from it."),
            Text("- Disability: if a turn of his (the extra one included) ends with him on a white square, he is buried (U7)."),
            Text("Notation: `d1-d2`, `d1xe2`, `d1-d2xe3`, `d1xe2-d2`."),
        ],
        Unit::Lich => &[
            Text("Lich (Undead Arcana, king = General): a wizard who found immortality within death."),
            Text("- Leaps one or two squares horizontally, over any model, onto an empty square. He never captures."),
            Text("- Soul slave: without moving, takes a unit from the enemy's graveyard and raises it as his own on an empty square next to him; then his side must bury one allied model, on the board or in its graveyard (not the General, not the new slave)."),
            Text("- When a soul slave captures an enemy, his side must bury one allied model the same way (U8)."),
            Text("If he dies, his side loses."),
            Text("Notation: `e1-g1`, `enslave e1>e2=blue-knight`, then `bury a2` (a model) or `bury skeleton` (from the graveyard)."),
        ],
    }
}

/// The rules a unit may play under: Tokar's units of the Undead army under
/// Tokar's or Undead Arcana's rules, the alternatives under Undead Arcana's
/// only, the Human units under Tokar's; each under every edition.
pub fn rulesets_of(unit: Unit) -> Vec<Ruleset> {
    Ruleset::all()
        .into_iter()
        .filter(|r| match unit.family() {
            Family::Human => !r.undead_arcana,
            Family::Undead if Unit::ALTERNATES.contains(&unit) => r.undead_arcana,
            Family::Undead => true,
        })
        .collect()
}

/// The card of `unit` under one set of rules: what a model of a game played
/// by them can do.
pub fn card_under(unit: Unit, rules: Ruleset) -> String {
    card(unit, &[rules])
}

/// The card of `unit` for `/rules`: every rule that differs between the
/// rules it may play under is given for each, labelled.
pub fn card_page(unit: Unit) -> String {
    card(unit, &rulesets_of(unit))
}

fn card(unit: Unit, rules: &[Ruleset]) -> String {
    let mut out = Vec::new();
    let mut editions = false;
    for line in lines(unit) {
        match line {
            Text(t) => out.push(t.to_string()),
            Rule(lead, v) => {
                for (label, text) in stated(*v, rules) {
                    editions |= label.contains("edition");
                    let text = capital_after(lead, text);
                    out.push(match label.is_empty() {
                        true => format!("{lead}{text}"),
                        false => format!("[{label}] {lead}{text}"),
                    });
                }
            }
        }
    }
    if editions {
        out.push(editions_note());
    }
    out.join("\n")
}

/// What the U12 note says wherever a text differs by edition.
pub(crate) fn editions_note() -> String {
    format!("Editions (U12): a game plays by the edition of the rulings it began with; new games play by edition {RULINGS}.")
}

/// The rule `v` under each of `rules`: one text when it reads the same under
/// all, else one per reading, labelled with the rules it holds under (the
/// current edition's first).
pub(crate) fn stated(v: Variation, rules: &[Ruleset]) -> Vec<(String, &'static str)> {
    let mut groups: Vec<(bool, Vec<Ruleset>)> = Vec::new();
    for &r in rules {
        let holds = r.holds(v);
        match groups.iter_mut().find(|(h, _)| *h == holds) {
            Some((_, g)) => g.push(r),
            None => groups.push((holds, vec![r])),
        }
    }
    if groups.len() == 1 {
        return vec![(String::new(), v.line(groups[0].0))];
    }
    groups
        .into_iter()
        .map(|(holds, g)| (label(&g, rules), v.line(holds)))
        .collect()
}

/// Names a group of rulesets within `all`: the army's rules where both are
/// among `all`, the editions where not every edition is in the group.
fn label(group: &[Ruleset], all: &[Ruleset]) -> String {
    let both_armies = all.iter().any(|r| r.undead_arcana) && all.iter().any(|r| !r.undead_arcana);
    let mut parts = Vec::new();
    for ua in [false, true] {
        let mut eds: Vec<u8> = group
            .iter()
            .filter(|r| r.undead_arcana == ua)
            .map(|r| r.edition)
            .collect();
        if eds.is_empty() {
            continue;
        }
        eds.sort_unstable();
        let every = all.iter().filter(|r| r.undead_arcana == ua).count() == eds.len();
        let army = match (both_armies, ua) {
            (false, _) => None,
            (true, false) => Some("Tokar's rules"),
            (true, true) => Some("Undead Arcana's rules"),
        };
        let ed = (!every).then(|| {
            let list = eds.iter().map(u8::to_string).collect::<Vec<_>>();
            match list.len() {
                1 => format!("edition {}", list[0]),
                _ => format!("editions {}", list.join(", ")),
            }
        });
        parts.push(match (army, ed) {
            (Some(a), Some(e)) => format!("{a}, {e}"),
            (Some(a), None) => a.to_string(),
            (None, Some(e)) => e,
            (None, None) => "every game".to_string(),
        });
    }
    parts.join("; ")
}

/// A rule's words begin a sentence after a bare "- ".
fn capital_after(lead: &str, text: &str) -> String {
    if lead != "- " {
        return text.to_string();
    }
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// One line on what a model does under the rules its army plays by, for
/// refusals.
pub(crate) fn short_card(unit: Unit, rules: Ruleset) -> String {
    let says = |v: Variation| v.clause(rules.holds(v));
    match unit {
        Unit::ImperialWarrior => "An Imperial Warrior moves one square forward onto an empty square, and kills without moving a soldier straight ahead or a higher ranking model diagonally forward.".into(),
        Unit::BlueKnight => "A Blue Knight moves in an L and kills whomever he lands on.".into(),
        Unit::WindMage => "A Wind Mage teleports 1 or 2 squares diagonally, killing whomever he lands on, or bolts the square exactly 3 ahead.".into(),
        Unit::PriestOfTheWinds => "A Priest of the Winds moves one square and/or kills an adjacent soldier, or revives a soldier from a corner.".into(),
        Unit::Alchemist => "An Alchemist moves 1 to 5 squares along his back rank and/or throws a firebrew at a model within 2 squares.".into(),
        Unit::Duelist => "A Duelist moves in a straight line onto empty squares and/or fires at an adjacent model.".into(),
        Unit::BattleMage => "A Battle Mage rides one square and/or kills an adjacent model, or vanquishes, or promotes.".into(),
        Unit::Skeleton => format!("A Skeleton moves one square forward, killing by moving in (not Skeletons or Tomb Keepers), or {}.", says(Variation::SkeletonToFirstLine)),
        Unit::Zombie => format!("A Zombie moves up to two squares orthogonally without hopping, killing by moving in; {}.", says(Variation::ZombieTurnsVictim)),
        Unit::Mummy => "A Mummy moves one square orthogonally, killing by moving in.".into(),
        Unit::TombKeeper => "A Tomb Keeper moves one square, or kills an adjacent model.".into(),
        Unit::DarkPriest => format!("A Dark Priest never moves: night wind, explosion, or {}.", says(Variation::DarkPriestStrikesAllies)),
        Unit::Necromancer => "A Necromancer moves one square, or kills an adjacent model, or revives a soldier, or trades.".into(),
        Unit::Ghoul => "A Ghoul moves one square diagonally, forward or backward, burying whatever he lands on (not Skeletons or Tomb Keepers).".into(),
        Unit::Ghost => "A Ghost moves one square, capturing what he ends on, or scares all adjacent models without moving.".into(),
        Unit::Cultist => format!("A Cultist moves one square, capturing what he ends on, or {}.", says(Variation::CultistControlsGeneral)),
        Unit::Wraith => "A Wraith leaps 1 or 2 squares onto an empty square, captures an adjacent model unless he leapt 2, or swings at all adjacent models without moving.".into(),
        Unit::Vampire => "A Vampire moves one square and may capture one adjacent model before or after moving.".into(),
        Unit::Lich => "A Lich leaps 1 or 2 squares horizontally onto an empty square, or raises a soul slave from the enemy's graveyard.".into(),
    }
}
