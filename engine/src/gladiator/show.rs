//! What each seat sees. Nothing in Gladiator is hidden except the future dice,
//! so every viewer sees the same position; only the board's rotation differs.

use super::piece::{Commander, Kind, Team};
use super::{name, seat_of, team_of, Gladiator, BOARD, HOLD_TURNS};
use crate::game::Game;
use crate::seat::Viewer;
use crate::view::{PieceView, SeatView, StatusKind, StatusView, View};

pub fn view(g: &Gladiator, viewer: Viewer) -> View {
    let rotation = match viewer.seat() {
        Some(s) if s.index() < 8 && team_of(s) == Team::Black => 180.0,
        _ => 0.0,
    };
    let mut pieces = Vec::new();
    for (cell, p) in g.pieces() {
        let mut statuses = Vec::new();
        if p.kind == Kind::Queen && g.frozen_by(p.team).is_some_and(|f| f.cell == cell) {
            statuses.push(StatusView {
                kind: StatusKind::Frozen,
                count: None,
            });
        }
        if let Some(c) = g.captive(p.team.other()) {
            if c.captor == p.id {
                statuses.push(StatusView {
                    kind: StatusKind::Held,
                    count: Some(c.held),
                });
            }
        }
        if p.kind == Kind::King && g.guarded(p.team) {
            statuses.push(StatusView {
                kind: StatusKind::Guarded,
                count: None,
            });
        }
        pieces.push(PieceView {
            cell,
            seat: seat_of(p.team, p.kind.commander()),
            glyph: p.kind.glyph(),
            hp: (p.kind != Kind::Queen).then_some((p.hp, p.kind.max_hp())),
            statuses,
        });
    }
    let mut seats = Vec::new();
    for team in [Team::White, Team::Black] {
        for commander in Commander::ORDER {
            let seat = seat_of(team, commander);
            let mut notes = Vec::new();
            if let Some(f) = g.frozen_by(team.other()) {
                if f.piece.kind.commander() == commander {
                    notes.push(format!(
                        "Frozen: {} ({} of {} hit points) under the {} Queen on {}",
                        f.piece.kind.name(),
                        f.piece.hp,
                        f.piece.kind.max_hp(),
                        team.other().name(),
                        name(f.cell)
                    ));
                }
            }
            match commander {
                Commander::Queen => {
                    if let Some(f) = g.frozen_by(team) {
                        notes.push(format!(
                            "Holds the {} frozen on {}",
                            f.piece.full_name(),
                            name(f.cell)
                        ));
                    }
                    if let Some(c) = g.captive(team) {
                        let by = g
                            .pieces()
                            .find(|(_, p)| p.id == c.captor)
                            .map(|(cell, p)| format!(" by the {} on {}", p.kind.name(), name(cell)))
                            .unwrap_or_default();
                        notes.push(format!("Queen held {} of {HOLD_TURNS}{by}", c.held));
                    }
                }
                Commander::King => {
                    if g.guarded(team) {
                        notes.push("Guarded by his King's Knight".into());
                    } else {
                        notes.push("Can be attacked; cannot be checked".into());
                    }
                    if g.in_check(team) {
                        notes.push("In check".into());
                    }
                }
                _ => {}
            }
            seats.push(SeatView {
                name: g.seat_name(seat),
                colour: team.index() as u8,
                eliminated: false,
                hand_size: None,
                lost: g
                    .lost(team)
                    .iter()
                    .filter(|k| k.commander() == commander)
                    .map(|k| k.glyph())
                    .collect(),
                notes,
            });
        }
    }
    View {
        title: "Gladiator Chess".into(),
        board: BOARD,
        viewer,
        rotation,
        seats,
        pieces,
        to_act: g.to_act(),
        move_number: g.move_number(),
        dice: g.last_dice.clone(),
        hand: Vec::new(),
        zones: Vec::new(),
        pending: None,
        outcome: g.outcome(),
        rolls: g.last_rolls.clone(),
        check: [Team::White, Team::Black]
            .into_iter()
            .filter(|&t| g.in_check(t))
            .filter_map(|t| g.find(t, Kind::King))
            .collect(),
        under: Vec::new(),
    }
}
