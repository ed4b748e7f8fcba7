//! What is stored for an event (a Swiss tournament or a knockout): who
//! entered, the rounds paired so far with each board's game number, the
//! bracket of a knockout, and the rules it was created with. The maths that
//! fills it lives beside it ([`super::swiss`], [`super::knockout`],
//! [`super::standings`]); the table keeps the record and the store writes it
//! whole, compare-and-swapped on its version, as a league's.

use super::game::Round;
use super::knockout::{Bracket, Seeding};
use crate::clock::Millis;
use crate::record::Named;
use serde::{Deserialize, Serialize};
use tokar_engine::catalog::GameKind;

/// The event record format written today. Raise it when the record changes
/// shape, keep the reader of the old one, and add a fixture
/// (`bot/tests/fixtures/event-1.json` holds format 1).
pub const EVENT_FORMAT: u32 = 1;

/// How an event pairs its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventStyle {
    /// A fixed number of Swiss rounds (Dutch pairing, E2 to E6).
    Swiss { rounds: u32 },
    /// Single elimination, matches of one or two games and deciders (E4).
    Knockout {
        seeding: Seeding,
        games_per_match: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventPhase {
    /// Taking entries (`/event join`) until its creator starts it.
    Open,
    /// Its rounds are being played.
    Playing,
    /// Its last game ended; the winners were announced.
    Finished,
    /// Its creator cancelled it before it started.
    Cancelled,
}

/// One entrant. Index *i* in [`EventRecord::players`] is pairing number
/// *i* + 1 once the event started (numbered by rating, highest first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventPlayer {
    pub who: Named,
    /// The rating the player was numbered or seeded by, read at the start.
    pub rating: i32,
    /// The round from which a withdrawn player is no longer paired (E6).
    pub withdrawn_from: Option<u32>,
}

/// Where a game of the event sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// A board of a Swiss round (both counted from 0).
    Swiss { round: u32, board: u32 },
    /// A game of a knockout match: the bracket's round, the match in it, and
    /// the game of the match (counted from 0; deciders follow the first ones).
    Knockout { round: u32, at: u32, game: u32 },
}

/// A game the event made, and where it sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventGame {
    pub game: u64,
    pub place: Place,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRecord {
    pub format: u32,
    pub id: u64,
    /// Raised by one on every write; a write expecting another is stale.
    pub version: u64,
    pub name: String,
    pub kind: GameKind,
    pub style: EventStyle,
    /// The server it belongs to: names are unique there.
    pub guild: Option<u64>,
    /// Where it was created: its games are played there and its news told there.
    pub channel: Named,
    pub creator: u64,
    pub created_at: Millis,
    /// The move deadline of every game it makes.
    pub deadline: Millis,
    /// How long a round may run after it opens: at its closing date the games
    /// still in play are scored by E1 and the next round opens.
    pub round_length: Millis,
    /// Whether its games count for ratings.
    pub rated: bool,
    /// Drawn at creation from the operating system's randomness: the lots of
    /// its seeding and tie-breaks. Kept, so every reading draws the same lots.
    pub seed: u64,
    pub players: Vec<EventPlayer>,
    pub phase: EventPhase,
    /// A Swiss event's rounds, the last one the round in play.
    pub rounds: Vec<Round>,
    /// A knockout's bracket, made at the start.
    pub bracket: Option<Bracket>,
    /// When the round in play closes (E1); none before the start and after the end.
    pub round_closes_at: Option<Millis>,
    /// Every game it made, in the order it made them.
    pub games: Vec<EventGame>,
    /// The players announced as winners (several when tied on everything).
    pub winners: Vec<usize>,
}

impl EventRecord {
    /// The player a user entered as.
    pub fn player_of(&self, user: u64) -> Option<usize> {
        self.players.iter().position(|p| p.who.id == user)
    }

    /// Where game `game` sits in the event, if it made it.
    pub fn place_of(&self, game: u64) -> Option<Place> {
        self.games.iter().find(|g| g.game == game).map(|g| g.place)
    }

    /// Whether player `p` has withdrawn by round `round` (counted from 0).
    pub fn withdrawn_at(&self, p: usize, round: u32) -> bool {
        self.players
            .get(p)
            .and_then(|pl| pl.withdrawn_from)
            .is_some_and(|from| from <= round)
    }
}

/// Reads an event record of any format this build knows.
pub fn decode_event(bytes: &[u8]) -> Result<EventRecord, String> {
    #[derive(Deserialize)]
    struct Head {
        format: u32,
    }
    let head: Head = serde_json::from_slice(bytes)
        .map_err(|e| format!("event record without a format version: {e}"))?;
    match head.format {
        1 => serde_json::from_slice(bytes).map_err(|e| format!("event record (format 1): {e}")),
        n => Err(format!(
            "event record of unknown format {n} (this build reads up to {EVENT_FORMAT})"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::game::{Board, Outcome};

    fn record() -> EventRecord {
        let player = |id: u64, name: &str, rating| EventPlayer {
            who: Named {
                id,
                name: name.into(),
            },
            rating,
            withdrawn_from: None,
        };
        EventRecord {
            format: EVENT_FORMAT,
            id: 4,
            version: 2,
            name: "Winter Swiss".into(),
            kind: GameKind::Arcana,
            style: EventStyle::Swiss { rounds: 5 },
            guild: Some(9),
            channel: Named {
                id: 77,
                name: "events".into(),
            },
            creator: 1,
            created_at: 1_000,
            deadline: 86_400_000,
            round_length: 7 * 86_400_000,
            rated: true,
            seed: 42,
            players: vec![
                player(1, "alice", 1600),
                player(2, "bob", 1500),
                EventPlayer {
                    withdrawn_from: Some(1),
                    ..player(3, "carol", 1400)
                },
            ],
            phase: EventPhase::Playing,
            rounds: vec![Round {
                boards: vec![Board {
                    first: 0,
                    second: 1,
                    outcome: Some(Outcome::Drawn),
                }],
                bye: Some(2),
                absent: vec![],
            }],
            bracket: None,
            round_closes_at: Some(2_000),
            games: vec![EventGame {
                game: 31,
                place: Place::Swiss { round: 0, board: 0 },
            }],
            winners: vec![],
        }
    }

    #[test]
    fn a_record_reads_back_and_answers_where_its_games_and_players_are() {
        let rec = record();
        let back = decode_event(&crate::record::encode(&rec)).unwrap();
        assert_eq!(back, rec);
        assert_eq!(back.player_of(2), Some(1));
        assert_eq!(back.player_of(5), None);
        assert_eq!(back.place_of(31), Some(Place::Swiss { round: 0, board: 0 }));
        assert_eq!(back.place_of(32), None);
        assert!(!back.withdrawn_at(2, 0));
        assert!(back.withdrawn_at(2, 1));
        assert!(!back.withdrawn_at(7, 1));
    }

    #[test]
    fn a_record_of_an_unknown_format_or_none_is_refused_in_one_line() {
        let mut rec = record();
        rec.format = EVENT_FORMAT + 1;
        let e = decode_event(&crate::record::encode(&rec)).unwrap_err();
        assert!(e.contains("unknown format 2"), "{e}");
        let e = decode_event(b"{\"id\":1}").unwrap_err();
        assert!(e.contains("without a format"), "{e}");
        assert!(!e.contains('\n'));
    }
}
