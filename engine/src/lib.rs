//! # tokar-engine
//!
//! The rules of Tokar's games as a pure library: no I/O, no async, no Discord,
//! no storage, no images. Every game implements [`Game`] on the shared core:
//!
//! * [`board`]: grids of any size and spider webs, with named cells and directions;
//! * [`seat`]: seats, viewers and outcomes;
//! * [`rng`]: the seeded dice and shuffles kept inside a game's state;
//! * [`event`]: what an action did, for announcements and highlights;
//! * [`view`]: what one viewer may see, the only input of pictures and public text;
//! * [`error`]: why an action was refused;
//! * [`catalog`]: the list of games and [`AnyGame`];
//! * [`search`]: the computer opponent, for every game;
//! * [`spelling`]: "did you mean" for a misspelt name.
//!
//! The games: [`arcana`] (Tokar's Arcana and the Arcana family), [`magic`]
//! (Magic Chess), [`gladiator`] (Gladiator Chess), [`arachne`] (Arachne).

pub mod arachne;
pub mod arcana;
pub mod board;
pub mod catalog;
pub mod error;
pub mod event;
pub mod game;
pub mod gladiator;
pub mod magic;
pub mod rng;
pub mod search;
pub mod seat;
pub mod spelling;
pub mod view;

pub use board::{Board, Cell, Dir, Shape};
pub use catalog::{AnyGame, GameKind, OptionSpec, Options, Variant};
pub use error::{ActionError, SetupError};
pub use event::{Event, Mark, Secret};
pub use game::Game;
pub use rng::{Rng, Seed};
pub use seat::{Outcome, Seat, Viewer};
pub use view::{Glyph, PieceView, Roll, RollRole, SeatView, StatusKind, StatusView, View};
