//! Ratings as stored: each player's standing per game kind and scope (one
//! server, or every server), one history entry per rated game, and the
//! rated game itself.
//!
//! | key | value |
//! | --- | --- |
//! | `R` `r` kind scope user | [`Standing`] |
//! | `R` `h` kind scope user at game | [`HistoryEntry`] |
//! | `R` `g` game | [`RatedGame`] |
//! | `R` `p` kind user user | [`PairGames`] (the lower id first) |
//!
//! `kind` is the game kind's place in [`GameKind::ALL`] (one byte); `scope`
//! is the server's id, or 0 for the rating across servers.
//!
//! Exactly once: the update is part of the same durable step as the game's
//! end. It is written inside the transaction of [`Store::commit`] that stores
//! the record turning `Finished`, which is why these keys live in the games'
//! tree rather than a tree of their own (a sled transaction spans the trees
//! it was opened on, and the commit is opened on this one). A crash either
//! loses the game's end and its rating together or keeps both; the `R g`
//! key makes a second pass over the same game (a replayed commit) a no-op.

use super::kv::{KvTx, TxError, MAIN};
use super::{key, tail_u64, Store, StoreError};
use serde::Deserialize;
use tokar_engine::catalog::GameKind;
use tokar_model::clock::Millis;
pub use tokar_model::rating::records::{
    pair_of, HistoryEntry, PairGames, RatedGame, Standing, GLOBAL, PAIR_GAMES, RATINGS_FORMAT,
};
use tokar_model::rating::{update, Placing, Rating, Score};
use tokar_model::record::{encode, GameRecord, Phase};
use tracing::info;

/// The key of two people's [`PairGames`] in a kind, in either order.
fn pair_key(kind: GameKind, a: u64, b: u64) -> Vec<u8> {
    prefixed(b'p', kind, &[a.min(b), a.max(b)])
}

fn decode<T: for<'de> Deserialize<'de>>(what: &str, bytes: &[u8]) -> Result<T, StoreError> {
    #[derive(Deserialize)]
    struct Head {
        v: u32,
    }
    let head: Head = serde_json::from_slice(bytes)
        .map_err(|e| StoreError::Corrupt(format!("{what} without a version: {e}")))?;
    match head.v {
        n @ (1..=RATINGS_FORMAT) => serde_json::from_slice(bytes)
            .map_err(|e| StoreError::Corrupt(format!("{what} (version {n}): {e}"))),
        n => Err(StoreError::Corrupt(format!(
            "{what} of unknown version {n} (this build reads up to {RATINGS_FORMAT})"
        ))),
    }
}

pub fn decode_standing(bytes: &[u8]) -> Result<Standing, StoreError> {
    decode("rating", bytes)
}

pub fn decode_history(bytes: &[u8]) -> Result<HistoryEntry, StoreError> {
    decode("rating history entry", bytes)
}

pub fn decode_rated_game(bytes: &[u8]) -> Result<RatedGame, StoreError> {
    decode("rated game", bytes)
}

pub fn decode_pair_games(bytes: &[u8]) -> Result<PairGames, StoreError> {
    decode("games between two people", bytes)
}

fn kind_byte(kind: GameKind) -> u8 {
    GameKind::ALL.iter().position(|k| *k == kind).unwrap_or(0) as u8
}

pub(super) fn prefixed(tag: u8, kind: GameKind, parts: &[u64]) -> Vec<u8> {
    let mut k = vec![b'R', tag, kind_byte(kind)];
    k.extend_from_slice(&key(0, parts)[1..]);
    k
}

pub(super) fn game_key(game: u64) -> Vec<u8> {
    let mut k = vec![b'R', b'g'];
    k.extend_from_slice(&game.to_be_bytes());
    k
}

pub(super) type TxResult<T> = Result<T, TxError>;

pub(super) fn corrupt<T>(r: Result<T, StoreError>) -> TxResult<T> {
    r.map_err(TxError::Abort)
}

/// Counts the table's assessment of a game in the transaction that stores
/// it, when this write is the one that finishes it (`old` is the record
/// before) and the game was not counted already (`R g`). The store replays
/// nothing: which games are rated and their places are the table's to say
/// ([`RatedGame::of`](tokar_model::rating::records::RatedGame::of)), and a
/// game it found not rated (T28, T29) comes without one.
pub(super) fn rate_on_finish(
    tx: &mut dyn KvTx,
    old: Option<&GameRecord>,
    rec: &GameRecord,
    rated: Option<&RatedGame>,
) -> TxResult<()> {
    let Some(rated) = rated else {
        return Ok(());
    };
    if rec.phase != Phase::Finished
        || old.is_some_and(|o| o.phase == Phase::Finished)
        || rec.rated != Some(true)
        || rated.game != rec.id
        || tx.get(MAIN, &game_key(rec.id))?.is_some()
    {
        return Ok(());
    }
    apply(tx, rated)?;
    Ok(())
}

/// Counts a rated game: its pair of people (T48), then everyone's standing
/// and history in each scope, then the game itself (`R g`). Returns `false`,
/// with nothing written, when the same two people have played their rated
/// games of the window (T48): the game is then not rated.
pub(super) fn apply(tx: &mut dyn KvTx, rated: &RatedGame) -> TxResult<bool> {
    let (kind, at, placings) = (rated.kind, rated.at, &rated.placings);
    if let Some((a, b)) = pair_of(placings) {
        let k = pair_key(kind, a, b);
        let mut pair = match tx.get(MAIN, &k)? {
            Some(bytes) => corrupt(decode_pair_games(&bytes))?,
            None => PairGames::default(),
        };
        if pair.full(at) {
            info!(
                game = rated.game,
                "not rated: the same two people's {PAIR_GAMES} rated games in 30 days were played"
            );
            return Ok(false);
        }
        pair.add(at);
        tx.insert(MAIN, &k, &encode(&pair))?;
    }
    let mut scopes = vec![GLOBAL];
    scopes.extend(rated.guild.filter(|g| *g != GLOBAL));
    for scope in scopes {
        let mut before = Vec::new();
        for p in placings {
            let k = prefixed(b'r', kind, &[scope, p.user]);
            let standing = match tx.get(MAIN, &k)? {
                Some(b) => corrupt(decode_standing(&b))?,
                None => Standing {
                    v: RATINGS_FORMAT,
                    user: p.user,
                    rating: Rating::initial(kind),
                    games: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                    last: None,
                },
            };
            before.push((p.clone(), standing));
        }
        // Each rating aged from its last game to this one's end (T47).
        let pairs: Vec<(Placing, Rating)> = before
            .iter()
            .map(|(p, s)| (p.clone(), s.rating.aged(s.last, at)))
            .collect();
        let after = update(kind, &pairs);
        for (((p, mut s), (_, aged)), new) in before.into_iter().zip(pairs).zip(after) {
            let entry = HistoryEntry {
                v: RATINGS_FORMAT,
                game: rated.game,
                at,
                before: aged,
                after: new,
                score: p.score,
                place: p.place,
            };
            s.rating = new;
            s.v = RATINGS_FORMAT;
            s.last = Some(at);
            s.games += 1;
            match p.score {
                Score::Win => s.wins += 1,
                Score::Draw => s.draws += 1,
                Score::Loss => s.losses += 1,
            }
            tx.insert(MAIN, &prefixed(b'r', kind, &[scope, p.user]), &encode(&s))?;
            tx.insert(
                MAIN,
                &prefixed(b'h', kind, &[scope, p.user, at, rated.game]),
                &encode(&entry),
            )?;
        }
    }
    let stored = RatedGame {
        v: RATINGS_FORMAT,
        ..rated.clone()
    };
    tx.insert(MAIN, &game_key(rated.game), &encode(&stored))?;
    Ok(true)
}

impl Store {
    /// A player's rating in a kind and scope (`None`: never rated there).
    pub fn standing(
        &self,
        kind: GameKind,
        scope: u64,
        user: u64,
    ) -> Result<Option<Standing>, StoreError> {
        match self.kv().get(MAIN, &prefixed(b'r', kind, &[scope, user]))? {
            None => Ok(None),
            Some(b) => decode_standing(&b).map(Some),
        }
    }

    /// The leaderboard of a kind and scope at `now` (T47): everyone rated
    /// there, sorted and sorted out by [`tokar_model::rating::board::board`].
    pub fn leaderboard(
        &self,
        kind: GameKind,
        scope: u64,
        now: Millis,
    ) -> Result<tokar_model::rating::board::Board, StoreError> {
        let standings = self
            .kv()
            .scan(MAIN, &prefixed(b'r', kind, &[scope]), usize::MAX)?
            .iter()
            .map(|(_, v)| decode_standing(v))
            .collect::<Result<Vec<_>, _>>()?;
        let games = self.rated_games()?;
        Ok(tokar_model::rating::board::board(
            standings, &games, kind, scope, now,
        ))
    }

    /// The rated games two people played against each other in a kind (T48).
    pub fn pair_games(&self, kind: GameKind, a: u64, b: u64) -> Result<PairGames, StoreError> {
        match self.kv().get(MAIN, &pair_key(kind, a, b))? {
            None => Ok(PairGames::default()),
            Some(bytes) => decode_pair_games(&bytes),
        }
    }

    /// A player's rated games in a kind and scope, in the order they ended.
    pub fn rating_history(
        &self,
        kind: GameKind,
        scope: u64,
        user: u64,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        let mut history = self
            .kv()
            .scan(MAIN, &prefixed(b'h', kind, &[scope, user]), usize::MAX)?
            .iter()
            .map(|(_, v)| decode_history(v))
            .collect::<Result<Vec<_>, _>>()?;
        // Stored by game number; a rating moves in the order games end.
        history.sort_by_key(|h| (h.at, h.game));
        Ok(history)
    }

    /// Every rated game, in game order.
    pub fn rated_games(&self) -> Result<Vec<RatedGame>, StoreError> {
        self.kv()
            .scan(MAIN, b"Rg", usize::MAX)?
            .iter()
            .map(|(k, v)| {
                debug_assert_eq!(tail_u64(k), decode_rated_game(v)?.game);
                decode_rated_game(v)
            })
            .collect()
    }

    /// Whether a game was rated.
    pub fn rated_game(&self, game: u64) -> Result<Option<RatedGame>, StoreError> {
        match self.kv().get(MAIN, &game_key(game))? {
            None => Ok(None),
            Some(b) => decode_rated_game(&b).map(Some),
        }
    }

    /// Every stored rating key and value, for fixtures.
    pub fn dump_ratings(&self) -> Result<Vec<super::RawItem>, StoreError> {
        self.kv().scan(MAIN, b"R", usize::MAX)
    }
}
