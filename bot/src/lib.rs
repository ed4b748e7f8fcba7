//! The table service and its adapters.
pub mod discord;
