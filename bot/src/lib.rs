//! # tokar-bot
//!
//! The table service ([`table`]), its sled storage ([`storage`], [`record`]),
//! the clock its schedule runs on ([`clock`]), and the console adapter
//! ([`console`]). The Discord adapter calls the same [`table::Table`].

pub mod clock;
pub mod console;
pub mod duration;
pub mod record;
pub mod storage;
pub mod table;

pub use table::{
    Button, ChannelRef, Image, Reply, Request, Table, TableConfig, TableError, UserRef,
};
