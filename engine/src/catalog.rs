//! The list of games, their setup options, and [`AnyGame`]: one value that
//! holds a game of any kind and speaks in notation strings, for the table.
//!
//! A game joins the catalog by implementing [`Variant`] and adding one line to
//! the `catalog!` invocation below the macro.

use crate::error::{ActionError, SetupError};
use crate::event::Event;
use crate::game::Game;
use crate::rng::Seed;
use crate::seat::{Outcome, Seat, Viewer};
use crate::view::View;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// Setup options as the players gave them: `army` = `human`, and options given
/// by the player of one seat suffixed with it: `army.1` = `undead`.
pub type Options = BTreeMap<String, String>;

/// One option a game accepts at `/new` (or, when `per_seat`, at `/accept` and `/join`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub help: &'static str,
    /// The values a player picks from; empty means free text (checked by the game).
    pub choices: &'static [&'static str],
    /// Given by each player for their own seat(s) rather than once for the game.
    pub per_seat: bool,
}

/// What a game adds to [`Game`] to be listed in the catalog.
pub trait Variant: Game {
    const KIND: GameKind;

    /// How many players the rule text is written for: the seats a new game has when its
    /// creator does not say (`players:`) and invites no more people than that.
    const PLAYERS: usize = 2;

    /// The options `/new` (and `/accept`, `/join` for per-seat ones) accept.
    fn options() -> &'static [OptionSpec];

    /// Which seats each of `players` people holds, in joining order (the
    /// creator first); an error when the game cannot be played by that many.
    fn seating(players: usize) -> Result<Vec<Vec<Seat>>, SetupError>;

    /// The starting position. `seed` drives every die and shuffle of the game
    /// (and, where the players did not choose, who begins).
    fn setup(options: &Options, seed: impl Into<Seed>) -> Result<Self, SetupError>;

    /// The rules for people: an overview without a topic, or one unit's card.
    fn rules(topic: Option<&str>) -> Result<String, String>;

    /// The stable id of every unit the game has (`Glyph::unit`: the name of its icon,
    /// kept in stored pictures), in the game's own order.
    fn unit_ids() -> Vec<&'static str>;

    /// Checks one free-text option value (an option whose `choices` is
    /// empty) when a player gives it, so that a bad value is refused at once
    /// rather than when the game starts. By default every value passes.
    fn check_option(_name: &str, _value: &str) -> Result<(), String> {
        Ok(())
    }

    /// Marks the options of a game created now (not one rebuilt from a record)
    /// with what its rules need to tell it from games stored earlier, such
    /// as the edition of a game's rulings, and with the defaults that follow
    /// from how many `players` share its seats. By default nothing.
    fn stamp(_options: &mut Options, _players: usize) {}

    /// The values of a free-text option that are one word (Arcana's
    /// `human`, `undead`...), offered as "did you mean" when a value is
    /// refused. By default none.
    fn named_values(_name: &str) -> Vec<&'static str> {
        Vec::new()
    }
}

/// Reads option `name` for `seat`: the seat's own value first, then the game-wide one.
pub fn seat_option<'a>(options: &'a Options, name: &str, seat: Seat) -> Option<&'a str> {
    options
        .get(&format!("{name}.{}", seat.0))
        .or_else(|| options.get(name))
        .map(String::as_str)
}

macro_rules! catalog {
    ($($variant:ident => $ty:ty),* $(,)?) => {
        /// A game of any kind, speaking in notation strings.
        #[derive(Clone, Debug, Serialize, Deserialize)]
        #[serde(tag = "kind", content = "state")]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyGame {
            $($variant($ty),)*
        }

        macro_rules! dispatch {
            ($self:expr, $g:ident => $body:expr) => {
                match $self {
                    $(AnyGame::$variant($g) => $body,)*
                }
            };
        }

        impl AnyGame {
            /// Sets up a new game of `kind`.
            pub fn setup(
                kind: GameKind,
                options: &Options,
                seed: impl Into<Seed>,
            ) -> Result<AnyGame, SetupError> {
                let seed = seed.into();
                match kind {
                    $(GameKind::$variant => Ok(AnyGame::$variant(<$ty as Variant>::setup(options, seed)?)),)*
                    #[allow(unreachable_patterns)]
                    other => Err(SetupError(format!("{} cannot be played yet.", other.title()))),
                }
            }

            pub fn kind(&self) -> GameKind {
                dispatch!(self, g => kind_of(g))
            }
        }

        impl GameKind {
            /// Whether this build plays the game.
            pub fn available(self) -> bool {
                matches!(self, $(GameKind::$variant)|*)
            }

            /// How many players the rule text is written for ([`Variant::PLAYERS`]).
            pub fn players(self) -> usize {
                match self {
                    $(GameKind::$variant => <$ty as Variant>::PLAYERS,)*
                    #[allow(unreachable_patterns)]
                    _ => 2,
                }
            }

            pub fn options(self) -> &'static [OptionSpec] {
                match self {
                    $(GameKind::$variant => <$ty as Variant>::options(),)*
                    #[allow(unreachable_patterns)]
                    _ => &[],
                }
            }

            pub fn seating(self, players: usize) -> Result<Vec<Vec<Seat>>, SetupError> {
                match self {
                    $(GameKind::$variant => <$ty as Variant>::seating(players),)*
                    #[allow(unreachable_patterns)]
                    other => Err(SetupError(format!("{} cannot be played yet.", other.title()))),
                }
            }

            pub fn check_option(self, name: &str, value: &str) -> Result<(), String> {
                match self {
                    $(GameKind::$variant => <$ty as Variant>::check_option(name, value),)*
                    #[allow(unreachable_patterns)]
                    _ => Ok(()),
                }
            }

            /// Marks a new game's options ([`Variant::stamp`]).
            pub fn stamp(self, options: &mut Options, players: usize) {
                match self {
                    $(GameKind::$variant => <$ty as Variant>::stamp(options, players),)*
                    #[allow(unreachable_patterns)]
                    _ => {}
                }
            }

            /// [`Variant::named_values`].
            pub fn named_values(self, name: &str) -> Vec<&'static str> {
                match self {
                    $(GameKind::$variant => <$ty as Variant>::named_values(name),)*
                    #[allow(unreachable_patterns)]
                    _ => Vec::new(),
                }
            }

            /// [`Variant::unit_ids`].
            pub fn unit_ids(self) -> Vec<&'static str> {
                match self {
                    $(GameKind::$variant => <$ty as Variant>::unit_ids(),)*
                    #[allow(unreachable_patterns)]
                    _ => Vec::new(),
                }
            }

            pub fn rules(self, topic: Option<&str>) -> Result<String, String> {
                match self {
                    $(GameKind::$variant => <$ty as Variant>::rules(topic),)*
                    #[allow(unreachable_patterns)]
                    other => Err(format!("{} cannot be played yet.", other.title())),
                }
            }
        }
    };
}

// The invocation comes before the code that uses the `dispatch!` macro it defines.
catalog! {
    Arcana => crate::arcana::Arcana,
    MagicChess => crate::magic::MagicChess,
    Gladiator => crate::gladiator::Gladiator,
    Arachne => crate::arachne::Arachne,
}

/// The kind of a game value (used by `dispatch!`, which cannot name the type).
fn kind_of<V: Variant>(_: &V) -> GameKind {
    V::KIND
}

/// The games Tokar knows, by the name players type at `/new`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum GameKind {
    /// Tokar's Arcana and Undead Arcana: one family, the armies chosen per side.
    Arcana,
    MagicChess,
    Gladiator,
    Arachne,
}

impl GameKind {
    pub const ALL: [GameKind; 4] = [
        GameKind::Arcana,
        GameKind::MagicChess,
        GameKind::Gladiator,
        GameKind::Arachne,
    ];

    /// The name typed at `/new game:`.
    pub fn slug(self) -> &'static str {
        match self {
            GameKind::Arcana => "arcana",
            GameKind::MagicChess => "magic-chess",
            GameKind::Gladiator => "gladiator",
            GameKind::Arachne => "arachne",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            GameKind::Arcana => "Arcana",
            GameKind::MagicChess => "Magic Chess",
            GameKind::Gladiator => "Gladiator Chess",
            GameKind::Arachne => "Arachne",
        }
    }

    pub fn parse(text: &str) -> Option<GameKind> {
        let t = text.trim().to_ascii_lowercase();
        GameKind::ALL
            .into_iter()
            .find(|k| k.slug() == t || k.title().to_ascii_lowercase() == t)
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

impl AnyGame {
    pub fn seat_count(&self) -> usize {
        dispatch!(self, g => g.seat_count())
    }

    pub fn seat_name(&self, seat: Seat) -> String {
        dispatch!(self, g => g.seat_name(seat))
    }

    pub fn to_act(&self) -> Vec<Seat> {
        dispatch!(self, g => g.to_act())
    }

    /// The legal actions of `seat`, in notation.
    pub fn legal_actions(&self, seat: Seat) -> Vec<String> {
        dispatch!(self, g => g.legal_actions(seat).iter().map(|a| g.format(a)).collect())
    }

    /// Parses and plays one action typed by `seat`. On error nothing changed.
    pub fn play(&mut self, seat: Seat, text: &str) -> Result<Vec<Event>, ActionError> {
        dispatch!(self, g => {
            let action = g.parse(seat, text)?;
            g.play(seat, &action)
        })
    }

    /// The canonical notation of a typed action (how the log records it).
    pub fn normalize(&self, seat: Seat, text: &str) -> Result<String, ActionError> {
        dispatch!(self, g => g.parse(seat, text).map(|a| g.format(&a)))
    }

    pub fn outcome(&self) -> Outcome {
        dispatch!(self, g => g.outcome())
    }

    pub fn move_number(&self) -> u32 {
        dispatch!(self, g => g.move_number())
    }

    pub fn view(&self, viewer: Viewer) -> View {
        dispatch!(self, g => g.view(viewer))
    }

    pub fn concede(&mut self, seat: Seat) -> Vec<Event> {
        dispatch!(self, g => g.concede(seat))
    }

    pub fn skip(&mut self, seat: Seat) -> Result<Vec<Event>, ActionError> {
        dispatch!(self, g => g.skip(seat))
    }

    /// Replaces the game's chance from now on with `seed`, keeping the
    /// position: what chance already decided but nobody has been shown (Magic
    /// Chess's hands and draw pile, the dice of an Arachne turn not yet
    /// begun) is drawn again, and later dice and draws come from `seed`. The
    /// table calls it where a game created from a record leaves the record's
    /// actions, so that the record's maker, who knew its seed, knows nothing
    /// of what follows.
    pub fn reseed(&mut self, seed: impl Into<Seed>) {
        let seed = seed.into();
        dispatch!(self, g => g.reseed(seed))
    }

    /// Replaces the game's generator with one drawn from `seed`, changing nothing anyone has
    /// been shown: dice already thrown and hands already dealt stand; what nobody has seen
    /// (Magic Chess's draw pile) is shuffled again, and every later throw and shuffle comes
    /// from `seed`. The table gives a game begun with a SplitMix64 seed (record format 1) a
    /// ChaCha20 key this way at its next action (engine/rules/chance.md).
    pub fn rekey(&mut self, seed: impl Into<Seed>) {
        let seed = seed.into();
        dispatch!(self, g => g.rekey(seed))
    }

    /// Whether the game's chance to come is drawn from the strong generator (ChaCha20), or
    /// there is none (Arcana after its setup).
    pub fn chance_is_strong(&self) -> bool {
        dispatch!(self, g => g.chance_is_strong())
    }

    /// The computer opponent's choice for `seat` (see [`crate::search::choose`]):
    /// the action's notation and one line on why, or `None` when `seat` has
    /// nothing to decide. Only what `seat` may see is used.
    pub fn suggest(
        &self,
        seat: Seat,
        level: crate::search::Level,
        budget: &crate::search::Budget,
        seed: u64,
    ) -> Option<(String, String)> {
        crate::search::choose_any(self, seat, level, budget, seed).map(|c| (c.notation, c.why))
    }
}
