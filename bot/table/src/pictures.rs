//! Drawing: the renderer (made once, it prepares the piece art) and the cache
//! of finished games' replays. Every picture is drawn off the async executor.

use super::replay_cache::{CachedReplay, ReplayCache, ReplayCacheStats, ReplayKey};
use super::Image;
use std::sync::Arc;
use tokar_model::scene::Scene;
use tokar_render::{Highlights, RenderError, RenderOptions, Renderer};
use tracing::warn;

/// The renderer and the replays it drew.
pub(crate) struct Pictures {
    /// Draws positions; made once (it prepares the piece art).
    renderer: Arc<Renderer>,
    /// Finished games' replays, drawn once (see `replay_cache.rs`).
    replays: ReplayCache,
}

impl Pictures {
    pub(crate) fn new() -> Pictures {
        Pictures {
            renderer: Arc::new(Renderer::new()),
            replays: ReplayCache::default(),
        }
    }

    /// The renderer, for drawing on the blocking pool.
    pub(crate) fn renderer(&self) -> Arc<Renderer> {
        self.renderer.clone()
    }

    /// A finished game's replay, if it was drawn and kept.
    pub(crate) fn replay(&self, key: &ReplayKey) -> Option<Arc<CachedReplay>> {
        self.replays.get(key)
    }

    /// Keeps a replay just drawn (counted as drawn either way).
    pub(crate) fn replay_drawn(&self, key: Option<ReplayKey>, replay: &Arc<CachedReplay>) {
        self.replays.drawn(key, replay);
    }

    /// How often `/replay` was answered from the cache of finished games' replays, and how
    /// often one was drawn (also the metrics `tokar_replay_cache_hits_total` and
    /// `tokar_replays_drawn_total`).
    pub(crate) fn replay_cache_stats(&self) -> ReplayCacheStats {
        self.replays.stats()
    }

    /// Forgets every kept replay, so that the next `/replay` of each game draws it again (for
    /// the replay bench, which measures both).
    pub(crate) fn forget_replays(&self) {
        self.replays.clear();
    }

    /// Draws pictures from their scenes off the async executor, each given
    /// with its place and name and returned with its place. A picture that
    /// cannot be drawn is logged and left out.
    pub(crate) async fn draw(
        &self,
        scenes: Vec<(usize, String, Arc<Scene>)>,
    ) -> Vec<(usize, Image)> {
        let renderer = self.renderer.clone();
        let drawn = tokio::task::spawn_blocking(move || {
            scenes
                .into_iter()
                .filter_map(|(n, name, scene)| match draw_scene(&scene, &renderer) {
                    Ok(png) => Some((
                        n,
                        Image {
                            name,
                            png,
                            scene: Some(scene),
                        },
                    )),
                    Err(e) => {
                        warn!(picture = %name, error = %e, "picture not drawn");
                        None
                    }
                })
                .collect()
        })
        .await;
        drawn.unwrap_or_else(|e| {
            warn!(error = %e, "picture task failed");
            Vec::new()
        })
    }
}

/// A scene's picture, as PNG bytes: its view with the marks, targets,
/// selection, side and clock line it holds.
pub(crate) fn draw_scene(scene: &Scene, renderer: &Renderer) -> Result<Vec<u8>, RenderError> {
    let highlights = Highlights {
        marks: scene.marks.clone(),
        targets: scene.targets.clone(),
        selected: scene.selected,
    };
    let mut options = RenderOptions::default();
    options.side = scene.side;
    options.clock = scene.clock.clone();
    renderer.render_with(&scene.view, &highlights, &options)
}
