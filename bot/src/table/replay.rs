//! `/replay`: a game as an animated GIF, one frame per action with its
//! marks and dice, then a pause on the position reached. The table plays the
//! stored log again from the game's seed (with its changes of seed, T13) and
//! draws every position as a spectator sees it, so no hand is ever shown
//! (ruling T18).

use super::args::Args;
use super::commands::Pick;
use super::text::{self, is_member};
use super::{apply_entry, reseed_at, Image, Reply, Request, Res, Table};
use crate::record::{GameRecord, LogEntry, Phase};
use tokar_engine::catalog::AnyGame;
use tokar_engine::{View, Viewer};
use tokar_render::{Highlights, Renderer, ReplayOptions};
use tracing::warn;

impl Table {
    pub(super) async fn cmd_replay(&self, req: &Request) -> Res<Vec<Reply>> {
        let mut args = Args::new(&req.options, Some("game"))?;
        let given = args.game()?;
        args.finish("replay")?;
        let id = self.pick(req, given, Pick::View).await?;
        let l = self.load(id).await?;
        if l.game.is_none() {
            return Err(text::lobby_status(&l.rec));
        }
        let over = l.rec.phase == Phase::Finished;
        if !over && !is_member(&l.rec, req.user.id) {
            return Err(format!(
                "Game #{id} is still being played: only its players can replay it until it ends."
            ));
        }
        let log = self.blocking(move |s| s.log(id)).await?;
        if log.is_empty() {
            return Err(format!("Game #{id} has no moves to replay yet."));
        }
        let rec = l.rec;
        let renderer = self.inner.renderer.clone();
        let made = tokio::task::spawn_blocking(move || replay_gif(&renderer, &rec, &log)).await;
        let (replay, actions) = match made {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => {
                warn!(game = id, error = %e, "replay not drawn");
                return Err(format!("Game #{id} could not be replayed as a picture."));
            }
            Err(e) => {
                warn!(game = id, error = %e, "replay task failed");
                return Err(format!("Game #{id} could not be replayed as a picture."));
            }
        };
        let content = describe(id, over, actions, &replay);
        let mut reply = if over {
            Reply::public(&req.channel, content)
        } else {
            Reply::private(&req.channel, &req.user, content)
        };
        reply
            .images
            .push(Image::png(format!("game-{id}-replay.gif"), replay.gif));
        Ok(vec![reply])
    }
}

/// The position after each logged action as a spectator sees it, with the
/// action's marks, drawn as one GIF; and the number of actions.
fn replay_gif(
    renderer: &Renderer,
    rec: &GameRecord,
    log: &[LogEntry],
) -> Result<(tokar_render::Replay, usize), String> {
    let steps = spectator_steps(rec, log)?;
    let replay = renderer
        .replay(&steps, &ReplayOptions::default())
        .map_err(|e| e.to_string())?;
    Ok((replay, steps.len()))
}

/// Plays the log again from the game's seed, as loading a game does,
/// keeping a spectator's view after each action (T18).
fn spectator_steps(rec: &GameRecord, log: &[LogEntry]) -> Result<Vec<(View, Highlights)>, String> {
    let mut game = AnyGame::setup(rec.kind, &rec.options, rec.seed).map_err(|e| e.to_string())?;
    let mut steps = Vec::with_capacity(log.len());
    for (i, e) in log.iter().enumerate() {
        reseed_at(rec, &mut game, i as u64);
        let events = apply_entry(&mut game, e)
            .map_err(|err| format!("log entry {} does not apply: {err}", i + 1))?;
        let highlights = Highlights {
            marks: events.iter().flat_map(|e| e.marks.clone()).collect(),
            ..Highlights::default()
        };
        steps.push((game.view(Viewer::Spectator), highlights));
    }
    Ok(steps)
}

/// The message with the GIF: what it shows and at what pace.
fn describe(id: u64, over: bool, actions: usize, replay: &tokar_render::Replay) -> String {
    let upto = if over {
        "to its end".to_string()
    } else {
        "up to the current position".to_string()
    };
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let shown = if replay.every == 1 {
        format!(
            "one frame for each of its {actions} action{}",
            plural(actions)
        )
    } else {
        format!(
            "one frame for every {} of its {actions} actions and the last ({} frames), \
             to keep the picture under {} MB",
            ordinal(replay.every),
            replay.actions_shown,
            tokar_render::MAX_REPLAY_BYTES / 1_000_000
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
