//! The table service and its adapters.
