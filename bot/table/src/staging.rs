//! The outbox as the table keeps it: how adapters take its entries for
//! delivery, and the claims of interactions on them.
//!
//! One entry may be *claimed* by the interaction that ran the command: the
//! public announcement in the invoker's channel, which Discord can carry as
//! the interaction's first response (a first response notifies its mentions,
//! so the move costs one message). The claim is held in memory under the
//! interaction's token, which the entry also stores; entries of that channel
//! wait behind it until the adapter reports it delivered or releases the
//! claim. After a restart no claim is held, and the delivery worker first asks
//! Discord whether the interaction carried it.

use super::drawn::Drawn;
use super::leases::{Leases, LANE_LEASE_MS};
use super::pictures::Pictures;
use super::records::Records;
use super::{Reply, Res};
use std::collections::HashSet;
use std::sync::Arc;
use tokar_model::outbox::{NewEntry, OutboxEntry};
use tokar_store::{GameWrite, Lease};
use tracing::{error, warn};

/// The outbox's side of the table: the claims, the pictures of entries just
/// stored, and the signal that wakes the delivery worker.
pub(crate) struct Staging {
    pub(super) records: Arc<Records>,
    pub(super) pictures: Arc<Pictures>,
    leases: Arc<Leases>,
    /// The store's identity, drawn when it was created.
    identity: u64,
    /// Interactions that may still carry their command's announcement: the
    /// delivery worker leaves their entries alone.
    claims: std::sync::Mutex<HashSet<String>>,
    /// Pictures of entries just stored, for their delivery (see `drawn.rs`).
    pub(super) drawn: std::sync::Mutex<Drawn>,
    /// Woken when outbox entries are stored or released.
    ready: tokio::sync::Notify,
}

impl Staging {
    pub(crate) fn new(
        records: Arc<Records>,
        pictures: Arc<Pictures>,
        leases: Arc<Leases>,
        identity: u64,
    ) -> Staging {
        Staging {
            records,
            pictures,
            leases,
            identity,
            claims: Default::default(),
            drawn: Default::default(),
            ready: tokio::sync::Notify::new(),
        }
    }

    /// The store's identity (see [`tokar_store::Store::identity`]), read once at open: the
    /// delivery worker puts it in every nonce.
    pub(crate) fn store_identity(&self) -> u64 {
        self.identity
    }

    /// Stores a game's write with its outbox entries, flushed; returns the entries' ids.
    /// `token` is the interaction that may carry one of them: its claim is taken before
    /// the entry exists, so the worker can never pick the carried entry up before the
    /// adapter had its chance, and given up if the write fails.
    pub(crate) async fn commit(&self, token: Option<String>, write: GameWrite) -> Res<Vec<u64>> {
        if let Some(t) = &token {
            self.claims().insert(t.clone());
        }
        match self.records.blocking(move |s| s.commit(&write)).await {
            Ok(ids) => Ok(ids),
            Err(e) => {
                if let Some(t) = &token {
                    self.claims().remove(t);
                }
                Err(e)
            }
        }
    }

    /// Wakes the delivery worker: entries were stored or released.
    pub(crate) fn notify(&self) {
        self.ready.notify_one();
    }

    /// Entries waiting for delivery, oldest first, leaving out those an
    /// interaction still holds and, in each lane (a channel, or one user's direct
    /// messages), everything behind a held or not-yet-due entry: a lane is
    /// delivered in order. Entries that cannot be read are logged and left
    /// for the operator.
    pub(crate) async fn outbox_due(&self, limit: usize) -> Vec<OutboxEntry> {
        let now = self.records.now();
        let stored = match self.records.blocking(move |s| s.outbox(limit)).await {
            Ok(v) => v,
            Err(e) => {
                warn!(error = %e, "cannot read the outbox");
                return Vec::new();
            }
        };
        let held = self.claims().clone();
        let mut blocked = HashSet::new();
        let mut out = Vec::new();
        for e in stored {
            match e {
                Ok(e) => {
                    let lane = e.lane();
                    if blocked.contains(&lane) {
                        continue;
                    }
                    let claimed = e.carrier.as_ref().is_some_and(|c| held.contains(&c.token));
                    if claimed || e.not_before > now {
                        blocked.insert(lane);
                        continue;
                    }
                    // With a shared store, a lane is delivered by the process holding it.
                    if !self
                        .leases
                        .hold(Lease::Lane(lane.0, lane.1), LANE_LEASE_MS)
                        .await
                    {
                        blocked.insert(lane);
                        continue;
                    }
                    // Messages behind a thread's opening may be moved into it: the lane
                    // waits until the opening is reported.
                    if e.thread().is_some() {
                        blocked.insert(lane);
                    }
                    out.push(e);
                }
                Err((id, why)) => error!(entry = id, error = %why, "outbox entry unreadable"),
            }
        }
        out
    }

    /// The entry was accepted by its destination: it is removed, durably,
    /// with any entries that `then` replaces it by.
    /// Entries in `then` concern the same game as the one they replace.
    pub(crate) async fn outbox_delivered(&self, id: u64, then: Vec<Reply>) -> Res<()> {
        let now = self.records.now();
        let game = if then.is_empty() {
            None
        } else {
            self.records
                .blocking(move |s| s.outbox_entry(id))
                .await?
                .and_then(|e| e.game)
        };
        let entries: Vec<NewEntry> = then
            .iter()
            .map(|r| OutboxEntry::from_reply(r, game, now))
            .collect();
        self.records
            .blocking(move |s| s.outbox_done(id, &entries))
            .await?;
        Ok(())
    }

    /// Entries accepted by their destination, removed together, durably.
    pub(crate) async fn outbox_delivered_all(&self, ids: Vec<u64>) -> Res<()> {
        self.records
            .blocking(move |s| s.outbox_done_all(&ids))
            .await
    }

    /// Records a failed or partial delivery (attempts, parts sent, when to
    /// try again).
    pub(crate) async fn outbox_progress(&self, entry: OutboxEntry) -> Res<()> {
        self.records
            .blocking(move |s| s.outbox_update(&entry))
            .await
    }

    /// Stores entries that belong to no game change (notices about delivery
    /// itself), flushed.
    pub(crate) async fn outbox_enqueue(&self, replies: Vec<Reply>, game: Option<u64>) -> Res<()> {
        let now = self.records.now();
        let entries: Vec<NewEntry> = replies
            .iter()
            .map(|r| OutboxEntry::from_reply(r, game, now))
            .collect();
        self.records.blocking(move |s| s.enqueue(&entries)).await?;
        self.ready.notify_one();
        Ok(())
    }

    /// Ends an interaction's claim: what it did not carry (and report
    /// delivered) goes to the delivery worker.
    pub(crate) fn outbox_release(&self, interaction_token: &str) {
        if self.claims().remove(interaction_token) {
            self.ready.notify_one();
        }
    }

    pub(crate) fn claims(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.claims.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Resolves when entries were stored or released since the call.
    pub(crate) async fn outbox_wait(&self) {
        self.ready.notified().await;
    }

    /// How many entries wait for delivery.
    pub(crate) async fn outbox_len(&self) -> usize {
        self.records
            .blocking(|s| Ok(s.outbox_len()))
            .await
            .unwrap_or(0)
    }

    /// Every entry waiting, as replies (console delivery: printing is
    /// delivering).
    pub(crate) async fn outbox_replies(&self) -> Vec<Reply> {
        let mut out = Vec::new();
        for e in self.outbox_due(usize::MAX).await {
            let images = self.outbox_images(&e).await;
            out.push(e.to_reply(images));
        }
        out
    }
}
