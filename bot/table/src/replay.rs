//! `/replay`: a game as an animated GIF, one frame per action with its
//! marks and dice, then a pause on the position reached. The table plays the
//! stored log again from the game's seed (with its changes of seed, T13) and
//! draws every position as a spectator sees it, so no hand is ever shown
//! (ruling T18). A long game draws every n-th action only ([`MAX_REPLAY_FRAMES`]), and a
//! finished game's replay is drawn once and then kept (`replay_cache.rs`).

use super::games::Pick;
use super::listing::Listing;
use super::replay_cache::{CachedReplay, ReplayKey};
use super::text::{self, is_member};
use super::{apply_entry, reseed_at, Image, Reply, Request, Res};
use std::sync::Arc;
use tokar_engine::catalog::AnyGame;
use tokar_engine::{View, Viewer};
use tokar_model::record::{GameRecord, LogEntry, Phase};
use tokar_render::{Highlights, Renderer, ReplayOptions};
use tracing::warn;

/// The most actions a replay draws: a longer game shows every n-th action (and the last),
/// so that drawing it stays a bounded piece of work. 200 frames at the shortest pace (0.2 s)
/// play for 40 seconds, as long as anyone watches a replay.
pub const MAX_REPLAY_FRAMES: usize = 200;

impl Listing<'_> {
    pub(super) async fn cmd_replay(&self, req: &Request, given: Option<u64>) -> Res<Vec<Reply>> {
        let id = self.t.games().pick(req, given, Pick::View).await?;
        let l = self.t.records().load(id).await?;
        if l.game.is_none() {
            return Err(text::lobby_status(&l.rec).into());
        }
        let over = l.rec.phase == Phase::Finished;
        if !over && !is_member(&l.rec, req.user.id) {
            return Err(format!(
                "Game #{id} is still being played: only its players can replay it until it ends."
            )
            .into());
        }
        // A finished game's replay never changes: drawn once, then kept (replay_cache.rs).
        let key = over.then_some(ReplayKey {
            game: id,
            version: l.rec.version,
            log_len: l.rec.log_len,
        });
        let cached = key.and_then(|k| self.t.pictures().replay(&k));
        let replay = match cached {
            Some(r) => r,
            None => {
                let log = self.t.records().blocking(move |s| s.log(id)).await?;
                if log.is_empty() {
                    return Err(format!("Game #{id} has no moves to replay yet.").into());
                }
                let rec = l.rec;
                let renderer = self.t.pictures().renderer();
                let made =
                    tokio::task::spawn_blocking(move || replay_gif(&renderer, &rec, &log)).await;
                let drawn = match made {
                    Ok(Ok(r)) => r,
                    Ok(Err(e)) => {
                        warn!(game = id, error = %e, "replay not drawn");
                        return Err(
                            format!("Game #{id} could not be replayed as a picture.").into()
                        );
                    }
                    Err(e) => {
                        warn!(game = id, error = %e, "replay task failed");
                        return Err(
                            format!("Game #{id} could not be replayed as a picture.").into()
                        );
                    }
                };
                let replay = Arc::new(CachedReplay {
                    content: describe(id, over, &drawn),
                    gif: drawn.replay.gif,
                });
                self.t.pictures().replay_drawn(key, &replay);
                replay
            }
        };
        let mut reply = if over {
            Reply::public(&req.channel, replay.content.clone())
        } else {
            Reply::private(&req.channel, &req.user, replay.content.clone())
        };
        reply.images.push(Image::png(
            format!("game-{id}-replay.gif"),
            replay.gif.clone(),
        ));
        Ok(vec![reply])
    }
}

/// A drawn replay: the GIF, how many actions the game had, and every how many of them the
/// frame budget drew one ([`MAX_REPLAY_FRAMES`]).
struct Drawn {
    replay: tokar_render::Replay,
    actions: usize,
    every: usize,
}

/// The position after each logged action as a spectator sees it, with the action's marks,
/// drawn as one GIF: every action of a game of up to [`MAX_REPLAY_FRAMES`] actions, else
/// every n-th one counted back from the last (which is always drawn).
fn replay_gif(renderer: &Renderer, rec: &GameRecord, log: &[LogEntry]) -> Result<Drawn, String> {
    let actions = log.len();
    let every = frame_step(actions);
    let steps = spectator_steps(rec, log, |i| (actions - 1 - i).is_multiple_of(every))?;
    let replay = renderer
        .replay(&steps, &ReplayOptions::default())
        .map_err(|e| e.to_string())?;
    Ok(Drawn {
        replay,
        actions,
        every,
    })
}

/// Every how many actions a replay of `actions` draws one, to stay within
/// [`MAX_REPLAY_FRAMES`].
fn frame_step(actions: usize) -> usize {
    actions.div_ceil(MAX_REPLAY_FRAMES).max(1)
}

/// Plays the log again from the game's seed, as loading a game does, keeping a spectator's
/// view after each action whose index `keep` holds (T18).
fn spectator_steps(
    rec: &GameRecord,
    log: &[LogEntry],
    keep: impl Fn(usize) -> bool,
) -> Result<Vec<(View, Highlights)>, String> {
    let mut game = AnyGame::setup(rec.kind, &rec.options, rec.seed).map_err(|e| e.to_string())?;
    let mut steps = Vec::new();
    for (i, e) in log.iter().enumerate() {
        reseed_at(rec, &mut game, i as u64);
        let events = apply_entry(&mut game, e)
            .map_err(|err| format!("log entry {} does not apply: {err}", i + 1))?;
        if !keep(i) {
            continue;
        }
        let highlights = Highlights {
            marks: events.iter().flat_map(|e| e.marks.clone()).collect(),
            ..Highlights::default()
        };
        steps.push((game.view(Viewer::Spectator), highlights));
    }
    Ok(steps)
}

/// The message with the GIF: what it shows and at what pace.
fn describe(id: u64, over: bool, drawn: &Drawn) -> String {
    let upto = if over {
        "to its end".to_string()
    } else {
        "up to the current position".to_string()
    };
    let (replay, actions) = (&drawn.replay, drawn.actions);
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    // The frame budget's step, and the render's own on top of it for the size limit.
    let every = drawn.every * replay.every;
    let shown = if every == 1 {
        format!(
            "one frame for each of its {actions} action{}",
            plural(actions)
        )
    } else {
        let why = if replay.every > 1 {
            format!(
                "to keep the picture under {} MB",
                tokar_render::MAX_REPLAY_BYTES / 1_000_000
            )
        } else {
            format!("a replay draws at most {MAX_REPLAY_FRAMES} frames")
        };
        format!(
            "showing {} of its {actions} actions, one frame for every {} and the last ({why})",
            replay.actions_shown,
            ordinal(every),
        )
    };
    format!(
        "Game #{id} replayed {upto}: {shown}, {:.1} s each, then the final position held. \
         Hands stay hidden.",
        replay.frame_ms as f32 / 1000.0
    )
}

/// "2nd", "3rd", "11th".
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::ordinal;

    #[test]
    fn ordinals_read_as_english() {
        let got: Vec<String> = [2, 3, 4, 11, 12, 21, 22, 113].map(ordinal).to_vec();
        assert_eq!(
            got,
            ["2nd", "3rd", "4th", "11th", "12th", "21st", "22nd", "113th"]
        );
    }
}
