//! What is stored for a game, a log entry and a user, with the format version
//! every record carries. Old formats must keep loading: each one has a fixture
//! in `bot/tests/fixtures/` and a test that reads it.

use crate::clock::Millis;
use serde::{Deserialize, Serialize};
use tokar_engine::catalog::{GameKind, Options};
use tokar_engine::{Outcome, Seed};

/// The format written today. Raise it when a record changes shape, keep the
/// reader of the old one, and add a fixture.
///
/// * 1: a game's seed (and its re-seeds') is a number, a SplitMix64 seed.
/// * 2: a game's seed may also be `"chacha20:<64 hex digits>"`, a ChaCha20 key: every new
///   game's (engine/src/rng.rs). Log entries and user records did not change shape; they
///   carry the number of the build that wrote them. Format 1 records load as they were
///   and their games replay with SplitMix64 (`tests/seed_replay.rs`).
pub const FORMAT: u32 = 2;

/// A person or a place as the adapters name them; the name is the last one seen.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Named {
    pub id: u64,
    pub name: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Waiting for invitees to accept or open seats to be taken.
    Lobby,
    Playing,
    Finished,
    /// Declined or withdrawn before it started.
    Cancelled,
}

/// One person at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Member {
    pub user: Named,
    /// Options this person gave for their own seats (`army` = `undead`).
    pub seat_options: Options,
    /// The seats they hold, once the game has started.
    pub seats: Vec<u8>,
}

/// Who the game waits for and what they have been told: the schedule's state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnClock {
    /// When the current wait began.
    pub since: Millis,
    /// The users waited on.
    pub waiting: Vec<u64>,
    /// When the last reminder went out (none yet: `None`).
    pub reminded_at: Option<Millis>,
    /// The move deadline passed and the players were told.
    pub deadline_told: bool,
}

/// An offer made to the other players (a draw, or taking back moves).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    pub by: u64,
    /// Users who agreed so far (the one who offered included).
    pub agreed: Vec<u64>,
    /// For an undo: the log length the game returns to.
    pub to_len: u64,
    /// The log length when the offer was made: any move since voids it.
    pub at_len: u64,
}

/// A game, everything but its log entries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub format: u32,
    pub id: u64,
    /// Raised by one on every write; a write that expected another value is stale.
    pub version: u64,
    pub kind: GameKind,
    pub channel: Named,
    pub created_at: Millis,
    pub creator: u64,
    /// How many people the game needs.
    pub players: usize,
    /// People who joined, in joining order (the creator first).
    pub members: Vec<Member>,
    /// People invited who have not answered yet.
    pub invited: Vec<Named>,
    /// The game's options; per-seat ones suffixed with the seat once started.
    pub options: Options,
    /// Secret until the game ends. A number in records of format 1 (SplitMix64);
    /// a ChaCha20 key for every game created since format 2.
    pub seed: Seed,
    pub phase: Phase,
    /// How it ended when the table (not the rules) ended it: a draw by
    /// agreement, a cancellation.
    pub table_outcome: Option<Outcome>,
    pub log_len: u64,
    /// The engine state as JSON; if it ever fails to load, the log is replayed.
    pub snapshot: Option<String>,
    /// The time allowed for one move.
    pub deadline: Millis,
    pub turn: TurnClock,
    pub draw_offer: Option<Offer>,
    pub undo_offer: Option<Offer>,
    /// The due time of this game's entry in the schedule index, if any.
    pub scheduled: Option<Millis>,
    /// Cells touched by the last action, for the picture's highlights.
    pub last_marks: Vec<(u16, tokar_engine::Mark)>,
    /// Actions to replay when the game starts (a game created from a record).
    #[serde(default)]
    pub preset: Vec<(u8, LogAction)>,
    /// The computer opponent's level and whether /hint answers (chosen at /new).
    #[serde(default)]
    pub play: PlayOptions,
    /// Set while the game's channel is gone or closed to the bot: its
    /// messages wait and its move clock stands still until a player moves it
    /// to another channel (/resume).
    #[serde(default)]
    pub channel_lost: Option<LostChannel>,
    /// Where a game created from a record stopped using the record's seed
    /// (ruling T13): after the record's actions, the game's chance comes from
    /// a secret seed. In log order; more than one when the record itself came
    /// from such a game. Records without it (games not from a record, and
    /// every game stored before it existed) replay from `seed` alone.
    /// Rekeys ([`ReseedKind::Rekey`]) are in the same list, in log order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reseeds: Vec<Reseed>,
    /// The server the game was created on (`ChannelRef::guild`): per-server
    /// ratings, standings and settings count it there. Games stored before it
    /// existed load as `None` and count only in what is kept across servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guild: Option<u64>,
    /// The reminder interval chosen for this game at `/new` (`reminder:12h`); it replaces
    /// the waiting players' own settings in this game (ruling T25). `None`: each player's
    /// setting, as for every game stored before it existed (T2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reminder: Option<Millis>,
    /// Who asked to be pinged when the game ends (`/follow`, ruling T26); emptied when the
    /// ping is stored. Records from before it load with none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub followers: Vec<Named>,
    /// When the game began (its last seat taken): the first action's time to move counts
    /// from it in `/stats`. Games begun before it was kept load as `None`, and their first
    /// action is left out of that average.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<Millis>,
    /// Whether the game counts for ratings (`/new rated:`, ruling T28).
    /// Games stored before ratings existed load as `None`: never rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// Set once the game moved into its own thread (ruling T19): `channel` is
    /// then the thread, and this the channel it was opened under, which gets a
    /// line when the game starts and one when it ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<GameThread>,
}

/// The channel a game's thread was opened under.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameThread {
    pub home: Named,
    /// The channel was told the game ended (once).
    #[serde(default)]
    pub end_told: bool,
}

/// A change of a game's chance part-way: after the first `after` log entries
/// are replayed, the engine's chance is replaced from `seed` in the way `kind`
/// says. Secret until the game ends, like the game's seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reseed {
    pub after: u64,
    pub seed: Seed,
    /// Records written before rekeys existed hold only redraws.
    #[serde(default, skip_serializing_if = "ReseedKind::is_redraw")]
    pub kind: ReseedKind,
}

/// How a [`Reseed`] replaces a game's chance.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReseedKind {
    /// Where a game from a record leaves the record's actions (ruling T13): what the
    /// record's seed decided but nobody was shown is drawn again
    /// ([`tokar_engine::catalog::AnyGame::reseed`]).
    #[default]
    Redraw,
    /// Where a game begun with a SplitMix64 seed (format 1) is given a ChaCha20 key at its
    /// first action stored by a build that has ChaCha20: only the generator is replaced,
    /// and what nobody has seen (Magic Chess's draw pile) is shuffled again
    /// ([`tokar_engine::catalog::AnyGame::rekey`], engine/rules/chance.md).
    Rekey,
}

impl GameRecord {
    /// How many of the log's first actions came from the record the game was created from
    /// (ruling T13: they end at the last redraw), 0 for a game not from a record: they are
    /// not its players' moves, and /undo never goes back into them.
    pub fn record_actions(&self) -> usize {
        self.reseeds
            .iter()
            .rev()
            .find(|r| r.kind == ReseedKind::Redraw)
            .map_or(0, |r| r.after as usize)
    }
}

impl ReseedKind {
    fn is_redraw(&self) -> bool {
        *self == ReseedKind::Redraw
    }
}

impl Reseed {
    /// A redraw (T13) after `after` actions.
    pub fn redraw(after: u64, seed: Seed) -> Reseed {
        Reseed {
            after,
            seed,
            kind: ReseedKind::Redraw,
        }
    }

    /// Replaces `game`'s chance as this change says.
    pub fn apply(&self, game: &mut tokar_engine::catalog::AnyGame) {
        match self.kind {
            ReseedKind::Redraw => game.reseed(self.seed),
            ReseedKind::Rekey => game.rekey(self.seed),
        }
    }
}

/// Why and since when a game cannot post in its channel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LostChannel {
    pub since: Millis,
    /// The channel exists but the bot may not post there (missing
    /// permissions); otherwise it was deleted or the bot left the server.
    pub permission: bool,
}

/// What the players chose at /new about the computer: how strong the bot's
/// seats play, and whether /hint may be asked. Records written before these
/// existed read as the defaults (normal, hints on); a rated game is refused
/// hints whatever its record says (ruling T49), so an old rated game's
/// `hints: true` gives no help.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayOptions {
    pub level: tokar_engine::search::Level,
    pub hints: bool,
    /// Whether a player's vacation stops this game's clock (`/new vacation:off`, ruling
    /// T50); records from before it load as `true`, as every game was then.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub vacation: bool,
    /// The game was created from a record (`/new record:`): its options are the record's,
    /// and a per-seat option given at `/accept` or `/join` that contradicts them is refused
    /// (ruling T51). Records from before it load as `false`.
    #[serde(default, skip_serializing_if = "is_no")]
    pub bound_to_record: bool,
    /// The bot's own user id, when it holds seats in the game: those seats are
    /// rated as the player of the game's `level` (ruling T52), whoever reads
    /// the record (the store when the game ends, a restore). Set at /new, and
    /// at the end of a game stored before it; records without it rate the
    /// bot's seats under its user id, as every game was before T52.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub robot: Option<u64>,
}

fn is_no(b: &bool) -> bool {
    !*b
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            level: tokar_engine::search::Level::Normal,
            hints: true,
            vacation: true,
            bound_to_record: false,
            robot: None,
        }
    }
}

impl PlayOptions {
    /// The defaults of a game that is `rated` or not: a rated game is played
    /// unassisted, so it has no hints (ruling T49); an unrated one has them.
    pub fn for_rated(rated: bool) -> PlayOptions {
        PlayOptions {
            hints: !rated,
            ..PlayOptions::default()
        }
    }
}

/// What one log entry did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LogAction {
    /// An action in the game's notation.
    Play(String),
    /// The seat left the game (resigned, or lost a claim after the deadline).
    Concede,
    /// The seat's turn was passed over after the deadline.
    Skip,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    pub format: u32,
    pub seq: u64,
    pub seat: u8,
    pub user: u64,
    pub action: LogAction,
    pub at: Millis,
    /// The action drew on chance: undo never goes back past it.
    pub chance: bool,
    /// The public sentences it produced.
    pub text: Vec<String>,
}

/// A user's preferences.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UserRecord {
    pub format: u32,
    pub user: Named,
    /// How often to remind them while a game waits for them; `None`: never.
    pub reminder: Option<Millis>,
    /// The move deadline of games they create.
    pub deadline: Millis,
    /// Vacation periods (start, end); an open end means on vacation now.
    pub vacations: Vec<(Millis, Option<Millis>)>,
    /// When this user's vacation budget began (ruling T50, `crate::vacation`): their first
    /// `/vacation on` since budgets exist. Records from before it load as `None`; their
    /// earlier vacations are not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vacation_budget_since: Option<Millis>,
}

impl UserRecord {
    pub fn new(user: Named) -> UserRecord {
        UserRecord {
            format: FORMAT,
            user,
            reminder: Some(crate::duration::DAY),
            deadline: 7 * crate::duration::DAY,
            vacations: Vec::new(),
            vacation_budget_since: None,
        }
    }

    pub fn on_vacation(&self) -> bool {
        self.vacations.last().is_some_and(|v| v.1.is_none())
    }

    /// Time spent on vacation between `from` and `to`.
    pub fn vacation_within(&self, from: Millis, to: Millis) -> Millis {
        self.vacations
            .iter()
            .map(|&(s, e)| {
                let e = e.unwrap_or(to).min(to);
                let s = s.max(from);
                e.saturating_sub(s)
            })
            .sum()
    }
}

/// Reads a stored game record of any known format.
pub fn decode_game(bytes: &[u8]) -> Result<GameRecord, String> {
    let format = format_of(bytes)?;
    match format {
        1 => {
            let rec: GameRecord = serde_json::from_slice(bytes)
                .map_err(|e| format!("game record (format 1): {e}"))?;
            let chacha = |s: &Seed| matches!(s, Seed::ChaCha20(_));
            if chacha(&rec.seed) || rec.reseeds.iter().any(|r| chacha(&r.seed)) {
                return Err(
                    "game record (format 1) with a chacha20 seed, which came with format 2".into(),
                );
            }
            Ok(rec)
        }
        2 => serde_json::from_slice(bytes).map_err(|e| format!("game record (format 2): {e}")),
        n => Err(format!(
            "game record of unknown format {n} (this build reads up to {FORMAT})"
        )),
    }
}

pub fn decode_log(bytes: &[u8]) -> Result<LogEntry, String> {
    match format_of(bytes)? {
        n @ (1 | 2) => {
            serde_json::from_slice(bytes).map_err(|e| format!("log entry (format {n}): {e}"))
        }
        n => Err(format!("log entry of unknown format {n}")),
    }
}

pub fn decode_user(bytes: &[u8]) -> Result<UserRecord, String> {
    match format_of(bytes)? {
        n @ (1 | 2) => {
            serde_json::from_slice(bytes).map_err(|e| format!("user record (format {n}): {e}"))
        }
        n => Err(format!("user record of unknown format {n}")),
    }
}

fn format_of(bytes: &[u8]) -> Result<u32, String> {
    #[derive(Deserialize)]
    struct Head {
        format: u32,
    }
    serde_json::from_slice::<Head>(bytes)
        .map(|h| h.format)
        .map_err(|e| format!("record without a format version: {e}"))
}

/// Encodes any record as stored (JSON: readable in a dump and in fixtures).
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("records always serialize")
}
