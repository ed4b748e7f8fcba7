//! # tokar-bot
//!
//! The table service ([`table`]), its sled storage ([`storage`], [`record`]),
//! the clock its schedule runs on ([`clock`]), the console adapter
//! ([`console`]) and the Discord adapter ([`discord`]), both calling the same
//! [`table::Table`].

pub mod backup;
pub mod check;
pub mod clock;
pub mod console;
pub mod discord;
pub mod duration;
pub mod entropy;
pub mod league;
pub mod marker;
pub mod metrics;
pub mod migrate;
pub mod outbox;
pub mod quote;
pub mod rating;
pub mod record;
pub mod scene;
pub mod storage;
pub mod table;
pub mod vacation;

pub use table::{
    Button, ChannelRef, Image, Reply, Request, Table, TableConfig, TableError, UserRef,
};
