//! What a picture of a position is drawn from: the renderer's whole input, a
//! view and what to draw on it. An outbox entry stores its game pictures as
//! scenes (a few kilobytes) rather than as PNG bytes (forty and more): the
//! picture is drawn once for the command's own answer, and drawn again from
//! its scene only when the stored entry itself is delivered, after a restart
//! or by the Discord delivery worker.
//!
//! A scene is stored, so its serialized form is a stored format: the engine's
//! [`View`] as serde writes it, with the fields below. The fixture
//! `bot/tests/fixtures/outbox-2.json` holds one, and a test draws it.

use serde::{Deserialize, Serialize};
use tokar_engine::{Cell, Mark, Seat, View};

/// A position and what to draw on it, enough to draw its picture again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scene {
    pub view: View,
    /// The last action's cells.
    #[serde(default)]
    pub marks: Vec<(Cell, Mark)>,
    /// Legal targets of the piece asked about.
    #[serde(default)]
    pub targets: Vec<Cell>,
    /// The piece asked about.
    #[serde(default)]
    pub selected: Option<Cell>,
    /// The seat whose side the board is drawn from (ruling T37).
    #[serde(default)]
    pub side: Option<Seat>,
    /// The line under the header (the time left on the move), as written
    /// when the picture was first drawn: a picture shows its moment.
    #[serde(default)]
    pub clock: Option<String>,
}
