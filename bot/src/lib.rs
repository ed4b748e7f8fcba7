//! # tokar-bot
//!
//! The table service ([`table`]), its sled storage ([`storage`], [`record`]),
//! the clock its schedule runs on ([`clock`]), the console adapter
//! ([`console`]) and the Discord adapter ([`discord`]), both calling the same
//! [`table::Table`].

pub mod backup;
pub mod check;
pub mod console;
pub mod discord;
pub mod migrate;
pub mod verify;

pub use tokar_store as storage;
pub use tokar_store::marker;
pub use tokar_table as table;
pub use tokar_table::metrics;

pub use tokar_model::{
    api, clock, command, duration, entropy, league, outbox, quote, rating, record, replay, scene,
    vacation,
};

pub use table::{
    Button, ChannelRef, Image, Reply, Request, Table, TableConfig, TableError, UserRef,
};
pub use tokar_model::{Command, Refusal};
