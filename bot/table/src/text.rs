//! Words and diagrams for replies: who holds which seat, whose turn it is,
//! how a game ended, and a text board for clients without pictures.

use super::outcome;
use tokar_engine::catalog::AnyGame;
use tokar_engine::{Outcome, Seat, Viewer};
use tokar_model::record::{GameRecord, Named, Phase};

pub use super::board_text::diagram;

pub fn seats_of(rec: &GameRecord, user: u64) -> Vec<Seat> {
    rec.members
        .iter()
        .filter(|m| m.user.id == user)
        .flat_map(|m| m.seats.iter().map(|&s| Seat(s)))
        .collect()
}

pub fn holder(rec: &GameRecord, seat: Seat) -> Option<&Named> {
    rec.members
        .iter()
        .find(|m| m.seats.contains(&seat.0))
        .map(|m| &m.user)
}

pub fn is_member(rec: &GameRecord, user: u64) -> bool {
    rec.members.iter().any(|m| m.user.id == user)
}

/// The users holding any of `seats`, each once, in seat order.
pub fn users_of(rec: &GameRecord, seats: &[Seat]) -> Vec<Named> {
    let mut out: Vec<Named> = Vec::new();
    for &s in seats {
        if let Some(u) = holder(rec, s) {
            if !out.iter().any(|o| o.id == u.id) {
                out.push(u.clone());
            }
        }
    }
    out
}

/// "Undead (bob)".
pub fn seat_label(rec: &GameRecord, game: &AnyGame, seat: Seat) -> String {
    match holder(rec, seat) {
        Some(u) => format!("{} ({})", game.seat_name(seat), u.name),
        None => game.seat_name(seat),
    }
}

pub fn seats_label(rec: &GameRecord, game: &AnyGame, seats: &[Seat]) -> String {
    seats
        .iter()
        .map(|&s| seat_label(rec, game, s))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "Human (alice) vs Undead (bob)".
/// Who plays against whom: seats of one team (one colour in the view) are
/// listed together, teams set against each other with "vs".
pub fn lineup(rec: &GameRecord, game: &AnyGame) -> String {
    let seats = game.view(Viewer::Spectator).seats;
    let mut teams: Vec<(u8, Vec<String>)> = Vec::new();
    for s in 0..game.seat_count() {
        let label = seat_label(rec, game, Seat(s as u8));
        let colour = seats.get(s).map_or(s as u8, |v| v.colour);
        match teams.iter_mut().find(|(c, _)| *c == colour) {
            Some((_, members)) => members.push(label),
            None => teams.push((colour, vec![label])),
        }
    }
    teams
        .into_iter()
        .map(|(_, members)| members.join(", "))
        .collect::<Vec<_>>()
        .join(" vs ")
}

/// How a game ended, without a final full stop: some games word their
/// reason as a sentence ("Red is the last player standing."), and the
/// caller ends the line itself.
pub fn outcome_text(rec: &GameRecord, game: &AnyGame, o: &Outcome) -> String {
    let text = match o {
        Outcome::Ongoing => "still being played".into(),
        // A reason that says when ("at the move deadline (...)") follows "won"
        // directly; one that says why follows a colon.
        Outcome::Won { winners, reason } if reason.starts_with("at ") => {
            format!("{} won {reason}", seats_label(rec, game, winners))
        }
        Outcome::Won { winners, reason } => {
            format!("{} won: {reason}", seats_label(rec, game, winners))
        }
        Outcome::Drawn { reason } => format!("drawn: {reason}"),
    };
    text.trim_end_matches('.').to_string()
}

/// One line: the game, the move and who is to act, or how it ended.
pub fn status(rec: &GameRecord, game: &AnyGame) -> String {
    let head = format!("Game #{} ({})", rec.id, rec.kind.title());
    let o = outcome(rec, game);
    if o.is_over() {
        return format!("{head} is over: {}.", outcome_text(rec, game, &o));
    }
    let to_act = game.to_act();
    let view = game.view(tokar_engine::Viewer::Spectator);
    // A decision is answered with /play like any move; the prompt gives the whole
    // command, game included, since players often have several games in a channel.
    let pending = view
        .pending
        .map(|p| {
            format!(
                " ({p}); answer with /play game:{id} action:<answer>, /moves game:{id} lists the answers",
                id = rec.id
            )
        })
        .unwrap_or_default();
    format!(
        "{head}, move {}: {} to act{pending}.",
        game.move_number(),
        seats_label(rec, game, &to_act)
    )
}

/// Who a game in the lobby still waits for.
pub fn lobby_status(rec: &GameRecord) -> String {
    let mut missing = Vec::new();
    if !rec.invited.is_empty() {
        missing.push(format!(
            "{} to accept",
            rec.invited
                .iter()
                .map(|u| u.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let open = open_seats(rec);
    if open > 0 {
        missing.push(format!(
            "{open} more player{} to /join game:{}",
            if open == 1 { "" } else { "s" },
            rec.id
        ));
    }
    let joined = rec
        .members
        .iter()
        .map(|m| m.user.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    match rec.phase {
        Phase::Cancelled => format!("Game #{} ({}) was cancelled.", rec.id, rec.kind.title()),
        _ => format!(
            "Game #{} ({}) has not started: {joined} joined; waiting for {}.",
            rec.id,
            rec.kind.title(),
            missing.join(" and ")
        ),
    }
}

pub fn open_seats(rec: &GameRecord) -> usize {
    rec.players
        .saturating_sub(rec.members.len() + rec.invited.len())
}
