//! The rules that differ between games: by the edition of Tokar's rulings a
//! game began with (U12) and by whether an army plays by Undead Arcana's rules
//! (U9). Each such rule is one [`Variation`], and both sides of it live here:
//! whether it holds under a [`Ruleset`], which the move generator, the
//! application of actions and the loss test read, and the words that state it,
//! which the unit cards, the `/rules` topics and the refusals read. So a new
//! edition changes a rule in one place, and no text a player reads can keep
//! stating the old one (engine/tests/rule_texts.rs plays each statement).

use super::state::{Arcana, RULINGS};
use crate::seat::Seat;

/// What one army plays by: an edition of the rulings and Tokar's or Undead
/// Arcana's rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    /// The edition of the rulings, 1 to [`RULINGS`].
    pub edition: u8,
    /// The army plays by Undead Arcana's rules (U9).
    pub undead_arcana: bool,
}

impl Ruleset {
    /// The rules a new game's army plays by.
    pub fn current(undead_arcana: bool) -> Ruleset {
        Ruleset {
            edition: RULINGS,
            undead_arcana,
        }
    }

    /// Every ruleset a game may play by: each edition, each army's rules.
    pub fn all() -> Vec<Ruleset> {
        (1..=RULINGS)
            .rev()
            .flat_map(|edition| {
                [false, true].map(|undead_arcana| Ruleset {
                    edition,
                    undead_arcana,
                })
            })
            .collect()
    }

    /// The refusal naming the rule `v` as these rules have it (for the
    /// variations that govern one action: [`Variation::refusal_text`]).
    pub(crate) fn refusal(self, v: Variation) -> String {
        v.refusal_text(self.holds(v))
            .unwrap_or_else(|| v.clause(self.holds(v)))
            .to_string()
    }

    /// Whether the rule `v` holds under these rules.
    pub fn holds(self, v: Variation) -> bool {
        match v {
            Variation::CultistControlsGeneral => self.edition >= 2,
            Variation::ZombieTurnsVictim => self.undead_arcana && self.edition >= 2,
            Variation::SkeletonToFirstLine => self.undead_arcana,
            Variation::DarkPriestStrikesAllies => self.undead_arcana,
            Variation::GeneralSafeByAnyAction => self.edition >= 2,
        }
    }
}

/// A rule that is not the same in every game. Adding one means saying when
/// it holds ([`Ruleset::holds`]) and how it reads either way; the rule text
/// tests then ask for a position that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variation {
    /// U5: a Cultist may control the enemy General (edition 2 on).
    CultistControlsGeneral,
    /// U9: an Undead Arcana Zombie's bite turns his victim (edition 2 on);
    /// otherwise the Zombie recruits from the graveyard (R20).
    ZombieTurnsVictim,
    /// U9: an Undead Arcana Skeleton walks off to his own first line;
    /// Tokar's reappears beside his General (R12).
    SkeletonToFirstLine,
    /// U9: an Undead Arcana Dark Priest's killing strikes allies too;
    /// Tokar's strikes enemies only (R1).
    DarkPriestStrikesAllies,
    /// U10: any action of a threatened General may make him safe (edition 2
    /// on); under edition 1 only his moves counted.
    GeneralSafeByAnyAction,
}

impl Variation {
    pub const ALL: [Variation; 5] = [
        Variation::CultistControlsGeneral,
        Variation::ZombieTurnsVictim,
        Variation::SkeletonToFirstLine,
        Variation::DarkPriestStrikesAllies,
        Variation::GeneralSafeByAnyAction,
    ];

    /// The rule, either way, as it follows the unit's name ("A Cultist
    /// controls ..."); unit cards and topic pages put it after their own words.
    pub fn line(self, holds: bool) -> &'static str {
        use Variation::*;
        match (self, holds) {
            (CultistControlsGeneral, true) => "controls one adjacent enemy model not already controlled, the General too: its owner cannot command it on his next turn, and the Cultist's side may command it, as its own, on its next turn (U5).",
            (CultistControlsGeneral, false) => "controls one adjacent enemy model not already controlled, other than the General: its owner cannot command it on his next turn, and the Cultist's side may command it, as its own, on its next turn (U5).",
            (ZombieTurnsVictim, true) => "turns an enemy he lands on (not the General) Undead instead of killing it: his owner places it on an empty square next to the Zombie as either Undead unit of its rank, whatever the graveyard holds (`place c6=ghoul`); with no empty square there it is killed. An ally bitten turns nothing (U9).",
            (ZombieTurnsVictim, false) => "may, after killing an enemy, take a unit of the victim's rank from his graveyard and place it adjacent to the Zombie (not after killing an ally) (R20).",
            (SkeletonToFirstLine, true) => "walks off the board from the far rank and appears on the empty square of his file on his own first line (U9).",
            (SkeletonToFirstLine, false) => "walks off the board from the far rank and reappears on an empty square adjacent to his General (R12).",
            (DarkPriestStrikesAllies, true) => "kills all adjacent models, allies too; never next to his own General (R2, U9).",
            (DarkPriestStrikesAllies, false) => "kills all adjacent enemy models, sparing allies (R1).",
            (GeneralSafeByAnyAction, true) => "loses when its turn begins with its General threatened (the enemy could kill or bury him with one action) and nothing he may do leaves him unthreatened: a step away, killing his attacker where he stands, a vanquish, anything of his own (a General who cannot act, paralysed or under control, has nothing) (U10).",
            (GeneralSafeByAnyAction, false) => "loses when its turn begins with its General threatened (the enemy could kill or bury him with one action) and no move of his (an action that changes his square) leaves him unthreatened: killing his attacker where he stands does not save him (U10).",
        }
    }

    /// The rule in a few words, for the one-line summaries refusals quote.
    pub fn clause(self, holds: bool) -> &'static str {
        use Variation::*;
        match (self, holds) {
            (CultistControlsGeneral, true) => "controls an adjacent enemy model, the General too",
            (CultistControlsGeneral, false) => {
                "controls an adjacent enemy model other than the General"
            }
            (ZombieTurnsVictim, true) => "an enemy he lands on turns Undead next to him",
            (ZombieTurnsVictim, false) => {
                "after killing an enemy he may raise a unit of its rank from his graveyard"
            }
            (SkeletonToFirstLine, true) => {
                "walks off the far edge onto the empty square of his file on his own first line"
            }
            (SkeletonToFirstLine, false) => "walks off the far edge to reappear beside his General",
            (DarkPriestStrikesAllies, true) => "killing all adjacent models, allies too",
            (DarkPriestStrikesAllies, false) => "killing all adjacent enemies",
            (GeneralSafeByAnyAction, true) => {
                "a threatened General whom nothing he may do makes safe loses"
            }
            (GeneralSafeByAnyAction, false) => {
                "a threatened General whom no move of his makes safe loses"
            }
        }
    }

    /// The refusal of the action the rule governs, where one names the rule.
    pub fn refusal_text(self, holds: bool) -> Option<&'static str> {
        use Variation::*;
        match (self, holds) {
            (CultistControlsGeneral, true) => Some("A Cultist controls one adjacent enemy model not already controlled, the General too"),
            (CultistControlsGeneral, false) => Some("A Cultist controls one adjacent enemy model not already controlled, other than the General"),
            (SkeletonToFirstLine, true) => Some("An Undead Arcana Skeleton walks off only from the far rank, appearing on the empty square of his file on his own first line (U9)."),
            (SkeletonToFirstLine, false) => Some("A Skeleton walks off only from the far rank, reappearing on an empty square next to his General (R12)."),
            (DarkPriestStrikesAllies, true) => Some("An Undead Arcana Dark Priest kills all adjacent models, allies too: he needs a model next to him and never strikes next to his own General (R2, U9)."),
            (DarkPriestStrikesAllies, false) => Some("A Dark Priest kills all adjacent enemy models, sparing allies: he needs an enemy next to him (R1)."),
            (ZombieTurnsVictim, _) | (GeneralSafeByAnyAction, _) => None,
        }
    }
}

impl Arcana {
    /// The rules `seat`'s army plays by in this game.
    pub fn ruleset(&self, seat: Seat) -> Ruleset {
        Ruleset {
            edition: self.rulings,
            undead_arcana: self.ua(seat),
        }
    }

    /// Whether the rule `v` holds for `seat`'s army in this game.
    pub(crate) fn holds(&self, seat: Seat, v: Variation) -> bool {
        self.ruleset(seat).holds(v)
    }
}
