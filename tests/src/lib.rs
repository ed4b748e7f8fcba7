//! A fake Discord server for end-to-end tests of the real bot.
