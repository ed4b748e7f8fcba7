//! A game rebuilt from its record: the engine's game set up from the record's
//! options and seed, then every log entry applied in order, with the chance
//! replaced where the record re-seeds it (ruling T13). The table, the ratings
//! and the checks all replay through these functions, so a record means the
//! same game to each of them.

use crate::record::{GameRecord, LogAction, LogEntry};
use tokar_engine::catalog::AnyGame;
use tokar_engine::Seat;

/// Rebuilds a game from its options, seed and log, replacing its chance
/// where the record says (ruling T13).
pub fn replay(rec: &GameRecord, log: &[LogEntry]) -> Result<AnyGame, String> {
    let mut game = AnyGame::setup(rec.kind, &rec.options, rec.seed).map_err(|e| e.to_string())?;
    for (i, e) in log.iter().enumerate() {
        reseed_at(rec, &mut game, i as u64);
        apply_entry(&mut game, e)
            .map_err(|err| format!("log entry {} does not apply: {err}", i + 1))?;
    }
    reseed_at(rec, &mut game, log.len() as u64);
    Ok(game)
}

/// Replaces the game's chance if the record re-seeds it once `done` log
/// entries are applied.
pub fn reseed_at(rec: &GameRecord, game: &mut AnyGame, done: u64) {
    for r in rec.reseeds.iter().filter(|r| r.after == done) {
        r.apply(game);
    }
}

/// Applies one log entry to the game: the action, a concession or a skip.
pub fn apply_entry(game: &mut AnyGame, e: &LogEntry) -> Result<Vec<tokar_engine::Event>, String> {
    let seat = Seat(e.seat);
    match &e.action {
        LogAction::Play(n) => game.play(seat, n).map_err(|x| x.to_string()),
        LogAction::Concede => Ok(game.concede(seat)),
        LogAction::Skip => game.skip(seat).map_err(|x| x.to_string()),
    }
}
