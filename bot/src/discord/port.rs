//! The table service's API as the Discord adapter uses it.
//!
//! The table service is written alongside this adapter; until it is on main this module holds
//! the agreed API shapes so the adapter compiles and can be exercised end to end. `Table` wraps
//! any [`TableBackend`]. When the table lands, this file is replaced by a re-export of it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A boxed future, as the backend trait returns them.
pub type BoxFut<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Who sent a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRef {
    pub id: u64,
    pub name: String,
}

/// Where a command was sent, and where a reply goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChannelRef {
    pub id: u64,
    pub name: String,
}

/// One command as the table runs it.
#[derive(Clone, Debug)]
pub struct Request {
    pub user: UserRef,
    pub channel: ChannelRef,
    pub command: String,
    pub options: Vec<(String, String)>,
}

/// One message the table wants shown.
#[derive(Clone, Debug)]
pub struct Reply {
    pub channel: ChannelRef,
    pub ephemeral_to: Option<UserRef>,
    pub content: String,
    pub mentions: Vec<UserRef>,
    pub images: Vec<Image>,
    pub buttons: Vec<Button>,
    pub ok: bool,
}

/// A picture attached to a reply.
#[derive(Clone, Debug)]
pub struct Image {
    pub name: String,
    pub png: Vec<u8>,
}

/// A button under a reply; a click comes back as command "button".
#[derive(Clone, Debug)]
pub struct Button {
    pub custom_id: String,
    pub label: String,
}

/// What the table does, as a trait so a stand-in can serve until the table lands.
pub trait TableBackend: Send + Sync + 'static {
    fn handle(&self, req: Request) -> BoxFut<'_, Vec<Reply>>;
    fn autocomplete<'a>(
        &'a self,
        user: &'a UserRef,
        channel: &'a ChannelRef,
        option: &'a str,
        typed: &'a str,
        game: Option<u64>,
    ) -> BoxFut<'a, Vec<(String, String)>>;
    fn tick(&self) -> BoxFut<'_, Vec<Reply>>;
}

/// Handle on the table service (cheap to clone).
#[derive(Clone)]
pub struct Table(Arc<dyn TableBackend>);

impl Table {
    pub fn new(backend: impl TableBackend) -> Self {
        Self(Arc::new(backend))
    }
    pub async fn handle(&self, req: Request) -> Vec<Reply> {
        self.0.handle(req).await
    }
    pub async fn autocomplete(
        &self,
        user: &UserRef,
        channel: &ChannelRef,
        option: &str,
        typed: &str,
        game: Option<u64>,
    ) -> Vec<(String, String)> {
        self.0
            .autocomplete(user, channel, option, typed, game)
            .await
    }
    pub async fn tick(&self) -> Vec<Reply> {
        self.0.tick().await
    }
}
