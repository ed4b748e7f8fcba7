//! What is stored for a league: who plays, who said yes, the games it made,
//! and the rules it was created with (tie-breaks, withdrawals, pairing
//! numbers, the seed its lots are drawn with).

use super::rules::{Numbers, TieBreaks, Withdrawal};
use crate::clock::Millis;
use crate::record::Named;
use serde::{Deserialize, Serialize};
use tokar_engine::catalog::GameKind;

/// The league record format written today. Raise it when the record changes
/// shape, keep the reader of the old one, and add a fixture
/// (`bot/tests/fixtures/league-1.json` holds format 1, `league-2.json`
/// format 2, `league-3.json` format 3).
///
/// Format 2 added the league's rules and seed ([`LeagueRecord::seed`],
/// [`LeagueRecord::tiebreaks`], [`LeagueRecord::withdrawal`],
/// [`LeagueRecord::numbers`]). A format-1 record is read with the rules it
/// was played under (the rest of a leaver's games forfeited, pairing numbers
/// in the order of `players:`), FIDE's tie-breaks (the old ones could crown
/// the wrong winner), and a seed computed from its number and creation time,
/// so that its lots are the same at every reading.
///
/// Format 3 added whether the league is rated ([`LeagueRecord::rated`],
/// `rated:no`) and whether a vacation stops its games' clocks
/// ([`LeagueRecord::vacation`], `vacation:off`). A league of format 1 or 2 is
/// read as rated with vacations on, as every league was then.
pub const LEAGUE_FORMAT: u32 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeaguePhase {
    /// Waiting for the invited players to say yes (T32).
    Forming,
    /// Its games are being played.
    Playing,
    /// Its last game ended; the winner was announced.
    Finished,
    /// Someone declined before it started, or its creator cancelled it.
    Cancelled,
    /// Not everyone said yes by its invitation deadline (T45).
    Expired,
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
    /// Drawn at creation from the operating system's randomness: the lots
    /// that end a tie nothing else breaks, and the pairing numbers when they
    /// are drawn by lot (T43). Kept, so every reading draws the same lots.
    #[serde(default)]
    pub seed: u64,
    /// The tie-break list (`tiebreaks:`), FIDE's by default (T43).
    #[serde(default)]
    pub tiebreaks: TieBreaks,
    /// What a withdrawal does to the standings (`withdrawal:`, T44).
    #[serde(default)]
    pub withdrawal: Withdrawal,
    /// How the pairing numbers were given (`numbers:`, T33).
    #[serde(default)]
    pub numbers: Numbers,
    /// Whether its games count for ratings: yes unless created `rated:no`.
    /// A rated league's games have no hints (T49); an unrated one's have them,
    /// as any unrated game between people.
    #[serde(default = "yes")]
    pub rated: bool,
    /// Whether a player's `/vacation` stops its games' clocks: yes unless
    /// created `vacation:off` (T50), which every game it starts then carries.
    #[serde(default = "yes")]
    pub vacation: bool,
}

fn yes() -> bool {
    true
}

impl LeagueRecord {
    /// Every person in the league.
    pub fn people(&self) -> impl Iterator<Item = &Named> {
        self.entrants.iter().flat_map(|e| e.members.iter())
    }

    /// When an unanswered league expires: its move deadline after its
    /// creation, as an unanswered game invitation does (T27, T45).
    pub fn invitation_deadline(&self) -> Millis {
        self.created_at.saturating_add(self.deadline)
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
        1 => serde_json::from_slice::<LeagueRecord>(bytes)
            .map(from_format_1)
            .map_err(|e| format!("league record (format 1): {e}")),
        2 => serde_json::from_slice::<LeagueRecord>(bytes)
            .map(from_format_2)
            .map_err(|e| format!("league record (format 2): {e}")),
        3 => serde_json::from_slice(bytes).map_err(|e| format!("league record (format 3): {e}")),
        n => Err(format!(
            "league record of unknown format {n} (this build reads up to {LEAGUE_FORMAT})"
        )),
    }
}

/// The rules a format-1 league is read with (see [`LEAGUE_FORMAT`]).
fn from_format_1(mut l: LeagueRecord) -> LeagueRecord {
    // Written back as the current format, with these rules stated.
    l.seed = old_seed(l.id, l.created_at);
    l.tiebreaks = TieBreaks::Fide;
    l.withdrawal = Withdrawal::Iccf;
    l.numbers = Numbers::Listed;
    from_format_2(l)
}

/// A format-2 league: rated, with vacations on (see [`LEAGUE_FORMAT`]).
fn from_format_2(mut l: LeagueRecord) -> LeagueRecord {
    l.format = LEAGUE_FORMAT;
    l.rated = true;
    l.vacation = true;
    l
}

/// A format-1 league's seed: the SplitMix64 finaliser of its number and
/// creation time. Nobody could have known it when the league was played, and
/// it is the same at every reading, which is all its lots need.
fn old_seed(id: u64, created_at: Millis) -> u64 {
    let mut rng = tokar_engine::Rng::new(id ^ created_at.rotate_left(32));
    rng.next_u64()
}
