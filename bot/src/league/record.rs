//! What is stored for a league: who plays, who said yes, the games it made.

use crate::clock::Millis;
use crate::record::Named;
use serde::{Deserialize, Serialize};
use tokar_engine::catalog::GameKind;

/// The league record format written today. Raise it when the record changes
/// shape, keep the reader of the old one, and add a fixture
/// (`bot/tests/fixtures/league-1.json` holds format 1).
pub const LEAGUE_FORMAT: u32 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeaguePhase {
    /// Waiting for the invited players to say yes (T32).
    Forming,
    /// Its games are being played.
    Playing,
    /// Its last game ended; the winner was announced.
    Finished,
    /// Someone declined before it started.
    Cancelled,
}

/// One place in the standings: a player, or a Gladiator team (T35).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    pub members: Vec<Named>,
    /// When they left the league (`/league leave`); their games left were
    /// then lost at the move deadline (T34).
    pub left_at: Option<Millis>,
}

impl Entrant {
    /// "alice" or "alice & bob".
    pub fn label(&self) -> String {
        self.members
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(" & ")
    }
}

/// One game of the league: the entrants at its table in seat order (the
/// first is the home side, seat 0), and the game number it was given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fixture {
    pub entrants: Vec<usize>,
    pub game: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeagueRecord {
    pub format: u32,
    pub id: u64,
    /// Raised by one on every write; a write expecting another is stale.
    pub version: u64,
    pub name: String,
    pub kind: GameKind,
    /// The server it belongs to: names are unique there, `/league list` shows it.
    pub guild: Option<u64>,
    /// Where it was created: its games are played there and its news told there.
    pub channel: Named,
    pub creator: u64,
    pub created_at: Millis,
    /// Every pairing twice, home and away.
    pub double: bool,
    /// The move deadline of every league game.
    pub deadline: Millis,
    pub entrants: Vec<Entrant>,
    /// Users who said yes (T32).
    pub agreed: Vec<u64>,
    pub phase: LeaguePhase,
    /// Made when the last player says yes; empty before.
    pub fixtures: Vec<Fixture>,
    /// The entrants announced as winners (several when tied on everything).
    pub winners: Vec<usize>,
}

impl LeagueRecord {
    /// Every person in the league.
    pub fn people(&self) -> impl Iterator<Item = &Named> {
        self.entrants.iter().flat_map(|e| e.members.iter())
    }

    /// The entrant a user plays for.
    pub fn entrant_of(&self, user: u64) -> Option<usize> {
        self.entrants
            .iter()
            .position(|e| e.members.iter().any(|m| m.id == user))
    }
}

/// Reads a stored league record of any known format.
pub fn decode_league(bytes: &[u8]) -> Result<LeagueRecord, String> {
    #[derive(Deserialize)]
    struct Head {
        format: u32,
    }
    let head: Head = serde_json::from_slice(bytes)
        .map_err(|e| format!("league record without a format version: {e}"))?;
    match head.format {
        1 => serde_json::from_slice(bytes).map_err(|e| format!("league record (format 1): {e}")),
        n => Err(format!(
            "league record of unknown format {n} (this build reads up to {LEAGUE_FORMAT})"
        )),
    }
}
