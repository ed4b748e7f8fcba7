//! Hand-set Arcana positions for the rules tests: a position from a list of models, and
//! playing, refusing and listing actions in it.

use tokar_engine::arcana::{Arcana, BOARD};
use tokar_engine::{ActionError, Cell, Event, Game};

pub fn c(name: &str) -> Cell {
    BOARD.parse(name).unwrap()
}

/// A position from a list of models, `Le1 nd8 Gd4` (letter, square; upper
/// case seat 0, lower case seat 1), then the side to move, graveyards and
/// `ua:01` as in [`Arcana::from_text`].
pub fn board(models: &str, tail: &str) -> Arcana {
    let mut grid = [['.'; 8]; 8];
    for m in models.split_whitespace() {
        let letter = m.chars().next().unwrap();
        let (f, r) = BOARD.coords(c(&m[1..]));
        grid[r as usize][f as usize] = letter;
    }
    let rows: Vec<String> = (0..8)
        .rev()
        .map(|r| {
            let mut row = String::new();
            let mut gap = 0;
            for &sq in &grid[r] {
                if sq == '.' {
                    gap += 1;
                } else {
                    if gap > 0 {
                        row.push_str(&gap.to_string());
                        gap = 0;
                    }
                    row.push(sq);
                }
            }
            if gap > 0 {
                row.push_str(&gap.to_string());
            }
            row
        })
        .collect();
    pos(&format!("{} {tail}", rows.join("/")))
}

/// A position in [`Arcana::from_text`]'s notation; panics if it does not read.
pub fn pos(text: &str) -> Arcana {
    Arcana::from_text(text).unwrap_or_else(|e| panic!("bad position '{text}': {e}"))
}

/// Plays `text` for the seat the game waits for; panics if refused.
pub fn play(g: &mut Arcana, text: &str) -> Vec<Event> {
    let seat = g.to_act()[0];
    let action = g
        .parse(seat, text)
        .unwrap_or_else(|e| panic!("'{text}' refused: {e}\n{}", g.to_text()));
    g.play(seat, &action).unwrap()
}

/// The refusal of `text` for the seat to act; checks the game did not change.
pub fn refuse(g: &mut Arcana, text: &str) -> ActionError {
    let seat = g.to_act()[0];
    let before = g.clone();
    let err = g.parse(seat, text).expect_err(text);
    assert_eq!(*g, before, "a refusal changes nothing");
    err
}

/// The reason a rule gives for refusing `text`.
pub fn illegal(g: &mut Arcana, text: &str) -> String {
    match refuse(g, text) {
        ActionError::Illegal(m) => m,
        e => panic!("'{text}': expected a rule refusal, got {e:?}"),
    }
}

/// The actions of the seat to act, in notation.
pub fn legal(g: &Arcana) -> Vec<String> {
    let seat = g.to_act()[0];
    g.legal_actions(seat).iter().map(|a| g.format(a)).collect()
}

pub fn has(g: &Arcana, text: &str) -> bool {
    legal(g).iter().any(|a| a == text)
}
