//! Recomputing the ratings of a game kind from its rated games, in the order
//! they ended: what `tokar restore FILE --game N` does with the restore, in
//! the same transaction (docs/backups.md and docs/ratings.md).
//!
//! A restored game may have been rated in the live store and not be finished
//! in the backup, or the other way round, and every rating after its end was
//! computed from the ratings it left. Undoing or redoing that one game's
//! change would not undo what later games built on it, so every standing,
//! history entry and pair count of the kind (each scope) is rebuilt from the
//! rated games (`R g`) as the store then holds them: each other game with
//! the places it was rated with, the restored game as its restored record and
//! log give (the restore assesses it with `RatedGame::of` before the
//! transaction: rated once if it is finished and rated, not at all otherwise),
//! each counted by the same code as a game's end ([`super::ratings::apply`]),
//! so the limit on games between the same two people (T48) and aging (T47)
//! apply in order, as if the games had ended as the store now holds them.

use super::kv::{Kv, KvTx, MAIN};
use super::ratings::{apply, corrupt, decode_rated_game, game_key, prefixed, RatedGame, TxResult};
use super::StoreError;
use std::collections::BTreeSet;
use tokar_engine::catalog::GameKind;
use tracing::info;

/// A recompute of the ratings of some game kinds, planned before its
/// transaction (which cannot list keys): the keys derived from their rated
/// games, to be replaced, and their rated games.
#[derive(Debug, Default)]
pub struct Rerate {
    pub kinds: BTreeSet<GameKind>,
    derived: Vec<Vec<u8>>,
    games: Vec<u64>,
}

impl Rerate {
    /// Plans a recompute of `kinds` on `kv`, as it holds them now. A rated
    /// game's record that does not load is an error: recomputing without it
    /// would quietly drop its result from everyone's rating.
    pub fn plan(
        kv: &dyn Kv,
        kinds: impl IntoIterator<Item = GameKind>,
    ) -> Result<Rerate, StoreError> {
        let kinds: BTreeSet<GameKind> = kinds.into_iter().collect();
        let mut derived = Vec::new();
        for kind in &kinds {
            for tag in [b'r', b'h', b'p'] {
                derived.extend(kv.keys(MAIN, &prefixed(tag, *kind, &[]))?);
            }
        }
        let mut games = Vec::new();
        for (_, v) in kv.scan(MAIN, b"Rg", usize::MAX)? {
            let g = decode_rated_game(&v)?;
            if kinds.contains(&g.kind) {
                games.push(g.game);
            }
        }
        Ok(Rerate {
            kinds,
            derived,
            games,
        })
    }

    /// Rebuilds the ratings of the planned kinds in `tx`, after game
    /// `restored` was written there: its own result is `restored_rated`, the
    /// restore's assessment of its restored record and log (`None`: not
    /// rated). Returns how many games are rated.
    pub fn run(
        &self,
        tx: &mut dyn KvTx,
        restored: u64,
        restored_rated: Option<&RatedGame>,
    ) -> TxResult<usize> {
        let mut games: Vec<RatedGame> = Vec::new();
        for id in self.games.iter().filter(|id| **id != restored) {
            if let Some(bytes) = tx.get(MAIN, &game_key(*id))? {
                games.push(corrupt(decode_rated_game(&bytes))?);
            }
        }
        for k in &self.derived {
            tx.remove(MAIN, k)?;
        }
        for g in &games {
            tx.remove(MAIN, &game_key(g.game))?;
        }
        tx.remove(MAIN, &game_key(restored))?;
        games.extend(
            restored_rated
                .filter(|g| g.game == restored && self.kinds.contains(&g.kind))
                .cloned(),
        );
        games.sort_by_key(|g| (g.at, g.game));
        let mut rated = 0;
        for g in &games {
            if apply(tx, g)? {
                rated += 1;
            }
        }
        info!(
            kinds = ?self.kinds,
            games = games.len(),
            rated,
            "ratings recomputed"
        );
        Ok(rated)
    }
}
