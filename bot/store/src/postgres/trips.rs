//! Round trips to the server, counted: how many times a caller waited for
//! the server's answer, and how many statements went out. A test bounds the
//! round trips of one `/play`, and the `/play` bench prints them per call.
//!
//! A round trip is one wait, however many statements it pipelines. Preparing a
//! statement is a wait of its own the first time a connection sends it
//! (deadpool keeps it prepared for the connection's life), counted apart as
//! a preparation: a warm connection makes none.
//! Taking a connection from the pool is not counted: it is local, except when
//! the pool opens a new connection.

use std::sync::atomic::{AtomicU64, Ordering};

/// The counts of a store since it was opened (see the module).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trips {
    /// Waits for the server's answer.
    pub round_trips: u64,
    /// Statements sent (`BEGIN` and `COMMIT` included).
    pub statements: u64,
    /// Statements prepared on a connection that had not sent them yet (each
    /// a wait too, once per connection).
    pub prepares: u64,
}

impl std::ops::Sub for Trips {
    type Output = Trips;
    fn sub(self, earlier: Trips) -> Trips {
        Trips {
            round_trips: self.round_trips - earlier.round_trips,
            statements: self.statements - earlier.statements,
            prepares: self.prepares - earlier.prepares,
        }
    }
}

/// The live counters, shared with the calls' futures.
#[derive(Debug, Default)]
pub(super) struct Counter {
    round_trips: AtomicU64,
    statements: AtomicU64,
    prepares: AtomicU64,
}

impl Counter {
    /// One wait for the server's answer to `statements` statements.
    pub(super) fn trip(&self, statements: u64) {
        self.round_trips.fetch_add(1, Ordering::Relaxed);
        self.statements.fetch_add(statements, Ordering::Relaxed);
    }

    pub(super) fn now(&self) -> Trips {
        Trips {
            round_trips: self.round_trips.load(Ordering::Relaxed),
            statements: self.statements.load(Ordering::Relaxed),
            prepares: self.prepares.load(Ordering::Relaxed),
        }
    }
}

/// `sql` prepared on the connection `client`, counting the round trip when
/// the connection had not prepared it yet.
pub(super) async fn prepared(
    client: &deadpool_postgres::Object,
    sql: &'static str,
    count: &Counter,
) -> Result<tokio_postgres::Statement, tokio_postgres::Error> {
    let before = client.statement_cache.size();
    let statement = client.prepare_cached(sql).await?;
    if client.statement_cache.size() > before {
        count.prepares.fetch_add(1, Ordering::Relaxed);
    }
    Ok(statement)
}
