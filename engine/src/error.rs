//! The engine's error type: why an action was not taken.

use thiserror::Error;

/// Why an action typed by a player or chosen from a list was refused. The
/// message is a sentence a player understands; the game is left as it was.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The text is not an action at all ("Cannot read 'e9': there is no such square").
    #[error("{0}")]
    Syntax(String),
    /// A well-formed action the rules forbid now ("The Mummy on a1 is paralysed by the Mummy on b2").
    #[error("{0}")]
    Illegal(String),
    /// It is not this seat's decision now.
    #[error("{0}")]
    NotYourTurn(String),
    /// The game is over.
    #[error("The game is over.")]
    GameOver,
}

/// Why a game could not be set up with the options given.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{0}")]
pub struct SetupError(pub String);
