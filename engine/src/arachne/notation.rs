//! Notation: `e3-e2`, `g5-g2 xg1`, `e3 xe2`, `f3-f2=w`, `e5-d5-c5-c4 xb4`,
//! `turncoat d4-d2 xd1`, `end`, `pass`. Case and spaces are free; `e3xe2`
//! reads as `e3 xe2`; promotions take a letter or a name (`=w`, `=wizard`).
//! The spaces of a path may be run together or written apart (`e3e2`, `e3
//! e2`, `e5 d5 c5 c4 xb4`, `c1hub`): a space's name is a spoke letter and
//! its ring's digits, or `hub`, so the path splits one way only.

use super::{Action, Arachne, Kind};
use crate::board::{Cell, HUB_NAME};
use crate::error::ActionError;

const HELP: &str = "Type a move such as e3-e2, a capture such as g5-g2 xg1 or e3 xe2, a Wizard's jump such as e5-d5-c5-c4, or end.";

impl Arachne {
    pub(crate) fn format_action(&self, action: &Action) -> String {
        let n = |c: Cell| self.name(c);
        let tc = |t: bool| if t { "turncoat " } else { "" };
        let cap = |c: Option<Cell>| c.map(|c| format!(" x{}", n(c))).unwrap_or_default();
        let pro = |k: Option<Kind>| {
            k.map(|k| format!("={}", k.letter().to_ascii_lowercase()))
                .unwrap_or_default()
        };
        match *action {
            Action::Move {
                turncoat,
                from,
                to,
                capture,
                promote,
            } => format!(
                "{}{}-{}{}{}",
                tc(turncoat),
                n(from),
                n(to),
                cap(capture),
                pro(promote)
            ),
            Action::Jump {
                turncoat,
                from,
                to,
                capture,
            } => {
                let path = match self.jump_path(from, to) {
                    Some(p) => p.iter().map(|&c| n(c)).collect::<Vec<_>>().join("-"),
                    None => format!("{}-{}", n(from), n(to)),
                };
                format!("{}{path}{}", tc(turncoat), cap(capture))
            }
            Action::Strike {
                turncoat,
                from,
                target,
                promote,
            } => format!("{}{} x{}{}", tc(turncoat), n(from), n(target), pro(promote)),
            Action::Again { from, to, capture } => format!("{}-{}{}", n(from), n(to), cap(capture)),
            Action::End => "end".into(),
            Action::Pass => "pass".into(),
        }
    }

    /// The spaces of a path written as one word (`e3`, `e3-e2`, or run
    /// together: `e3e2`, `c1hub`), if every part is a space of the web.
    fn spaces_of(&self, word: &str) -> Option<Vec<Cell>> {
        let mut out = Vec::new();
        for part in word.split('-') {
            let mut rest = part;
            if rest.is_empty() {
                return None;
            }
            while !rest.is_empty() {
                let len = if rest.starts_with(HUB_NAME) {
                    HUB_NAME.len()
                } else {
                    let b = rest.as_bytes();
                    if !b[0].is_ascii_lowercase() {
                        return None;
                    }
                    1 + b[1..].iter().take_while(|c| c.is_ascii_digit()).count()
                };
                out.push(self.setup.board.parse(&rest[..len])?);
                rest = &rest[len..];
            }
        }
        Some(out)
    }

    /// A path word as written notation: spaces run together (`e3e2`,
    /// `e5d5c5c4`) are joined by `-`; a word that is not spaces of the web
    /// is kept as typed, for the refusal to name.
    fn unpack(&self, word: &str) -> String {
        match self.spaces_of(word) {
            Some(cells) => cells
                .iter()
                .map(|&c| self.name(c))
                .collect::<Vec<_>>()
                .join("-"),
            None => word.to_string(),
        }
    }

    fn read_cell(&self, text: &str) -> Result<Cell, ActionError> {
        self.setup.board.parse(text).ok_or_else(|| {
            ActionError::Syntax(format!(
                "'{text}' is not a space on the web (a spoke letter a-{} and a ring 1-{}, like c3, or hub).",
                (b'a' + self.spokes() - 1) as char,
                self.rings()
            ))
        })
    }

    fn spokes(&self) -> u8 {
        match self.setup.board.shape() {
            crate::board::Shape::Web { spokes, .. } => spokes,
            _ => 0,
        }
    }

    fn rings(&self) -> u8 {
        match self.setup.board.shape() {
            crate::board::Shape::Web { rings, .. } => rings,
            _ => 0,
        }
    }

    /// Reads an action's shape; legality is checked by the caller.
    pub(crate) fn read_action(&self, text: &str) -> Result<Action, ActionError> {
        let mut t = text.trim().to_ascii_lowercase();
        // "e3 - e2" reads as "e3-e2".
        while t.contains(" -") || t.contains("- ") {
            t = t.replace(" -", "-").replace("- ", "-");
        }
        if t.is_empty() {
            return Err(ActionError::Syntax(HELP.into()));
        }
        // The promotion suffix.
        let (body, promote) = match t.find('=') {
            None => (t.as_str(), None),
            Some(i) => {
                let word = t[i + 1..].trim();
                let kind = if word.chars().count() == 1 {
                    Kind::from_letter(word.chars().next().unwrap_or(' '))
                } else {
                    Kind::ALL
                        .into_iter()
                        .find(|k| k.name().eq_ignore_ascii_case(word))
                };
                match kind {
                    Some(k) => (&t[..i], Some(k)),
                    None => {
                        return Err(ActionError::Syntax(format!(
                            "'={word}' promotes to nothing: use =p (Priestess), =w (Wizard) or =b (Blademaster)."
                        )))
                    }
                }
            }
        };
        let mut words: Vec<&str> = body.split_whitespace().collect();
        if words.len() == 1 && promote.is_none() {
            match words[0] {
                "end" => return Ok(Action::End),
                "pass" => return Ok(Action::Pass),
                _ => {}
            }
        }
        let mut turncoat = false;
        while let Some(&w) = words.first() {
            match w {
                "turncoat" | "tc" => turncoat = true,
                "wiz" | "wizard" => {}
                _ => break,
            }
            words.remove(0);
        }
        // Split "e3xe2" into the path and the capture.
        let mut path_text: Option<String> = None;
        let mut capture_text: Option<&str> = None;
        let mut expect_target = false;
        for w in words {
            if expect_target {
                if capture_text.is_some() {
                    return Err(ActionError::Syntax(HELP.into()));
                }
                capture_text = Some(w);
                expect_target = false;
            } else if w == "x" {
                expect_target = true;
            } else if let Some(rest) = w.strip_prefix('x') {
                if capture_text.is_some() {
                    return Err(ActionError::Syntax(
                        "An action captures at most one piece.".into(),
                    ));
                }
                capture_text = Some(rest);
            } else if path_text.is_none() {
                match w.find('x') {
                    Some(i) if self.spokes() < 24 => {
                        path_text = Some(self.unpack(&w[..i]));
                        capture_text = Some(&w[i + 1..]);
                    }
                    _ => path_text = Some(self.unpack(w)),
                }
            } else if let (Some(path), None) = (path_text.as_mut(), capture_text) {
                // "e3 e2", "e5 d5 c5 c4": the spaces of a path written apart.
                if self.spaces_of(w).is_none() {
                    return Err(ActionError::Syntax(HELP.into()));
                }
                path.push('-');
                path.push_str(&self.unpack(w));
            } else {
                return Err(ActionError::Syntax(HELP.into()));
            }
        }
        if expect_target {
            return Err(ActionError::Syntax(
                "Name the space to capture after the x (e.g. xg1).".into(),
            ));
        }
        let Some(path_text) = path_text else {
            return Err(ActionError::Syntax(HELP.into()));
        };
        let path_text = path_text.as_str();
        let path = path_text
            .split('-')
            .map(|c| self.read_cell(c))
            .collect::<Result<Vec<Cell>, _>>()?;
        let capture = capture_text.map(|c| self.read_cell(c)).transpose()?;
        let pending = self.pending.is_some();
        match path.len() {
            1 => match capture {
                Some(target) => Ok(Action::Strike {
                    turncoat,
                    from: path[0],
                    target,
                    promote,
                }),
                None => Err(ActionError::Syntax(format!(
                    "'{path_text}' alone is no action: add -space to move or x space to capture."
                ))),
            },
            2 if pending => {
                if promote.is_some() {
                    return Err(ActionError::Illegal("Only a Grunt is promoted.".into()));
                }
                Ok(Action::Again {
                    from: path[0],
                    to: path[1],
                    capture,
                })
            }
            2 => Ok(Action::Move {
                turncoat,
                from: path[0],
                to: path[1],
                capture,
                promote,
            }),
            4 => {
                if promote.is_some() {
                    return Err(ActionError::Illegal("Only a Grunt is promoted.".into()));
                }
                if !self.is_jump_path(&path) {
                    return Err(ActionError::Illegal(format!(
                        "{path_text} is not three connected steps that visit no space twice."
                    )));
                }
                Ok(Action::Jump {
                    turncoat,
                    from: path[0],
                    to: path[3],
                    capture,
                })
            }
            n => {
                let names: Vec<&str> = path_text.split('-').collect();
                let why = if n == 3 {
                    format!(
                        "three spaces are neither a move ({}-{}, without -{}) nor a Wizard's three-space move, which names all four spaces (e5-d5-c5-c4)",
                        names[0], names[1], names[2]
                    )
                } else {
                    format!(
                        "a move names where it starts and ends (e3-e2), a Wizard's three-space move its four spaces (e5-d5-c5-c4), so '-{}' is too many",
                        names[4..].join("-")
                    )
                };
                Err(ActionError::Syntax(format!(
                    "Cannot read '{path_text}': {why}."
                )))
            }
        }
    }
}
