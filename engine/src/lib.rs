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
//!
//! # A game through [`AnyGame`]
//!
//! The table holds every game as an [`AnyGame`], which speaks in the notation players
//! type. Creating a game, listing and playing an action, and the view of one seat:
//!
//! ```
//! use tokar_engine::{ActionError, AnyGame, GameKind, Options, Seat, Seed, Viewer};
//!
//! // A new game of Tokar's Arcana. The seed drives every die and shuffle, and who begins
//! // unless the players chose (`first:creator`: the creator, seat 0). A live game's key
//! // is 256 bits from the operating system; a fixed one replays the same game.
//! let mut options = Options::new();
//! options.insert("first".into(), "creator".into());
//! let mut game = AnyGame::setup(GameKind::Arcana, &options, Seed::ChaCha20([7; 32]))?;
//!
//! // Whose turn it is, and what they may play, as players write it.
//! assert_eq!(game.to_act(), vec![Seat(0)]);
//! assert!(game.legal_actions(Seat(0)).contains(&"e2-e3".to_string()));
//! assert!(game.legal_actions(Seat(1)).is_empty());
//!
//! // Playing one: the events say what happened, for the announcement and the
//! // picture's marks.
//! let events = game.play(Seat(0), "e2-e3")?;
//! assert!(events.iter().any(|event| !event.marks.is_empty()));
//! assert_eq!(game.to_act(), vec![Seat(1)]);
//!
//! // An action out of turn is refused with a reason for the player; nothing changes.
//! let refused = game.play(Seat(0), "e3-e4").unwrap_err();
//! assert!(matches!(refused, ActionError::NotYourTurn(_)));
//! assert_eq!(game.to_act(), vec![Seat(1)]);
//!
//! // What one seat may see: the only input of pictures and public text.
//! let view = game.view(Viewer::Seat(Seat(1)));
//! assert_eq!(view.viewer, Viewer::Seat(Seat(1)));
//! assert_eq!(view.to_act, vec![Seat(1)]);
//! assert_eq!(view.move_number, game.move_number());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
