//! Leases (issue #21): one process at a time does a game's sweeps, the bot's
//! moves in it, and a channel's deliveries; a dead process's leases are taken
//! over once they run out. Checked on the store itself, with two owners
//! standing for two processes.

mod common;
use common::*;
use tokar_bot::storage::Lease;

const A: u64 = 0xa;
const B: u64 = 0xb;
const TTL: u64 = 1_000;

#[test]
fn a_lease_is_one_owners_until_it_runs_out_or_is_given_back() {
    let store = open_store(&fresh_dir("leases-owners"));
    let game = Lease::Game(7);
    assert!(store.take_lease(game, A, 100, TTL).unwrap());
    assert!(!store.take_lease(game, B, 200, TTL).unwrap(), "held by A");
    // Renewed by its holder.
    assert!(store.take_lease(game, A, 900, TTL).unwrap());
    assert_eq!(store.lease_holder(game).unwrap(), Some((A, 1_900)));
    assert!(!store.take_lease(game, B, 1_500, TTL).unwrap(), "renewed");
    // Run out: B takes it over.
    assert!(store.take_lease(game, B, 1_900, TTL).unwrap());
    assert!(!store.take_lease(game, A, 2_000, TTL).unwrap());
    // Given back only by its holder.
    store.drop_lease(game, A).unwrap();
    assert_eq!(store.lease_holder(game).unwrap(), Some((B, 2_900)));
    store.drop_lease(game, B).unwrap();
    assert_eq!(store.lease_holder(game).unwrap(), None);
    assert!(store.take_lease(game, A, 2_000, TTL).unwrap());
}

#[test]
fn leases_of_games_channels_and_direct_messages_are_apart() {
    let store = open_store(&fresh_dir("leases-apart"));
    assert!(store.take_lease(Lease::Game(5), A, 0, TTL).unwrap());
    assert!(store.take_lease(Lease::Lane(false, 5), B, 0, TTL).unwrap());
    assert!(store.take_lease(Lease::Lane(true, 5), A, 0, TTL).unwrap());
    assert!(store.take_lease(Lease::Game(6), B, 0, TTL).unwrap());
    assert!(!store.take_lease(Lease::Lane(false, 5), A, 10, TTL).unwrap());
}

#[test]
fn a_store_in_a_data_folder_is_not_shared() {
    // sled locks its folder to one process: the table takes no leases there.
    assert!(!open_store(&fresh_dir("leases-sled")).shared());
}
