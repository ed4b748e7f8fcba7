//! Piece art: the game-icons.net SVGs embedded in the binary, rasterised with
//! resvg once per (unit, size) into a coverage mask and its dilated outline, then
//! tinted once per seat colour. Drawing a piece is one blit of a cached sprite.

use crate::canvas::Sprite;
use crate::palette::{self, SeatColour};
use crate::sketch::{AlphaMask, Sketch};
use resvg::{tiny_skia, usvg};
use rustc_hash::FxHashMap as HashMap;
use std::sync::{Arc, Mutex};

macro_rules! icons {
    ($($unit:literal),* $(,)?) => {
        /// Every unit id with its own icon, and the SVG it is drawn from.
        pub static ICONS: &[(&str, &[u8])] = &[
            $(($unit, include_bytes!(concat!("../../assets/icons/", $unit, ".svg")))),*
        ];
    };
}

icons![
    // Tokar's Arcana and Undead Arcana
    "imperial-warrior",
    "blue-knight",
    "wind-mage",
    "priest-of-the-winds",
    "alchemist",
    "duelist",
    "battle-mage",
    "skeleton",
    "zombie",
    "mummy",
    "tomb-keeper",
    "dark-priest",
    "necromancer",
    "ghoul",
    "ghost",
    "cultist",
    "wraith",
    "vampire",
    "lich",
    // Magic Chess
    "magic-king",
    "magic-wizard",
    "magic-fairy",
    "magic-frog",
    "magic-pawn",
    // Gladiator Chess
    "gladiator-king",
    "gladiator-queen",
    "mounted-knight",
    "footman",
    "champion",
    "warrior",
    "black-knight",
    "scout",
    "kings-knight",
    "squire",
    // Arachne
    "matron",
    "priestess",
    "arachne-wizard",
    "blademaster",
    "grunt",
];

/// The SVG for a unit id, if it has one.
pub fn icon_svg(unit: &str) -> Option<&'static [u8]> {
    ICONS.iter().find(|(u, _)| *u == unit).map(|(_, svg)| *svg)
}

/// A unit's silhouette at one size: the icon's coverage and its outline ring.
struct Shape {
    fill: AlphaMask,
    outline: AlphaMask,
}

type Tint = (u8, u8, u8, u8, u8, u8);
type ShapeCache = Mutex<HashMap<(String, u16), Option<Arc<Shape>>>>;
type SpriteMap = Mutex<HashMap<(String, u16, Tint), Option<Arc<Sprite>>>>;
type BadgeMap = Mutex<HashMap<String, Option<Arc<Sprite>>>>;

#[derive(Default)]
pub struct SpriteCache {
    shapes: ShapeCache,
    tinted: SpriteMap,
    /// Letter discs and status badges, drawn once per look (`key` says it all).
    badges: BadgeMap,
}

impl SpriteCache {
    /// The unit's icon, `size` pixels square, in `colour`; `None` when the unit has
    /// no icon (the caller draws a letter disc instead).
    pub fn piece(&self, unit: &str, size: u16, colour: SeatColour) -> Option<Arc<Sprite>> {
        let (f, o) = (colour.fill, colour.outline);
        let key = (unit.to_string(), size, (f.0, f.1, f.2, o.0, o.1, o.2));
        if let Some(s) = self
            .tinted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return s.clone();
        }
        let sprite = self
            .shape(unit, size)
            .and_then(|shape| tint(&shape, colour))
            .map(|sketch| Arc::new(sketch.to_sprite(palette::shared())));
        self.tinted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, sprite.clone());
        sprite
    }

    /// A small picture named by `key`, drawn in colour by `draw` the first time
    /// it is asked for and kept in palette indices.
    pub fn badge(&self, key: String, draw: impl FnOnce() -> Option<Sketch>) -> Option<Arc<Sprite>> {
        if let Some(s) = self
            .badges
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return s.clone();
        }
        let sprite = draw().map(|s| Arc::new(s.to_sprite(palette::shared())));
        self.badges
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, sprite.clone());
        sprite
    }

    fn shape(&self, unit: &str, size: u16) -> Option<Arc<Shape>> {
        let key = (unit.to_string(), size);
        if let Some(s) = self
            .shapes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return s.clone();
        }
        let shape = icon_svg(unit)
            .and_then(|svg| rasterise(svg, size))
            .map(Arc::new);
        self.shapes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, shape.clone());
        shape
    }
}

/// The icon's coverage at `size` pixels, leaving room for the outline, and the
/// outline as the coverage dilated by a disc.
fn rasterise(svg: &[u8], size: u16) -> Option<Shape> {
    let n = size.max(4) as u32;
    let tree = usvg::Tree::from_data(svg, &usvg::Options::default()).ok()?;
    let radius = (n as f32 / 30.0).max(1.0);
    let pad = radius.ceil() + 1.0;
    let inner = n as f32 - 2.0 * pad;
    let s = tree.size();
    let scale = inner / s.width().max(s.height());
    let mut pixmap = tiny_skia::Pixmap::new(n, n)?;
    let dx = pad + (inner - s.width() * scale) / 2.0;
    let dy = pad + (inner - s.height() * scale) / 2.0;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_row(scale, 0.0, 0.0, scale, dx, dy),
        &mut pixmap.as_mut(),
    );
    let fill: Vec<u8> = pixmap.data().chunks_exact(4).map(|p| p[3]).collect();
    if fill.iter().all(|&a| a == 0) {
        return None;
    }
    let outline = dilate(&fill, n, radius);
    Some(Shape {
        fill: AlphaMask {
            width: n,
            height: n,
            alpha: fill,
        },
        outline: AlphaMask {
            width: n,
            height: n,
            alpha: outline,
        },
    })
}

/// Maximum of `alpha` over a disc of `radius` around each pixel.
fn dilate(alpha: &[u8], n: u32, radius: f32) -> Vec<u8> {
    let r = radius.ceil() as i32;
    let offsets: Vec<(i32, i32)> = (-r..=r)
        .flat_map(|dy| (-r..=r).map(move |dx| (dx, dy)))
        .filter(|(dx, dy)| ((dx * dx + dy * dy) as f32) <= radius * radius + 0.5)
        .collect();
    let n = n as i32;
    let mut out = vec![0u8; alpha.len()];
    for y in 0..n {
        for x in 0..n {
            let mut m = 0u8;
            for &(dx, dy) in &offsets {
                let (sx, sy) = (x + dx, y + dy);
                if sx >= 0 && sy >= 0 && sx < n && sy < n {
                    m = m.max(alpha[(sy * n + sx) as usize]);
                    if m == 255 {
                        break;
                    }
                }
            }
            out[(y * n + x) as usize] = m;
        }
    }
    out
}

/// The silhouette filled with the seat's colour over its outline, premultiplied.
fn tint(shape: &Shape, colour: SeatColour) -> Option<Sketch> {
    let (f, o) = (colour.fill, colour.outline);
    let mut rgba = Vec::with_capacity(shape.fill.alpha.len() * 4);
    for (&af, &ao) in shape.fill.alpha.iter().zip(&shape.outline.alpha) {
        let af = af as f32 / 255.0;
        let ao = ao as f32 / 255.0 * (1.0 - af);
        let ch = |fc: u8, oc: u8| (fc as f32 * af + oc as f32 * ao).round().min(255.0) as u8;
        rgba.extend_from_slice(&[
            ch(f.0, o.0),
            ch(f.1, o.1),
            ch(f.2, o.2),
            ((af + ao) * 255.0).round().min(255.0) as u8,
        ]);
    }
    Sketch::from_premultiplied(shape.fill.width, shape.fill.height, rgba)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every unit id the games use, from the engine's catalog.
    fn units() -> Vec<&'static str> {
        tokar_engine::GameKind::ALL
            .into_iter()
            .flat_map(|kind| kind.unit_ids())
            .collect()
    }

    #[test]
    fn every_unit_has_an_icon_that_draws() {
        // A silhouette that fills less than a tenth of its square reads badly on a phone.
        let mut thin = Vec::new();
        for unit in units() {
            let svg = icon_svg(unit).unwrap_or_else(|| panic!("no icon for {unit}"));
            let shape =
                rasterise(svg, 64).unwrap_or_else(|| panic!("icon for {unit} draws nothing"));
            let covered = shape.fill.alpha.iter().filter(|&&a| a > 128).count();
            if covered <= 64 * 64 / 10 {
                thin.push(format!("{unit} ({covered} pixels)"));
            }
            assert!(shape.outline.alpha.iter().filter(|&&a| a > 128).count() > covered);
        }
        assert!(thin.is_empty(), "icons too thin: {}", thin.join(", "));
    }

    /// An icon no game uses is art nobody sees, or a unit renamed in the engine.
    #[test]
    fn every_icon_is_a_games_unit() {
        let units = units();
        for (unit, _) in ICONS {
            assert!(units.contains(unit), "the icon {unit} is no game's unit");
        }
    }

    #[test]
    fn every_icon_is_distinct() {
        for (i, (a, svg_a)) in ICONS.iter().enumerate() {
            for (b, svg_b) in &ICONS[i + 1..] {
                assert_ne!(svg_a, svg_b, "{a} and {b} share a picture");
            }
        }
    }

    #[test]
    fn unknown_units_have_no_sprite_and_sprites_are_cached() {
        let cache = SpriteCache::default();
        let colour = crate::palette::seat_colour(0);
        assert!(cache.piece("no-such-unit", 40, colour).is_none());
        let a = cache.piece("skeleton", 40, colour).expect("skeleton");
        let b = cache.piece("skeleton", 40, colour).expect("skeleton");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!((a.width, a.height), (40, 40));
    }
}
