//! /moves as a person reads it: one line a piece (where it may go, then what else it may do),
//! the actions no piece of one's own makes (a spell card, a placement, `pass`) grouped by their
//! word, and pages that each fit one Discord message. Nothing is ever left out: a list longer
//! than a message says which page it is and how to see the rest (ruling T15 in docs/rulings.md).

use tokar_engine::{Cell, View};

/// The longest message Discord takes, in characters.
const MESSAGE_LIMIT: usize = 2000;

/// Room kept on a page for its first line ("Game #12") and the line on the other pages.
const PAGE_ROOM: usize = MESSAGE_LIMIT - 260;

/// One seat's actions to list.
pub struct SeatActions {
    pub name: String,
    pub actions: Vec<String>,
}

/// What an action is listed under: the square of the piece of the acting side that it names
/// first, or else its first word.
#[derive(PartialEq, Eq)]
enum Key {
    Piece(Cell),
    Word(String),
}

fn key_of(view: &View, seat_colour: Option<u8>, action: &str) -> Key {
    let own = |c: Cell| {
        view.pieces
            .iter()
            .any(|p| p.cell == c && view.seats.get(p.seat.index()).map(|s| s.colour) == seat_colour)
    };
    let starts_with_word = action
        .split(|c: char| c.is_whitespace() || c == ':')
        .next()
        .is_some_and(|w| view.board.parse(w).is_none() && !w.is_empty());
    if let Some(&c) = view.board.cells_named(action).first() {
        if own(c) || !starts_with_word {
            return Key::Piece(c);
        }
    }
    let word = action
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap_or(action);
    Key::Word(word.to_string())
}

/// The lines of one seat's list: a heading, then one line a piece or word.
fn seat_lines(view: &View, seat: &SeatActions, colour: Option<u8>) -> Vec<String> {
    let mut groups: Vec<(Key, Vec<&str>)> = Vec::new();
    for a in &seat.actions {
        let k = key_of(view, colour, a);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, list)) => list.push(a),
            None => groups.push((k, vec![a])),
        }
    }
    let pieces = groups
        .iter()
        .filter(|(k, _)| matches!(k, Key::Piece(_)))
        .count();
    let mut lines = vec![format!(
        "{} ({} action{}{}):",
        seat.name,
        seat.actions.len(),
        if seat.actions.len() == 1 { "" } else { "s" },
        match pieces {
            0 => String::new(),
            1 => ", 1 piece".into(),
            n => format!(", {n} pieces"),
        }
    )];
    for (key, list) in groups {
        lines.extend(match key {
            Key::Piece(c) => piece_lines(view, c, &list),
            Key::Word(w) => {
                let rest: Vec<&str> = list
                    .iter()
                    .map(|a| a.strip_prefix(w.as_str()).unwrap_or(a).trim())
                    .filter(|r| !r.is_empty())
                    .collect();
                emit(&w, &[(("", ""), rest)])
            }
        });
    }
    lines
}

/// "b1 Blue Knight: to a3, c3; also b1xc2, bolt b1>b4".
fn piece_lines(view: &View, c: Cell, actions: &[&str]) -> Vec<String> {
    let square = view.board.name(c);
    let name = view
        .pieces
        .iter()
        .find(|p| p.cell == c)
        .map(|p| format!(" {}", p.glyph.name))
        .unwrap_or_default();
    let prefix = format!("{square}-");
    let mut to = Vec::new();
    let mut other = Vec::new();
    for a in actions {
        match a.strip_prefix(&prefix) {
            Some(dest) if view.board.parse(dest).is_some() => to.push(dest),
            _ => other.push(*a),
        }
    }
    emit(
        &format!("{square}{name}"),
        &[(("to ", "to "), to), (("", "also "), other)],
    )
}

/// `head: items`, in groups each introduced by its label (the first for a group that begins
/// a line, the second for one that follows another on it). A line that would not fit a page
/// goes on in another line under the same head: never cut in the middle of an action.
fn emit(head: &str, groups: &[((&str, &str), Vec<&str>)]) -> Vec<String> {
    let room = PAGE_ROOM.saturating_sub(head.chars().count() + 2);
    let mut out = Vec::new();
    let mut body = String::new();
    for ((first, after), items) in groups {
        let mut started = false;
        for item in items {
            let mut add = if started {
                format!(", {item}")
            } else if body.is_empty() {
                format!("{first}{item}")
            } else {
                format!("; {after}{item}")
            };
            if !body.is_empty() && body.chars().count() + add.chars().count() > room {
                out.push(format!("{head}: {body}"));
                body.clear();
                add = format!("{first}{item}");
            }
            body.push_str(&add);
            started = true;
        }
    }
    if !body.is_empty() {
        out.push(format!("{head}: {body}"));
    } else if out.is_empty() {
        out.push(head.to_string());
    }
    out
}

/// The pages of a list: lines packed in order, each page at most [`PAGE_ROOM`] characters.
pub fn pages(view: &View, seats: &[SeatActions], colours: &[Option<u8>]) -> Vec<Vec<String>> {
    let mut lines = Vec::new();
    for (s, colour) in seats.iter().zip(colours) {
        lines.extend(seat_lines(view, s, *colour));
    }
    let mut pages: Vec<Vec<String>> = Vec::new();
    let mut size = 0;
    for l in lines {
        let len = l.chars().count() + 1;
        match pages.last_mut() {
            Some(p) if size + len <= PAGE_ROOM => {
                p.push(l);
                size += len;
            }
            _ => {
                size = len;
                pages.push(vec![l]);
            }
        }
    }
    pages
}

/// The line under a page of several: where it stands and how to see the rest (`square`: the
/// square the list is for, which the next page's command repeats).
pub fn page_footer(page: usize, count: usize, square: Option<&str>) -> Option<String> {
    (count > 1).then(|| {
        let sq = square.map(|s| format!(" {s}")).unwrap_or_default();
        let next = if page < count {
            format!(" /moves{sq} page:{} shows the next;", page + 1)
        } else {
            format!(" /moves{sq} page:1 shows the first again;")
        };
        format!("Page {page} of {count}.{next} /moves <square> shows all of one piece's actions.")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokar_engine::catalog::{AnyGame, GameKind, Options};
    use tokar_engine::Viewer;

    /// Ruling T15: a list far longer than a message comes in pages that each fit one, in
    /// order, with every action on exactly one of them and each piece's line whole where it
    /// fits a page.
    #[test]
    fn a_long_list_comes_in_pages_that_fit_a_message() {
        let game = AnyGame::setup(GameKind::Gladiator, &Options::new(), 1).unwrap();
        let view = game.view(Viewer::Spectator);
        let board = view.board;
        // Every piece of White's King "may go" to every square: thousands of actions.
        let white = view.seats[0].colour;
        let mut actions = Vec::new();
        for p in view
            .pieces
            .iter()
            .filter(|p| view.seats[p.seat.index()].colour == white)
        {
            for to in board.cells().filter(|&c| c != p.cell) {
                actions.push(format!("{}-{}", board.name(p.cell), board.name(to)));
            }
        }
        let seats = [SeatActions {
            name: "White King".into(),
            actions: actions.clone(),
        }];
        let pages = pages(&view, &seats, &[Some(white)]);
        assert!(pages.len() > 3, "{} pages", pages.len());
        let mut seen = 0;
        for (i, p) in pages.iter().enumerate() {
            let footer = page_footer(i + 1, pages.len(), None).unwrap();
            let message = format!("Game #12345\n{}\n{footer}", p.join("\n"));
            assert!(message.chars().count() <= MESSAGE_LIMIT, "page {}", i + 1);
            seen += p.iter().map(|l| l.matches(", ").count() + 1).sum::<usize>();
        }
        // Each destination once (the heading and the wrapped lines' joins aside).
        assert!(seen >= actions.len(), "{seen} of {}", actions.len());
        assert!(page_footer(1, 3, None).unwrap().contains("/moves page:2"));
        assert!(page_footer(2, 3, Some("e4"))
            .unwrap()
            .contains("/moves e4 page:3"));
        assert!(page_footer(1, 1, None).is_none());
    }

    #[test]
    fn actions_group_under_the_piece_that_makes_them() {
        let game = AnyGame::setup(GameKind::MagicChess, &Options::new(), 1).unwrap();
        let view = game.view(Viewer::Spectator);
        let seat = game.to_act()[0];
        let colour = view.seats[seat.index()].colour;
        let mine = view
            .pieces
            .iter()
            .find(|p| p.seat == seat)
            .expect("a piece");
        let enemy = view
            .pieces
            .iter()
            .find(|p| view.seats[p.seat.index()].colour != colour)
            .expect("an enemy");
        let (m, e) = (view.board.name(mine.cell), view.board.name(enemy.cell));
        let actions = vec![
            format!("{m}-{e}"),
            format!("freeze {e}"),
            format!("slow {e}"),
            "pass".to_string(),
        ];
        let seats = [SeatActions {
            name: "Red".into(),
            actions,
        }];
        let lines = pages(&view, &seats, &[Some(colour)]).concat();
        assert_eq!(lines[0], "Red (4 actions, 1 piece):");
        assert_eq!(lines[1], format!("{m} {}: to {e}", mine.glyph.name));
        assert_eq!(lines[2], format!("freeze: {e}"));
        assert_eq!(lines[3], format!("slow: {e}"));
        assert_eq!(lines[4], "pass");
    }
}
