//! A fake Discord server for end-to-end tests of the real bot, and the harness that runs the
//! bot's real serenity client against it.

pub mod fake;
pub mod harness;
pub mod players;
