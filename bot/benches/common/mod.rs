//! What the table benches share: a table on a fresh folder, as the console runs one.

use std::path::PathBuf;
use std::sync::Arc;
use tokar_bot::clock::VirtualClock;
use tokar_bot::storage::StoreSettings;
use tokar_bot::{ChannelRef, Request, Table, TableConfig, UserRef};

/// A table on an empty folder `tokar-<name>-<pid>` in the system's temp folder, with a
/// virtual clock and `--seed 1` (the same games on every run), on `storage`; with the
/// runtime that drives it and the folder.
pub fn open_table(name: &str, storage: StoreSettings) -> (PathBuf, tokio::runtime::Runtime, Table) {
    let dir = std::env::temp_dir().join(format!("tokar-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let clock = Arc::new(VirtualClock::open(&dir).unwrap());
    let table = rt
        .block_on(Table::open(TableConfig {
            data_dir: dir.clone(),
            storage,
            clock,
            seed: Some(1),
            robot: Default::default(),
        }))
        .unwrap();
    (dir, rt, table)
}

/// `user`'s command in the bench's channel, with its options.
pub fn request(user: UserRef, command: &str, options: &[(&str, String)]) -> Request {
    let pairs: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    Request {
        user,
        channel: ChannelRef::new(1, "bench"),
        command: tokar_bot::Command::parse(command, &pairs)
            .unwrap_or_else(|r| panic!("the bench's /{command} does not read: {r}")),
        interaction_token: None,
        manage_server: false,
    }
}
