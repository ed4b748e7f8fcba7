//! What a viewer sees: Arcana hides nothing, so every view shows the whole
//! position, turned so that the viewer's army is at the bottom.

use super::state::{Arcana, Pending, Piece, BOARD};
use super::unit::Unit;
use crate::seat::{Seat, Viewer};
use crate::view::{Glyph, PieceView, SeatView, StatusKind, StatusView, View};

/// How the renderer draws a unit.
pub fn glyph(unit: Unit) -> Glyph {
    Glyph {
        unit: unit.id().to_string(),
        letter: unit.letter(),
        name: unit.name().to_string(),
    }
}

fn statuses(g: &Arcana, cell: crate::board::Cell, p: &Piece) -> Vec<StatusView> {
    let mut out = Vec::new();
    if Arcana::controlled_on(p, g.turn_number) {
        out.push(StatusView {
            kind: StatusKind::Controlled,
            count: None,
        });
    }
    if matches!(g.pending.front(), Some(Pending::ExtraTurn { vampire, .. }) if *vampire == cell) {
        out.push(StatusView {
            kind: StatusKind::ExtraTurn,
            count: None,
        });
    }
    if p.paralysed {
        out.push(StatusView {
            kind: StatusKind::Paralysed,
            count: None,
        });
    }
    if p.tokens > 0 {
        out.push(StatusView {
            kind: StatusKind::Firebrew,
            count: Some(p.tokens),
        });
    }
    if p.rest > 0 {
        out.push(StatusView {
            kind: StatusKind::Resting,
            count: Some(p.rest),
        });
    }
    out
}

impl Arcana {
    /// The General of the side to act, when the optional "Check" rule is on
    /// and the other side could kill it on its next turn: what the game
    /// announced as "Check!" at the end of that side's turn.
    fn in_check(&self) -> Vec<crate::board::Cell> {
        if !self.check || self.outcome.is_over() {
            return Vec::new();
        }
        let threatened = self.turn;
        match self.general(threatened) {
            Some(g) if self.threatens_general(Arcana::other(threatened)) => vec![g],
            _ => Vec::new(),
        }
    }

    pub(crate) fn build_view(&self, viewer: Viewer) -> View {
        let seats = (0..2u8)
            .map(|s| {
                let seat = Seat(s);
                let army = &self.armies[s as usize];
                let mut notes = vec![if army.undead_arcana {
                    format!("Army: {}", army.summary())
                } else {
                    format!("Army: {}", army.name)
                }];
                let buried = &self.buried[s as usize];
                if !buried.is_empty() {
                    notes.push(format!(
                        "buried: {}",
                        buried
                            .iter()
                            .map(|u| u.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                if self
                    .pieces()
                    .any(|(_, p)| p.owner == seat && p.unit == Unit::PriestOfTheWinds && p.revived)
                {
                    notes.push("Priest revival used".into());
                }
                SeatView {
                    name: self.seat_name_of(seat),
                    colour: s,
                    eliminated: false,
                    hand_size: None,
                    lost: self.graves[s as usize].iter().map(|&u| glyph(u)).collect(),
                    notes,
                }
            })
            .collect();
        let pieces = self
            .pieces()
            .map(|(cell, p)| PieceView {
                cell,
                seat: p.owner,
                glyph: glyph(p.unit),
                hp: None,
                statuses: statuses(self, cell, p),
            })
            .collect();
        View {
            title: if self.undead_arcana() {
                "Undead Arcana".into()
            } else {
                "Tokar's Arcana".into()
            },
            board: BOARD,
            viewer,
            rotation: if viewer == Viewer::Seat(Seat(1)) {
                180.0
            } else {
                0.0
            },
            seats,
            pieces,
            to_act: crate::game::Game::to_act(self),
            move_number: self.turn_number,
            dice: None,
            hand: Vec::new(),
            zones: Vec::new(),
            pending: self.pending.front().map(|p| self.pending_text(p)),
            outcome: self.outcome.clone(),
            rolls: Vec::new(),
            check: self.in_check(),
            under: Vec::new(),
        }
    }
}
