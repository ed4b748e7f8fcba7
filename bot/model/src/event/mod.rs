//! Events beyond round-robin leagues: Swiss tournaments and knockouts, as
//! pure values and maths. Who plays whom in a Swiss round ([`swiss`], with
//! the colour rules in [`colour`]), the Swiss standings ([`standings`]), how
//! a game still open at a round's closing date is scored ([`adjudication`]),
//! and knockout brackets ([`knockout`]), and the record the store keeps of an
//! event ([`record`]). Nothing here reads a clock or a store: the table keeps
//! an event's record and hands its rounds to these functions. The rulings (E1, E2, ...) are in `docs/events.md`.

pub mod adjudication;
pub mod colour;
pub mod game;
pub mod knockout;
mod matching;
pub mod record;
pub mod standings;
pub mod swiss;

pub use game::{Board, Outcome, Round, Side};
pub use knockout::{Bracket, Match, Slot};
pub use record::{
    decode_event, EventGame, EventPhase, EventPlayer, EventRecord, EventStyle, Place,
};
pub use standings::{swiss_standings, SwissRow, SwissTieBreak};
pub use swiss::{pair_round, PairingError};
