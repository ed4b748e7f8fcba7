//! The pictures of outbox entries: kept in memory for a while after the
//! command that drew them, and drawn again from their scenes when an entry is
//! delivered later than that (after a restart, or once the few kept here gave
//! way to newer ones).
//!
//! A game picture is stored in its entry as a scene, not as bytes (see
//! [`tokar_model::scene`]), so a command writes a few kilobytes instead of forty and
//! more. The command's own answer and the entry it carries use the picture
//! drawn for the command; the Discord delivery worker, which sends the other
//! entries a moment later, finds theirs here.

use super::staging::Staging;
use super::Image;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use tokar_model::outbox::{NewEntry, OutboxEntry};
use tracing::warn;

/// How many entries' pictures are kept. The delivery worker takes an entry
/// within moments of its command; a few dozen cover a burst of commands.
const KEPT: usize = 32;

/// The pictures of recently stored entries, by entry id, oldest first out.
#[derive(Default)]
pub(super) struct Drawn {
    images: HashMap<u64, Vec<Image>>,
    order: VecDeque<u64>,
}

impl Drawn {
    fn keep(&mut self, id: u64, images: Vec<Image>) {
        if self.images.insert(id, images).is_none() {
            self.order.push_back(id);
        }
        while self.order.len() > KEPT {
            if let Some(old) = self.order.pop_front() {
                self.images.remove(&old);
            }
        }
    }

    fn take(&mut self, id: u64) -> Option<Vec<Image>> {
        let images = self.images.remove(&id)?;
        self.order.retain(|&k| k != id);
        Some(images)
    }
}

impl Staging {
    fn drawn(&self) -> std::sync::MutexGuard<'_, Drawn> {
        self.drawn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keeps the pictures of entries just stored under their ids, for their
    /// delivery. Entries without a scene to draw again need nothing kept:
    /// their bytes are stored.
    pub(crate) fn keep_drawn(&self, stored: impl IntoIterator<Item = (u64, NewEntry)>) {
        let mut drawn = self.drawn();
        for (id, new) in stored {
            if new.entry.scenes.iter().any(Option::is_some) {
                drawn.keep(id, new.images);
            }
        }
    }

    /// An entry's pictures, in order: those kept since its command, else the
    /// stored ones with the others drawn again from their scenes. A picture
    /// that cannot be read or drawn is logged and left out: the text of the
    /// message still says everything.
    pub(crate) async fn outbox_images(&self, entry: &OutboxEntry) -> Vec<Image> {
        if let Some(images) = self.drawn().take(entry.id) {
            return images;
        }
        let e = entry.clone();
        let mut pictures = match self.records.read(move |s| s.outbox_images(&e)).await {
            Ok(v) => v,
            Err(e) => {
                warn!(entry = entry.id, error = %e, "outbox pictures unreadable; sent without");
                Vec::new()
            }
        };
        let scenes: Vec<_> = (0..entry.images.len())
            .filter_map(|n| {
                let scene = entry.scene(n)?;
                Some((n, entry.images[n].clone(), Arc::new(scene.clone())))
            })
            .collect();
        if !scenes.is_empty() {
            pictures.extend(self.pictures.draw(scenes).await);
            pictures.sort_by_key(|(n, _)| *n);
        }
        pictures.into_iter().map(|(_, image)| image).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(n: u64) -> Vec<Image> {
        vec![Image::png(format!("{n}.png"), vec![n as u8])]
    }

    #[test]
    fn the_oldest_pictures_give_way_and_a_taken_one_is_gone() {
        let mut drawn = Drawn::default();
        for id in 1..=(KEPT as u64 + 2) {
            drawn.keep(id, image(id));
        }
        assert!(drawn.take(1).is_none() && drawn.take(2).is_none());
        assert_eq!(drawn.take(3), Some(image(3)));
        assert!(drawn.take(3).is_none());
        assert_eq!(drawn.images.len(), KEPT - 1);
        assert_eq!(drawn.order.len(), KEPT - 1);
    }
}
