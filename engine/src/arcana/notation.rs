//! Notation: how actions are written and read.
//!
//! | action | notation |
//! | --- | --- |
//! | move (a landing kill, the Alchemist's swapping walk) | `b1-c3` |
//! | kill without moving | `e2xe3` |
//! | move, then kill | `d1-d4xe5` |
//! | walk off the board (dies) | `a1-off` |
//! | Skeleton off the far edge, reappearing | `a1-off>d7` |
//! | lightning bolt | `bolt a1>a4` |
//! | firebrew (then a move) | `brew f1>e3`, `brew f1>e3 f1-c1` |
//! | move, then firebrew | `f1-c1 brew c1>e3` |
//! | vanquish (after a ride) | `vanquish e4`, `e4-e5 vanquish` |
//! | promotion, recall | `promote a8=blue-knight`, `recall a8>d2` |
//! | revival of a soldier | `revive a1>b2` (`=unit` when several kinds could be revived) |
//! | trade | `trade a7+b7=mummy` |
//! | Dark Priest | `wind d8>a7`, `explode d8>a8`, `smite d8` |
//! | pending decision | `place e4` (`place e4=mummy`), `decline` |
//! | no action possible | `pass` |

use super::action::Action;
use super::state::{Arcana, Pending, BOARD};
use super::unit::{Rank, Unit};
use crate::board::Cell;
use crate::error::ActionError;
use crate::seat::Seat;
use crate::spelling::did_you_mean;

fn n(c: Cell) -> String {
    BOARD.name(c)
}

fn syntax(msg: impl Into<String>) -> ActionError {
    ActionError::Syntax(msg.into())
}

fn cell(text: &str) -> Result<Cell, ActionError> {
    if text.is_empty() {
        return Err(syntax("A square is missing."));
    }
    BOARD.parse(text).ok_or_else(|| {
        syntax(format!(
            "Cannot read '{text}': there is no such square (a1 to h8)."
        ))
    })
}

/// `a>b`
fn pair(text: &str, sep: char) -> Result<(Cell, Cell), ActionError> {
    let (a, b) = text.split_once(sep).ok_or_else(|| {
        syntax(format!(
            "Expected two squares joined by '{sep}', as in e2{sep}e5."
        ))
    })?;
    Ok((cell(a)?, cell(b)?))
}

fn unit(text: &str) -> Result<Unit, ActionError> {
    Unit::parse(text).ok_or_else(|| {
        syntax(format!(
            "Cannot read the unit '{text}' (write its id, as in blue-knight).{}",
            did_you_mean(text, Unit::ALL.iter().map(|u| u.id()))
        ))
    })
}

/// `c` or `c=unit`
fn cell_unit(text: &str) -> Result<(Cell, Option<Unit>), ActionError> {
    match text.split_once('=') {
        None => Ok((cell(text)?, None)),
        Some((c, u)) => Ok((cell(c)?, Some(unit(u)?))),
    }
}

/// What a bare move token says.
enum Step {
    Move(Cell, Cell),
    Kill(Cell, Cell),
    MoveKill(Cell, Cell, Cell),
    Exit(Cell),
    Walk(Cell, Cell),
    KillMove(Cell, Cell, Cell),
}

fn step_token(t: &str) -> Result<Step, ActionError> {
    // The Vampire's kill before a move: `d1xe2-d2` (U7).
    if let Some((a, rest)) = t.split_once('x') {
        if let Some((b, c)) = rest.split_once('-') {
            if !a.contains('-') {
                if let Some((c, extra)) = c.split_once('-') {
                    return Err(too_many(t, &format!("{a}x{b}-{c}"), &format!("-{extra}")));
                }
                return Ok(Step::KillMove(cell(a)?, cell(b)?, cell(c)?));
            }
        }
    }
    if let Some((a, rest)) = t.split_once('-') {
        let from = cell(a)?;
        if rest == "off" {
            return Ok(Step::Exit(from));
        }
        if let Some(to) = rest.strip_prefix("off>") {
            return Ok(Step::Walk(from, cell(to)?));
        }
        if let Some((b, extra)) = rest.split_once('-') {
            return Err(too_many(t, &format!("{a}-{b}"), &format!("-{extra}")));
        }
        if let Some((b, c)) = rest.split_once('x') {
            return Ok(Step::MoveKill(from, cell(b)?, cell(c)?));
        }
        return Ok(Step::Move(from, cell(rest)?));
    }
    if let Some((a, b)) = t.split_once('x') {
        return Ok(Step::Kill(cell(a)?, cell(b)?));
    }
    Err(syntax(format!(
        "Cannot read '{t}': write a move as e2-e3, a kill as e2xe3, or an ability word (bolt, brew, vanquish, promote, recall, revive, trade, wind, explode, smite, place, decline, pass)."
    )))
}

/// A move written past its end (`b1-c3-d4`): which part is one too many.
fn too_many(token: &str, move_part: &str, extra: &str) -> ActionError {
    syntax(format!(
        "Cannot read '{token}': a move names two squares ({move_part}), so '{extra}' is one too many."
    ))
}

/// The length of the square name at the front of `s` (a letter and its
/// digits), if it starts with one.
fn square_at(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !b.first()?.is_ascii_lowercase() {
        return None;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    (digits > 0).then_some(1 + digits)
}

/// A token that is one square and nothing else.
fn is_square(token: &str) -> bool {
    square_at(token) == Some(token.len()) && BOARD.parse(token).is_some()
}

/// A token that is squares joined by `-` and nothing else (`e2`, `e2-e4`).
fn is_path(token: &str) -> bool {
    token.split('-').all(is_square)
}

/// Lower case, single spaces, and no spaces around the joining signs, so that
/// `E2 - E3` and `bolt a1 > a4` read like `e2-e3` and `bolt a1>a4`. The
/// compact forms players type read as the written notation (the rules
/// page's Notation section): two
/// squares run together or apart (`e2e4`, `e2 e4`) are a move `e2-e4`, and a
/// kill written apart (`e2 xe3`) is `e2xe3`.
fn tidy(text: &str) -> String {
    let mut s = text
        .trim()
        .to_ascii_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for op in ["-", ">", "+", "="] {
        s = s
            .replace(&format!(" {op}"), op)
            .replace(&format!("{op} "), op);
    }
    let s = s.replace(" x ", "x");
    let mut out: Vec<String> = Vec::new();
    for word in s.split(' ') {
        // `e2e4`, `d1d4xe5`: a square run into the next one.
        let word = match square_at(word) {
            Some(n) if square_at(&word[n..]).is_some() => format!("{}-{}", &word[..n], &word[n..]),
            _ => word.to_string(),
        };
        match out.last_mut() {
            Some(prev) if is_path(prev) && is_square(&word) => {
                prev.push('-');
                prev.push_str(&word);
            }
            Some(prev) if is_path(prev) && word.strip_prefix('x').is_some_and(is_square) => {
                prev.push_str(&word);
            }
            _ => out.push(word),
        }
    }
    out.join(" ")
}

impl Arcana {
    /// Writes an action in this position's notation.
    pub(crate) fn notation(&self, action: &Action) -> String {
        match *action {
            Action::Move { from, to } => format!("{}-{}", n(from), n(to)),
            Action::Kill { from, target } => format!("{}x{}", n(from), n(target)),
            Action::MoveKill { from, to, target } => {
                format!("{}-{}x{}", n(from), n(to), n(target))
            }
            Action::Exit { from } => format!("{}-off", n(from)),
            Action::Walk { from, to } => format!("{}-off>{}", n(from), n(to)),
            Action::Bolt { from, target } => format!("bolt {}>{}", n(from), n(target)),
            Action::Brew { from, target, then } => match then {
                None => format!("brew {}>{}", n(from), n(target)),
                Some(to) => format!("brew {}>{} {}-{}", n(from), n(target), n(from), n(to)),
            },
            Action::MoveBrew { from, to, target } => {
                format!("{}-{} brew {}>{}", n(from), n(to), n(to), n(target))
            }
            Action::Vanquish { from, to: None } => format!("vanquish {}", n(from)),
            Action::Vanquish { from, to: Some(to) } => {
                format!("{}-{} vanquish", n(from), n(to))
            }
            Action::Promote { soldier, unit } => format!("promote {}={}", n(soldier), unit.id()),
            Action::Recall { soldier, to } => format!("recall {}>{}", n(soldier), n(to)),
            Action::Revive { from, to, unit } => {
                let seat = self.at(from).map(|p| p.owner).unwrap_or(self.turn);
                if self.grave_units(seat, |r| r == Rank::Soldier).len() > 1 {
                    format!("revive {}>{}={}", n(from), n(to), unit.id())
                } else {
                    format!("revive {}>{}", n(from), n(to))
                }
            }
            Action::Trade {
                from: _,
                give,
                unit,
            } => {
                format!("trade {}+{}={}", n(give[0]), n(give[1]), unit.id())
            }
            Action::Wind { from, sacrifice } => format!("wind {}>{}", n(from), n(sacrifice)),
            Action::Explode { from, target } => format!("explode {}>{}", n(from), n(target)),
            Action::Smite { from } => format!("smite {}", n(from)),
            Action::Place { to, unit } => match (unit, self.recruit_choices().len() > 1) {
                (Some(u), true) => format!("place {}={}", n(to), u.id()),
                _ => format!("place {}", n(to)),
            },
            Action::Decline => "decline".into(),
            Action::Pass => "pass".into(),
            Action::Scare { from } => format!("scare {}", n(from)),
            Action::Control { from, target } => format!("control {}>{}", n(from), n(target)),
            Action::Swing { from } => format!("swing {}", n(from)),
            Action::KillMove { from, target, to } => {
                format!("{}x{}-{}", n(from), n(target), n(to))
            }
            Action::Enslave { from, to, unit } => {
                format!("enslave {}>{}={}", n(from), n(to), unit.id())
            }
            Action::BuryModel { cell } => format!("bury {}", n(cell)),
            Action::BuryDead { unit } => format!("bury {}", unit.id()),
        }
    }

    /// The unit kinds a pending recruit may raise.
    fn recruit_choices(&self) -> Vec<Unit> {
        match self.pending.front() {
            Some(p @ Pending::Recruit { .. }) => self.recruit_units(p),
            _ => Vec::new(),
        }
    }

    /// Reads an action; only syntax is checked here (and the unit is filled in
    /// where the text may leave it out).
    pub(crate) fn read(&self, seat: Seat, text: &str) -> Result<Action, ActionError> {
        let lower = tidy(text);
        let t: Vec<&str> = lower.split_whitespace().collect();
        if t.is_empty() {
            return Err(syntax("Write an action, as in e2-e3."));
        }
        let arity = |k: usize| -> Result<(), ActionError> {
            if t.len() == k {
                Ok(())
            } else {
                Err(syntax(format!(
                    "'{}' takes {} part(s) here; see the rules page for the notation.",
                    t[0], k
                )))
            }
        };
        let action = match t[0] {
            "pass" => {
                arity(1)?;
                Action::Pass
            }
            "decline" => {
                arity(1)?;
                Action::Decline
            }
            "place" => {
                arity(2)?;
                let (to, unit) = cell_unit(t[1])?;
                let unit = match (unit, self.pending.front()) {
                    (u, Some(Pending::Recruit { .. })) => match u {
                        Some(u) => Some(u),
                        None => {
                            let c = self.recruit_choices();
                            if c.len() == 1 {
                                Some(c[0])
                            } else {
                                return Err(syntax(format!(
                                    "Say which unit to raise: {}.",
                                    c.iter()
                                        .map(|u| format!("place {}={}", n(to), u.id()))
                                        .collect::<Vec<_>>()
                                        .join(" or ")
                                )));
                            }
                        }
                    },
                    (Some(_), _) => {
                        return Err(ActionError::Illegal(
                            "Only a Zombie's recruit names a unit when placing.".into(),
                        ))
                    }
                    (None, _) => None,
                };
                Action::Place { to, unit }
            }
            "bolt" => {
                arity(2)?;
                let (from, target) = pair(t[1], '>')?;
                Action::Bolt { from, target }
            }
            "brew" => {
                let (from, target) =
                    pair(t.get(1).ok_or_else(|| syntax("Write brew f1>e3."))?, '>')?;
                match t.len() {
                    2 => Action::Brew {
                        from,
                        target,
                        then: None,
                    },
                    3 => match step_token(t[2])? {
                        Step::Move(a, to) if a == from => Action::Brew {
                            from,
                            target,
                            then: Some(to),
                        },
                        _ => {
                            return Err(syntax(format!(
                                "After the throw, write the Alchemist's move from {}, as in {}-c1.",
                                n(from),
                                n(from)
                            )))
                        }
                    },
                    _ => return Err(syntax("Write brew f1>e3, or brew f1>e3 f1-c1.")),
                }
            }
            "vanquish" => {
                arity(2)?;
                Action::Vanquish {
                    from: cell(t[1])?,
                    to: None,
                }
            }
            "promote" => {
                arity(2)?;
                let (soldier, u) = cell_unit(t[1])?;
                let unit = u.ok_or_else(|| {
                    syntax(format!(
                        "Say which unit: promote {}=blue-knight.",
                        n(soldier)
                    ))
                })?;
                Action::Promote { soldier, unit }
            }
            "recall" => {
                arity(2)?;
                let (soldier, to) = pair(t[1], '>')?;
                Action::Recall { soldier, to }
            }
            "revive" => {
                arity(2)?;
                let (a, rest) = t[1]
                    .split_once('>')
                    .ok_or_else(|| syntax("Write revive a1>b2."))?;
                let from = cell(a)?;
                let (to, u) = cell_unit(rest)?;
                let unit = match u {
                    Some(u) => u,
                    None => {
                        let owner = self.at(from).map(|p| p.owner).unwrap_or(seat);
                        let c = self.grave_units(owner, |r| r == Rank::Soldier);
                        match c.len() {
                            1 => c[0],
                            0 => {
                                return Err(ActionError::Illegal(
                                    "There is no soldier class model in your graveyard to revive."
                                        .into(),
                                ))
                            }
                            _ => {
                                return Err(syntax(format!(
                                    "Say which unit: {}.",
                                    c.iter()
                                        .map(|u| format!("revive {}>{}={}", n(from), n(to), u.id()))
                                        .collect::<Vec<_>>()
                                        .join(" or ")
                                )))
                            }
                        }
                    }
                };
                Action::Revive { from, to, unit }
            }
            "trade" => {
                arity(2)?;
                let (cells, u) = t[1]
                    .split_once('=')
                    .ok_or_else(|| syntax("Write trade a7+b7=mummy."))?;
                let (a, b) = pair(cells, '+')?;
                let unit = unit(u)?;
                let from = self.general(seat).unwrap_or(Cell(0));
                let give = if a <= b { [a, b] } else { [b, a] };
                Action::Trade { from, give, unit }
            }
            "wind" => {
                arity(2)?;
                let (from, sacrifice) = pair(t[1], '>')?;
                Action::Wind { from, sacrifice }
            }
            "explode" => {
                arity(2)?;
                let (from, target) = pair(t[1], '>')?;
                Action::Explode { from, target }
            }
            "smite" => {
                arity(2)?;
                Action::Smite { from: cell(t[1])? }
            }
            "scare" => {
                arity(2)?;
                Action::Scare { from: cell(t[1])? }
            }
            "swing" => {
                arity(2)?;
                Action::Swing { from: cell(t[1])? }
            }
            "control" => {
                arity(2)?;
                let (from, target) = pair(t[1], '>')?;
                Action::Control { from, target }
            }
            "enslave" => {
                arity(2)?;
                let (a, rest) = t[1]
                    .split_once('>')
                    .ok_or_else(|| syntax("Write enslave e1>e2=blue-knight."))?;
                let (to, u) = cell_unit(rest)?;
                let unit = u.ok_or_else(|| {
                    syntax(format!(
                        "Say which unit: enslave {a}>{}=blue-knight.",
                        n(to)
                    ))
                })?;
                Action::Enslave {
                    from: cell(a)?,
                    to,
                    unit,
                }
            }
            "bury" => {
                arity(2)?;
                match BOARD.parse(t[1]) {
                    Some(c) => Action::BuryModel { cell: c },
                    None => Action::BuryDead { unit: unit(t[1])? },
                }
            }
            _ => {
                let first = step_token(t[0])?;
                match (first, t.len()) {
                    (Step::Move(from, to), 1) => Action::Move { from, to },
                    (Step::Kill(from, target), 1) => Action::Kill { from, target },
                    (Step::MoveKill(from, to, target), 1) => Action::MoveKill { from, to, target },
                    (Step::Exit(from), 1) => Action::Exit { from },
                    (Step::Walk(from, to), 1) => Action::Walk { from, to },
                    (Step::KillMove(from, target, to), 1) => Action::KillMove { from, target, to },
                    (Step::Move(from, to), 2) if t[1] == "vanquish" => {
                        Action::Vanquish { from, to: Some(to) }
                    }
                    (Step::Move(from, to), 3) if t[1] == "brew" => {
                        let (at, target) = pair(t[2], '>')?;
                        if at != to {
                            return Err(syntax(format!(
                                "The firebrew is thrown from where the Alchemist arrives: {}-{} brew {}>{}.",
                                n(from),
                                n(to),
                                n(to),
                                n(target)
                            )));
                        }
                        Action::MoveBrew { from, to, target }
                    }
                    _ => {
                        return Err(syntax(format!(
                            "Cannot read '{}': after a move only 'vanquish' or 'brew' may follow.",
                            text.trim()
                        )))
                    }
                }
            }
        };
        Ok(action)
    }
}
