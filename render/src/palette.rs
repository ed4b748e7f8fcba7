//! Colours. Seat colours come from one fixed palette so that a game only names
//! an index ([`tokar_engine::SeatView::colour`]); the palette is colour-blind safe
//! (ivory and charcoal for two-army games, then the Okabe-Ito colours).

/// An opaque colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// Seat colours by index; an index past the end wraps around.
pub const SEAT_PALETTE: [SeatColour; 9] = [
    SeatColour {
        name: "ivory",
        fill: Rgb(0xF6, 0xF2, 0xE6),
        outline: Rgb(0x1A, 0x1A, 0x1A),
    },
    SeatColour {
        name: "charcoal",
        fill: Rgb(0x2A, 0x2A, 0x2E),
        outline: Rgb(0xF2, 0xF2, 0xF2),
    },
    SeatColour {
        name: "orange",
        fill: Rgb(0xE6, 0x9F, 0x00),
        outline: Rgb(0x1A, 0x1A, 0x1A),
    },
    SeatColour {
        name: "sky blue",
        fill: Rgb(0x56, 0xB4, 0xE9),
        outline: Rgb(0x1A, 0x1A, 0x1A),
    },
    SeatColour {
        name: "bluish green",
        fill: Rgb(0x00, 0x9E, 0x73),
        outline: Rgb(0x10, 0x10, 0x10),
    },
    SeatColour {
        name: "yellow",
        fill: Rgb(0xF0, 0xE4, 0x42),
        outline: Rgb(0x1A, 0x1A, 0x1A),
    },
    SeatColour {
        name: "blue",
        fill: Rgb(0x00, 0x72, 0xB2),
        outline: Rgb(0xF2, 0xF2, 0xF2),
    },
    SeatColour {
        name: "vermillion",
        fill: Rgb(0xD5, 0x5E, 0x00),
        outline: Rgb(0x10, 0x10, 0x10),
    },
    SeatColour {
        name: "reddish purple",
        fill: Rgb(0xCC, 0x79, 0xA7),
        outline: Rgb(0x1A, 0x1A, 0x1A),
    },
];

/// The palette entry for a seat colour index.
pub fn seat_colour(index: u8) -> SeatColour {
    SEAT_PALETTE[index as usize % SEAT_PALETTE.len()]
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
