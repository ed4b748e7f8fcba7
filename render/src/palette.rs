//! Colours. Seat colours come from one fixed palette so that a game only names
//! an index ([`tokar_engine::SeatView::colour`]); the palette is colour-blind safe
//! (ivory and charcoal for two-army games, then the Okabe-Ito colours).

/// An opaque colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// Relative brightness, 0..=1, used to pick a contrasting outline or text colour.
    pub fn luma(self) -> f32 {
        (0.2126 * self.0 as f32 + 0.7152 * self.1 as f32 + 0.0722 * self.2 as f32) / 255.0
    }

    /// Black-ish or white-ish, whichever reads better on top of `self`.
    pub fn contrast(self) -> Rgb {
        if self.luma() > 0.5 {
            INK
        } else {
            PAPER
        }
    }

    /// `self` mixed with `other`, `t` = 0 gives `self`, 1 gives `other`.
    pub fn mix(self, other: Rgb, t: f32) -> Rgb {
        let m = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t).round() as u8;
        Rgb(m(self.0, other.0), m(self.1, other.1), m(self.2, other.2))
    }
}

/// One entry of the seat palette.
#[derive(Clone, Copy, Debug)]
pub struct SeatColour {
    pub name: &'static str,
    pub fill: Rgb,
    /// The outline drawn around pieces of this colour (dark on light fills and the reverse).
    pub outline: Rgb,
}

const DARK_LINE: Rgb = Rgb(0x1A, 0x1A, 0x1A);
const LIGHT_LINE: Rgb = Rgb(0xF2, 0xF2, 0xF2);

const fn sc(name: &'static str, fill: Rgb, outline: Rgb) -> SeatColour {
    SeatColour {
        name,
        fill,
        outline,
    }
}

/// Seat colours by index; an index past the end wraps around. A seat whose
/// name starts with a colour word is drawn in [`NAMED_COLOURS`] instead.
pub const SEAT_PALETTE: [SeatColour; 9] = [
    sc("ivory", Rgb(0xF6, 0xF2, 0xE6), DARK_LINE),
    sc("charcoal", Rgb(0x2A, 0x2A, 0x2E), LIGHT_LINE),
    sc("orange", Rgb(0xE6, 0x9F, 0x00), DARK_LINE),
    sc("sky blue", Rgb(0x56, 0xB4, 0xE9), DARK_LINE),
    sc("bluish green", Rgb(0x00, 0x9E, 0x73), Rgb(0x10, 0x10, 0x10)),
    sc("yellow", Rgb(0xF0, 0xE4, 0x42), DARK_LINE),
    sc("blue", Rgb(0x00, 0x72, 0xB2), LIGHT_LINE),
    sc("vermillion", Rgb(0xD5, 0x5E, 0x00), Rgb(0x10, 0x10, 0x10)),
    sc("reddish purple", Rgb(0xCC, 0x79, 0xA7), DARK_LINE),
];

/// Seats named after a colour ("Red", "White King") are drawn in it. The four
/// Magic Chess colours differ in lightness as well as hue (yellow lightest,
/// then green, blue, red), and every piece also carries its letter badge.
pub const NAMED_COLOURS: [SeatColour; 6] = [
    sc("white", Rgb(0xF6, 0xF2, 0xE6), DARK_LINE),
    sc("black", Rgb(0x2A, 0x2A, 0x2E), LIGHT_LINE),
    sc("red", Rgb(0xD0, 0x21, 0x2A), LIGHT_LINE),
    sc("blue", Rgb(0x1F, 0x5F, 0xD0), LIGHT_LINE),
    sc("yellow", Rgb(0xF5, 0xCE, 0x1A), DARK_LINE),
    sc("green", Rgb(0x2E, 0xA0, 0x4E), DARK_LINE),
];

/// The palette entry for a seat colour index.
pub fn seat_colour(index: u8) -> SeatColour {
    SEAT_PALETTE[index as usize % SEAT_PALETTE.len()]
}

/// The colour named by the first word of a seat's name, if any.
pub fn named_colour(seat_name: &str) -> Option<SeatColour> {
    let first = seat_name.split_whitespace().next()?.to_ascii_lowercase();
    NAMED_COLOURS.iter().copied().find(|c| c.name == first)
}

/// Each seat's colour: the colour its name says when every seat's name says
/// one and seats of different teams (colour indexes) get different colours;
/// otherwise the palette entry of its index.
pub fn seat_colours(view: &tokar_engine::View) -> Vec<SeatColour> {
    let named: Option<Vec<SeatColour>> = view.seats.iter().map(|s| named_colour(&s.name)).collect();
    if let Some(named) = named {
        let consistent = view.seats.iter().zip(&named).all(|(a, ca)| {
            view.seats
                .iter()
                .zip(&named)
                .all(|(b, cb)| (a.colour == b.colour) == (ca.name == cb.name))
        });
        if consistent {
            return named;
        }
    }
    view.seats.iter().map(|s| seat_colour(s.colour)).collect()
}

/// Text and lines.
pub const INK: Rgb = Rgb(0x1E, 0x1E, 0x22);
/// Light text on dark fills.
pub const PAPER: Rgb = Rgb(0xFA, 0xFA, 0xF7);
/// What an eliminated seat's pieces fade toward.
pub const FADED: Rgb = Rgb(0x9A, 0x96, 0x90);
/// The picture's background.
pub const BACKGROUND: Rgb = Rgb(0xF3, 0xEE, 0xE3);
/// Secondary text (notes, coordinates).
pub const MUTED: Rgb = Rgb(0x5C, 0x57, 0x50);
pub const LIGHT_SQUARE: Rgb = Rgb(0xEC, 0xD9, 0xB4);
pub const DARK_SQUARE: Rgb = Rgb(0xB5, 0x88, 0x63);
/// The web's strands.
pub const STRAND: Rgb = Rgb(0x7A, 0x66, 0x52);
/// A web cell.
pub const WEB_CELL: Rgb = Rgb(0xEC, 0xD9, 0xB4);

/// Last action: where a piece started and ended (a translucent wash).
pub const MOVE_WASH: Rgb = Rgb(0xF5, 0xD0, 0x2A);
/// Last action: a kill or capture.
pub const HIT: Rgb = Rgb(0xC8, 0x3C, 0x00);
/// Last action: a piece pushed, frozen, paralysed...
pub const AFFECTED: Rgb = Rgb(0x00, 0x5A, 0xA0);
/// Last action: a piece that appeared.
pub const PLACED: Rgb = Rgb(0x00, 0x7E, 0x5C);
/// The piece asked about.
pub const SELECTED: Rgb = Rgb(0x1F, 0x8F, 0xD8);

/// A web's hub cell.
pub const HUB_CELL: Rgb = Rgb(0xD5, 0xBC, 0x98);
/// A King or General in check.
pub const CHECK: Rgb = Rgb(0xE0, 0x10, 0x60);
/// Hit-point bars: over half, over a quarter, below.
pub const HP_HIGH: Rgb = Rgb(0x1E, 0x7B, 0x4F);
pub const HP_MID: Rgb = Rgb(0xA8, 0x6C, 0x00);
pub const HP_LOW: Rgb = Rgb(0xB0, 0x2A, 0x1E);

/// The badge of a piece under enemy control.
pub const CONTROLLED: Rgb = Rgb(0x6A, 0x3D, 0x9A);

/// Coverage levels of a prepared pixel: 0 transparent, [`OPAQUE`] covers,
/// the levels between are blended with what is under them through a table
/// made at start-up.
pub const LEVELS: u8 = 8;
pub const OPAQUE: u8 = LEVELS;

/// A shade between two colours (an anti-aliased edge's) is left out of the
/// palette when an entry already lies within this RGB distance, and drawn as
/// that entry. Fewer distinct entries make the PNG smaller: the 8x8 picture is
/// 51.2 KB with every shade and 49.4 KB without those within 16, under its
/// 50 KB target (12 would be just enough; 16 leaves a margin).
/// Key colours are all kept.
const SHADE_MERGE: u32 = 16;

/// Most colours a PNG palette holds.
const MAX_COLOURS: usize = 256;

/// The picture's palette: at most 256 colours, fixed at start-up, and the
/// tables that map any colour, or a blend of two entries, to an entry.
pub struct Palette {
    colours: Vec<Rgb>,
    /// `blend[((src * (LEVELS - 1)) + level - 1) * 256 + dst]`: `src` over `dst` at
    /// coverage `level / LEVELS`.
    blend: Vec<u8>,
    nearest: std::sync::Mutex<rustc_hash::FxHashMap<Rgb, u8>>,
}

/// The colours a picture is made of, before the shades between them.
fn key_colours() -> Vec<Rgb> {
    let mut keys = vec![
        BACKGROUND,
        INK,
        PAPER,
        MUTED,
        FADED,
        LIGHT_SQUARE,
        DARK_SQUARE,
        STRAND,
        WEB_CELL,
        HUB_CELL,
        HIT,
        AFFECTED,
        PLACED,
        SELECTED,
        CHECK,
        HP_HIGH,
        HP_MID,
        HP_LOW,
        DARK_LINE,
        LIGHT_LINE,
        CONTROLLED,
    ];
    for ground in [LIGHT_SQUARE, DARK_SQUARE, WEB_CELL, HUB_CELL] {
        keys.push(ground.mix(MOVE_WASH, 0.25));
        keys.push(ground.mix(MOVE_WASH, 0.625));
        keys.push(ground.mix(INK, 0.375));
        keys.push(ground.mix(CHECK, 0.375));
    }
    for c in NAMED_COLOURS.iter().chain(&SEAT_PALETTE) {
        keys.push(c.fill);
        keys.push(c.outline);
        keys.push(c.fill.mix(FADED, 0.6));
        keys.push(c.outline.mix(FADED, 0.5));
    }
    for c in NAMED_COLOURS
        .iter()
        .take(2)
        .chain(SEAT_PALETTE.iter().take(2))
    {
        keys.push(WEB_CELL.mix(c.fill, 0.5));
        keys.push(c.fill.mix(INK, 0.45));
    }
    keys
}

/// Pairs of colours that meet at anti-aliased edges, and how many shades to
/// put between them.
fn ramps() -> Vec<(Rgb, Rgb, usize)> {
    let mut r = Vec::new();
    for ink in [INK, MUTED, HIT] {
        r.push((ink, BACKGROUND, 5));
    }
    r.push((INK, PAPER, 5));
    r.push((MUTED, WEB_CELL, 2));
    r.push((STRAND, BACKGROUND, 2));
    r.push((STRAND, WEB_CELL, 2));
    for c in NAMED_COLOURS.iter().chain(SEAT_PALETTE.iter().skip(2)) {
        r.push((c.fill, c.outline, 3));
        r.push((c.fill, c.fill.contrast(), 2));
    }
    for line in [DARK_LINE, LIGHT_LINE] {
        for ground in [
            LIGHT_SQUARE,
            DARK_SQUARE,
            WEB_CELL,
            BACKGROUND,
            LIGHT_SQUARE.mix(MOVE_WASH, 0.625),
            DARK_SQUARE.mix(MOVE_WASH, 0.625),
        ] {
            r.push((line, ground, 2));
        }
    }
    for mark in [HIT, AFFECTED, PLACED, SELECTED, CHECK] {
        for ground in [LIGHT_SQUARE, DARK_SQUARE, WEB_CELL] {
            r.push((mark, ground, 1));
        }
    }
    r.push((CONTROLLED, CONTROLLED.contrast(), 2));
    for hp in [HP_HIGH, HP_MID, HP_LOW] {
        r.push((hp, PAPER, 2));
    }
    r
}

fn distance(a: Rgb, b: Rgb) -> u32 {
    let d = |x: u8, y: u8| (x as i32 - y as i32).pow(2) as u32;
    2 * d(a.0, b.0) + 4 * d(a.1, b.1) + 3 * d(a.2, b.2)
}

/// The square of the plain RGB distance between two colours.
fn rgb_distance_sq(a: Rgb, b: Rgb) -> u32 {
    let d = |x: u8, y: u8| (x as i32 - y as i32).pow(2) as u32;
    d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)
}

impl Palette {
    pub fn new() -> Palette {
        let mut colours: Vec<Rgb> = Vec::with_capacity(MAX_COLOURS);
        let add = |c: Rgb, colours: &mut Vec<Rgb>, near: u32| {
            if colours.len() < MAX_COLOURS
                && colours
                    .iter()
                    .all(|&e| distance(e, c) > 27 && rgb_distance_sq(e, c) > near * near)
            {
                colours.push(c);
            }
        };
        for c in key_colours() {
            add(c, &mut colours, 0);
        }
        for (a, b, n) in ramps() {
            for k in 1..=n {
                add(
                    a.mix(b, k as f32 / (n + 1) as f32),
                    &mut colours,
                    SHADE_MERGE,
                );
            }
        }
        // Dark to light: neighbouring shades get neighbouring indices, which
        // leaves the PNG row filters smaller differences to code.
        colours.sort_by(|a, b| a.luma().total_cmp(&b.luma()));
        let nearest_of = |c: Rgb| -> u8 {
            let mut best = (u32::MAX, 0u8);
            for (i, &e) in colours.iter().enumerate() {
                let d = distance(c, e);
                if d < best.0 {
                    best = (d, i as u8);
                }
            }
            best.1
        };
        // Nearest entry for each colour on a 32x32x32 grid (5 bits a channel),
        // for the blend table.
        let level = |v: usize| ((v << 3) | (v >> 2)) as u8;
        let mut cube = vec![0u8; 32 * 32 * 32];
        for (i, slot) in cube.iter_mut().enumerate() {
            *slot = nearest_of(Rgb(level(i >> 10), level((i >> 5) & 31), level(i & 31)));
        }
        let n = colours.len();
        let partial = (LEVELS - 1) as usize;
        let mut blend = vec![0u8; n * partial * 256];
        for (src, &s) in colours.iter().enumerate() {
            for l in 1..LEVELS {
                let t = l as f32 / LEVELS as f32;
                let row = &mut blend[(src * partial + l as usize - 1) * 256..][..256];
                for (dst, slot) in row.iter_mut().enumerate() {
                    let d = colours.get(dst).copied().unwrap_or(s);
                    let m = d.mix(s, t);
                    *slot = cube[cube_index(m)];
                }
            }
        }
        Palette {
            colours,
            blend,
            nearest: std::sync::Mutex::new(rustc_hash::FxHashMap::default()),
        }
    }

    #[cfg(test)]
    pub fn colours(&self) -> &[Rgb] {
        &self.colours
    }

    /// The PLTE chunk's bytes.
    pub fn plte(&self) -> Vec<u8> {
        self.colours.iter().flat_map(|c| [c.0, c.1, c.2]).collect()
    }

    /// The entries of a colour picture's RGBA pixels, row by row: for what is
    /// drawn once in colour (a board, a table picture) and kept as indices.
    /// A picture has few distinct colours, so each is looked up once.
    pub fn indices_of_rgba(&self, rgba: &[u8]) -> Vec<u8> {
        let mut memo: rustc_hash::FxHashMap<[u8; 3], u8> = rustc_hash::FxHashMap::default();
        rgba.chunks_exact(4)
            .map(|p| {
                *memo
                    .entry([p[0], p[1], p[2]])
                    .or_insert_with(|| self.index(Rgb(p[0], p[1], p[2])))
            })
            .collect()
    }

    /// The entry closest to `c` (exactly, not through the grid).
    pub fn index(&self, c: Rgb) -> u8 {
        let mut memo = self.nearest.lock().unwrap_or_else(|e| e.into_inner());
        *memo.entry(c).or_insert_with(|| {
            let mut best = (u32::MAX, 0u8);
            for (i, &e) in self.colours.iter().enumerate() {
                let d = distance(c, e);
                if d < best.0 {
                    best = (d, i as u8);
                }
            }
            best.1
        })
    }

    /// `src` at coverage `level / LEVELS` over `dst`.
    #[inline]
    pub fn blend(&self, src: u8, level: u8, dst: u8) -> u8 {
        let partial = (LEVELS - 1) as usize;
        self.blend[(src as usize * partial + level as usize - 1) * 256 + dst as usize]
    }
}

fn cube_index(c: Rgb) -> usize {
    let q = |v: u8| ((v as usize * 31 + 127) / 255).min(31);
    (q(c.0) << 10) | (q(c.1) << 5) | q(c.2)
}

impl Default for Palette {
    fn default() -> Self {
        Palette::new()
    }
}

/// The palette every renderer shares, made the first time it is needed.
pub fn shared() -> &'static Palette {
    static PALETTE: std::sync::OnceLock<Palette> = std::sync::OnceLock::new();
    PALETTE.get_or_init(Palette::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_fits_a_png_and_holds_every_key_colour() {
        let p = shared();
        assert!(p.colours().len() <= 256, "{} colours", p.colours().len());
        for c in key_colours() {
            let e = p.colours()[p.index(c) as usize];
            assert!(distance(c, e) <= 27, "{c:?} drawn as {e:?}");
        }
    }

    #[test]
    fn no_shade_lies_within_the_merge_distance_of_another_entry() {
        let p = shared();
        let keys = key_colours();
        for &a in p.colours().iter().filter(|c| !keys.contains(c)) {
            for &b in p.colours().iter().filter(|&&b| b != a) {
                assert!(
                    rgb_distance_sq(a, b) > SHADE_MERGE * SHADE_MERGE,
                    "{a:?} and {b:?}"
                );
            }
        }
    }

    #[test]
    fn blends_land_between_their_colours() {
        let p = shared();
        let (ink, bg) = (p.index(INK), p.index(BACKGROUND));
        let half = p.colours()[p.blend(ink, LEVELS / 2, bg) as usize];
        assert!(half.luma() > INK.luma() + 0.2 && half.luma() < BACKGROUND.luma() - 0.2);
        assert_eq!(p.blend(ink, LEVELS - 1, ink), ink);
    }
}
