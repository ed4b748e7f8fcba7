//! Why an action is refused, in a sentence that names the rule.

use super::action::Action;
use super::cards::short_card;
use super::ruleset::Variation;
use super::state::{Arcana, Pending, Piece, BOARD};
use super::undead::{allowed_under_control, rank_options};
use super::unit::{Rank, Unit};
use crate::board::Cell;
use crate::seat::Seat;

fn n(c: Cell) -> String {
    BOARD.name(c)
}

impl Arcana {
    /// The reason `action` (well formed, not legal) is refused for `seat`.
    pub(crate) fn explain(&self, seat: Seat, action: &Action) -> String {
        if let Some(p) = self.pending.front() {
            return match action {
                Action::Place { to, .. } => {
                    if !self.is_empty(*to) {
                        format!("{} is not empty.", n(*to))
                    } else {
                        match p {
                            Pending::Recruit {
                                zombie,
                                rank,
                                turned: Some(v),
                                ..
                            } => {
                                let [a, b] = rank_options(*rank);
                                format!(
                                    "The bitten {} rises as a {} or a {} on an empty square next to the Zombie on {} (U9).",
                                    v.unit.name(),
                                    a.name(),
                                    b.name(),
                                    n(*zombie)
                                )
                            }
                            Pending::Recruit { zombie, .. } => format!(
                                "The raised unit must be placed on an empty square next to the Zombie on {}, and be of the victim's rank, from your graveyard.",
                                n(*zombie)
                            ),
                            Pending::TradePlace { necro, .. } => format!(
                                "The traded unit must be placed on an empty square next to the Necromancer on {}.",
                                n(*necro)
                            ),
                            _ => format!("{} cannot take a model now.", n(*to)),
                        }
                    }
                }
                Action::Decline => match p {
                    Pending::Recruit { turned: Some(v), .. } => format!(
                        "The {} bitten by the Zombie becomes Undead: place it (U9).",
                        v.unit.name()
                    ),
                    _ => "This decision is not optional.".into(),
                },
                Action::BuryModel { .. } | Action::BuryDead { .. } => match p {
                    Pending::Bury { .. } => "Bury one of your own models on the board (not the General, not the slave just raised) or a unit from your own graveyard.".into(),
                    _ => format!("First answer the pending decision: {}.", self.pending_text(p)),
                },
                _ => format!(
                    "First answer the pending decision: {}.",
                    self.pending_text(p)
                ),
            };
        }
        match action {
            Action::Place { .. }
            | Action::Decline
            | Action::BuryModel { .. }
            | Action::BuryDead { .. } => return "There is no decision pending.".into(),
            Action::Pass => {
                return "You may pass only when you have nothing else you may do.".into()
            }
            Action::Promote { soldier, .. } | Action::Recall { soldier, .. } => {
                return self.explain_promotion(seat, *soldier, action);
            }
            _ => {}
        }
        let Some(from) = action.actor() else {
            return "That is not possible now.".into();
        };
        let Some(p) = self.at(from).copied() else {
            return format!("There is no model on {}.", n(from));
        };
        let controlled = Arcana::controlled_on(&p, self.turn_number);
        if p.owner == seat && controlled {
            return format!(
                "The {} on {} is under the enemy Cultist's control this turn: you cannot command it (U5).",
                p.unit.name(),
                n(from)
            );
        }
        if p.owner != seat && !controlled {
            return format!("The {} on {} is not yours.", p.unit.name(), n(from));
        }
        if p.owner != seat && !allowed_under_control(action) {
            return format!(
                "The {} on {} is under your control, not in your army: it may move, attack and use abilities, but nothing that draws on an army (U5).",
                p.unit.name(),
                n(from)
            );
        }
        if p.paralysed {
            return match self.gassing_mummy(from, p.owner) {
                Some(m) => format!(
                    "The {} on {} is paralysed by the Mummy on {}.",
                    p.unit.name(),
                    n(from),
                    n(m)
                ),
                None => format!(
                    "The {} on {} is paralysed by tomb gas until the end of this turn.",
                    p.unit.name(),
                    n(from)
                ),
            };
        }
        if p.rest > 0 {
            return format!(
                "The {} on {} was moved by others and rests this turn.",
                p.unit.name(),
                n(from)
            );
        }
        if let Some(why) = self.blocked_way(&p, action) {
            return why;
        }
        // The rules the model's army plays by: a controlled model acts as
        // its owner's unit (U5).
        let rules = self.ruleset(p.owner);
        // Target-specific refusals that name the rule.
        let target = match *action {
            Action::Kill { target, .. }
            | Action::MoveKill { target, .. }
            | Action::Bolt { target, .. } => Some(target),
            Action::Move { to, .. } if p.unit != Unit::Alchemist => Some(to),
            _ => None,
        };
        if let Some(t) = target {
            if let Some(q) = self.at(t) {
                if q.owner == seat && q.rank() == Rank::General {
                    return "No action may kill your own General (R2).".into();
                }
                if p.rank() == Rank::Soldier && q.unit.immune_to_soldiers() {
                    return format!(
                        "A {} cannot be killed by soldier class models.",
                        q.unit.name()
                    );
                }
            }
        }
        match *action {
            Action::Exit { .. } if p.rank() == Rank::General => {
                return "A General never walks off the board: it would lose the game (R2).".into()
            }
            Action::Exit { .. } if p.unit == Unit::Alchemist => {
                return "The Alchemist stays in his back ranks and cannot walk off the board (R8)."
                    .into()
            }
            Action::Walk { .. } if p.unit == Unit::Skeleton => {
                return rules.refusal(Variation::SkeletonToFirstLine);
            }
            Action::Smite { .. } if p.unit == Unit::DarkPriest => {
                return rules.refusal(Variation::DarkPriestStrikesAllies);
            }
            Action::Brew { target, .. } | Action::MoveBrew { target, .. }
                if self.at(target).is_some_and(|q| q.tokens > 0) =>
            {
                return format!(
                    "{} already burns with a firebrew; another has no effect.",
                    capital(&self.describe(target))
                )
            }
            Action::Kill { target, .. } | Action::MoveKill { target, .. }
                if p.unit == Unit::PriestOfTheWinds
                    && self.at(target).is_some_and(|q| q.rank() > Rank::Soldier) =>
            {
                return "A Priest of the Winds cannot kill models ranking above soldier.".into();
            }
            Action::Vanquish { .. } if p.unit == Unit::BattleMage => {
                return "The Battle Mage vanquishes only when enemy models ranking Sergeant/Lieutenant or less are adjacent (Captains, Chiefs and Generals cannot be vanquished).".into();
            }
            Action::Wind { .. } | Action::Explode { .. } if p.unit == Unit::DarkPriest => {
                return "The night wind sacrifices an allied soldier and must push at least one enemy (R14); an explosion takes an allied unit above soldier and may not kill your own General (R2).".into();
            }
            Action::Trade { .. } if p.unit == Unit::Necromancer => {
                return "A trade gives two of your models on the board of one class for a unit of the next class from your graveyard, placed on an empty square next to the Necromancer (R15).".into();
            }
            Action::Revive { .. }
                if p.unit == Unit::PriestOfTheWinds && !Arcana::is_corner(from) =>
            {
                return "The Priest of the Winds revives only from a corner of the board.".into();
            }
            Action::Revive { .. } => {
                return "A revived soldier comes from your graveyard onto an empty square adjacent to the reviver.".into();
            }
            Action::Control { target, .. } if p.unit == Unit::Cultist => {
                return format!(
                    "{}; {} is not one (U5).",
                    rules.refusal(Variation::CultistControlsGeneral),
                    self.describe(target)
                );
            }
            Action::Swing { .. } if p.unit == Unit::Wraith => {
                return "The Wraith swings only with a model next to him, and never next to his own General (R2, U6).".into();
            }
            Action::Scare { .. } if p.unit == Unit::Ghost => {
                return "The Ghost scares only when at least one adjacent model can be moved away (U4).".into();
            }
            Action::Enslave { .. } if p.unit == Unit::Lich => {
                return "A soul slave comes from the enemy's graveyard onto an empty square next to the Lich, and needs an allied model to bury (U8).".into();
            }
            _ => {}
        }
        format!(
            "The {} on {} cannot do that. {}",
            p.unit.name(),
            n(from),
            short_card(p.unit, self.ruleset(p.owner))
        )
    }

    fn explain_promotion(&self, seat: Seat, soldier: Cell, action: &Action) -> String {
        let Some(mage) = self.general(seat) else {
            return "You have no General.".into();
        };
        let m = self.at(mage).copied().expect("general");
        if m.unit != Unit::BattleMage {
            return "Only the Battle Mage promotes.".into();
        }
        if m.paralysed {
            return match self.gassing_mummy(mage, seat) {
                Some(c) => format!(
                    "The Battle Mage on {} is paralysed by the Mummy on {}.",
                    n(mage),
                    n(c)
                ),
                None => format!("The Battle Mage on {} is paralysed.", n(mage)),
            };
        }
        let ok_soldier = self
            .at(soldier)
            .is_some_and(|q| q.owner == seat && q.rank() == Rank::Soldier)
            && BOARD.coords(soldier).1 == Arcana::far_rank(seat);
        if !ok_soldier {
            return format!(
                "Only your soldier class model standing on the far rank can be promoted; {} is not one.",
                n(soldier)
            );
        }
        let units = self.grave_units(seat, Rank::is_sergeant_or_lieutenant);
        match action {
            Action::Promote { unit, .. } => {
                if units.is_empty() {
                    "There is no Sergeant/Lieutenant class model in your graveyard: recall the soldier instead (R11).".into()
                } else {
                    format!(
                        "A promotion takes a Sergeant/Lieutenant unit from your graveyard; there is no {} there.",
                        unit.name()
                    )
                }
            }
            _ => {
                if units.is_empty() {
                    format!(
                        "The soldier may only return to an empty square adjacent to the Battle Mage on {}.",
                        n(mage)
                    )
                } else {
                    "Your graveyard holds a Sergeant/Lieutenant unit: promote instead of recalling (R11).".into()
                }
            }
        }
    }

    /// The pending decision in words.
    pub(crate) fn pending_text(&self, p: &Pending) -> String {
        let who = self.seat_name_of(p.seat());
        match p {
            Pending::Relocate { queue, .. } => format!(
                "{who}: relocate the vanquished {} to any empty square (place <square>){}",
                queue[0].unit.name(),
                if queue.len() > 1 {
                    format!(", {} more after it", queue.len() - 1)
                } else {
                    String::new()
                }
            ),
            Pending::PriestRevival { .. } => format!(
                "{who}: your Priest of the Winds was killed; revive him on any empty square (place <square>) or decline"
            ),
            Pending::Recruit {
                zombie,
                turned: Some(v),
                ..
            } => format!(
                "{who}: the {} bitten by the Zombie on {} rises as Undead: place it next to him as {} (place <square>=<unit>)",
                v.unit.name(),
                n(*zombie),
                self.recruit_units(p)
                    .iter()
                    .map(|u| u.id())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            Pending::Recruit { zombie, rank, .. } => format!(
                "{who}: the Zombie on {} may raise a {} unit from your graveyard next to him (place <square>) or decline",
                n(*zombie),
                rank.name()
            ),
            Pending::TradePlace { necro, unit, .. } => format!(
                "{who}: place the {} next to the Necromancer on {} (place <square>)",
                unit.name(),
                n(*necro)
            ),
            Pending::ExtraTurn { vampire, .. } => format!(
                "{who}: the Vampire on {} may take an extra turn (command him) or decline",
                n(*vampire)
            ),
            Pending::Bury { .. } => format!(
                "{who}: bury one allied model, not the General (bury <square>, or bury <unit> from your graveyard)"
            ),
        }
    }
}

impl Arcana {
    /// A slide stopped by a model in the way: the Duelist's ride (he stops
    /// before the first model) and the Zombie's two steps (he never hops).
    fn blocked_way(&self, p: &Piece, action: &Action) -> Option<String> {
        let (from, to) = match *action {
            Action::Move { from, to } | Action::MoveKill { from, to, .. } => (from, to),
            _ => return None,
        };
        let ((ff, fr), (tf, tr)) = (BOARD.coords(from), BOARD.coords(to));
        let (df, dr) = (tf - ff, tr - fr);
        let between: Vec<Vec<Cell>> = match p.unit {
            Unit::Duelist if df == 0 || dr == 0 || df.abs() == dr.abs() => {
                let (sf, sr) = (df.signum(), dr.signum());
                let steps = df.abs().max(dr.abs());
                vec![(1..steps)
                    .filter_map(|k| BOARD.offset(from, sf * k, sr * k))
                    .collect()]
            }
            // Two steps straight, or one each way (either corner).
            Unit::Zombie if (df.abs() == 2 && dr == 0) || (df == 0 && dr.abs() == 2) => {
                vec![BOARD.offset(from, df / 2, dr / 2).into_iter().collect()]
            }
            Unit::Zombie if df.abs() == 1 && dr.abs() == 1 => [(df, 0), (0, dr)]
                .iter()
                .filter_map(|&(a, b)| BOARD.offset(from, a, b))
                .map(|c| vec![c])
                .collect(),
            _ => return None,
        };
        // Blocked when every path has a model on it; name the first of each.
        let stops: Vec<Cell> = between
            .iter()
            .map(|path| path.iter().copied().find(|&c| !self.is_empty(c)))
            .collect::<Option<Vec<Cell>>>()?;
        if stops.is_empty() {
            return None;
        }
        let what = if p.unit == Unit::Duelist {
            "ride"
        } else {
            "walk"
        };
        let verb = if stops.len() == 1 { "blocks" } else { "block" };
        Some(format!(
            "The {} on {} cannot {what} to {}: {} {verb} the way.",
            p.unit.name(),
            n(from),
            n(to),
            stops
                .iter()
                .map(|&c| self.describe(c))
                .collect::<Vec<_>>()
                .join(" and ")
        ))
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
