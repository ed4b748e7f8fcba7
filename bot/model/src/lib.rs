//! # tokar-model
//!
//! The values the table works with and the rules of Tokar's own that are not
//! a game's: a game's record and its replay ([`record`], [`replay`]), the
//! types the adapters exchange with the table ([`api`]), outbox entries
//! ([`outbox`]), the scene a picture is drawn from ([`scene`]), ratings
//! ([`rating`]), leagues ([`league`]) and Swiss and knockout events
//! ([`event`]), vacations ([`vacation`]), clocks
//! and durations ([`clock`], [`duration`]) and where seeds come from
//! ([`entropy`]). It depends on the engine only: the store and the table
//! build on it, never the other way.

pub mod api;
pub mod clock;
pub mod command;
pub mod duration;
pub mod entropy;
pub mod event;
pub mod league;
pub mod outbox;
pub mod quote;
pub mod rating;
pub mod record;
pub mod replay;
pub mod scene;
pub mod vacation;

pub use api::{
    Button, ChannelRef, Image, Refusal, Reply, Request, ThreadRefusal, ThreadSupport, UserRef,
};
pub use command::Command;
