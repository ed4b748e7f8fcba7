//! Long lists in pages that each fit one Discord message: `/games` and `/games scope:server`.
//!
//! One user once made 1,000 games in 12 seconds, and `/games` then answered 53,139 characters
//! (27 messages). A list is now packed, line by line and in order, into pages of at most
//! [`MESSAGE_LIMIT`] characters with the line that says which page it is and how to read the
//! next; `page:` picks one. Nothing is left out: every line is on exactly one page.

use super::{Button, Res};

/// The longest message Discord takes, in characters: "Message contents (up to 2000
/// characters)" (discord-api-docs, developers/resources/message.mdx, Create Message).
pub(super) const MESSAGE_LIMIT: usize = 2000;

/// Room kept on a page for its heading line and the page line under it.
const KEPT: usize = 300;

/// Discord shows at most 25 buttons on a message (five rows of five).
const MAX_BUTTONS: usize = 25;

/// One line of a list: the heading of the part it belongs to ("Open:"), the line, and the
/// buttons that go with it (a game's Join button).
pub(super) struct Item {
    pub section: &'static str,
    pub line: String,
    pub buttons: Vec<Button>,
}

impl Item {
    pub fn new(section: &'static str, line: String) -> Item {
        Item {
            section,
            line,
            buttons: Vec::new(),
        }
    }
}

/// One page: its lines (section headings included) and its items' buttons.
pub(super) struct Page {
    pub lines: Vec<String>,
    pub buttons: Vec<Button>,
}

/// Packs `items` in order into pages of at most `MESSAGE_LIMIT - KEPT` characters. A part's
/// heading comes before its first line, and again at the top of a page that goes on with it
/// (so every page reads on its own). A line longer than a page (none of the table's are) is
/// cut rather than lost. No items: no pages.
pub(super) fn paginate(items: Vec<Item>) -> Vec<Page> {
    let room = MESSAGE_LIMIT - KEPT;
    let mut pages: Vec<Page> = Vec::new();
    let mut size = 0;
    let mut section = "";
    for item in items {
        let line = if item.line.chars().count() > room / 2 {
            let mut cut: String = item.line.chars().take(room / 2 - 1).collect();
            cut.push('…');
            cut
        } else {
            item.line
        };
        let heading = (!item.section.is_empty()).then_some(item.section);
        let new_section = item.section != section;
        let len = line.chars().count() + 1;
        let with_heading = len + heading.map_or(0, |h| h.chars().count() + 1);
        let fits = !pages.is_empty()
            && size + if new_section { with_heading } else { len } <= room
            && pages.last().is_some_and(|p| {
                p.buttons.len() + item.buttons.len() <= MAX_BUTTONS || item.buttons.is_empty()
            });
        if !fits {
            pages.push(Page {
                lines: Vec::new(),
                buttons: Vec::new(),
            });
            size = 0;
        }
        let page = pages.last_mut().expect("a page was just made");
        if new_section || page.lines.is_empty() {
            if let Some(h) = heading {
                page.lines.push(h.to_string());
                size += h.chars().count() + 1;
            }
        }
        page.lines.push(line);
        size += len;
        page.buttons.extend(item.buttons);
        section = item.section;
    }
    pages
}

/// Page `page` of `pages` as one message: `head` (if any), its lines, and, when there are
/// several pages, the line that says which this is and the command that shows the next
/// (`command`: the list's command with its options, such as `/games scope:server`). A page
/// past the last is refused with the number of pages.
pub(super) fn page_text(
    head: Option<&str>,
    pages: &[Page],
    page: usize,
    command: &str,
) -> Res<(String, Vec<Button>)> {
    let count = pages.len();
    let Some(chosen) = pages.get(page - 1) else {
        return Err(format!(
            "The list has {count} page{}; page:{page} is not one of them ({command} page:1 shows the first).",
            if count == 1 { "" } else { "s" }
        ).into());
    };
    let mut lines: Vec<String> = head.map(str::to_string).into_iter().collect();
    lines.extend(chosen.lines.iter().cloned());
    if count > 1 {
        let next = if page < count {
            format!("{command} page:{} shows the next", page + 1)
        } else {
            format!("{command} page:1 shows the first again")
        };
        lines.push(format!("Page {page} of {count} — {next}."));
    }
    let mut buttons = chosen.buttons.clone();
    buttons.truncate(MAX_BUTTONS);
    Ok((lines.join("\n"), buttons))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn join(id: usize) -> Button {
        Button {
            custom_id: format!("tokar:{id}:0:join"),
            label: format!("Join game #{id}"),
        }
    }

    #[test]
    fn every_line_is_on_one_page_and_every_page_fits_a_message() {
        let mut items = Vec::new();
        for i in 0..1000 {
            let section = if i < 600 { "Open:" } else { "In play:" };
            let mut item = Item::new(section, format!("#{i} {}", "x".repeat(i % 150)));
            if i < 600 {
                item.buttons.push(join(i));
            }
            items.push(item);
        }
        let pages = paginate(items);
        assert!(pages.len() > 10, "{} pages", pages.len());
        let mut seen = Vec::new();
        for n in 1..=pages.len() {
            let (text, buttons) = page_text(
                Some("Games on this server:"),
                &pages,
                n,
                "/games scope:server",
            )
            .unwrap();
            assert!(text.chars().count() <= MESSAGE_LIMIT, "page {n}");
            assert!(buttons.len() <= MAX_BUTTONS, "page {n}");
            let body: Vec<&str> = text.lines().collect();
            assert!(
                body[1] == "Open:" || body[1] == "In play:",
                "each page says what it lists: {text}"
            );
            seen.extend(
                body.iter()
                    .filter_map(|l| l.strip_prefix('#'))
                    .filter_map(|l| l.split(' ').next()?.parse::<usize>().ok()),
            );
            let footer = body.last().unwrap();
            assert!(
                footer.starts_with(&format!("Page {n} of {}", pages.len())),
                "{footer}"
            );
        }
        assert_eq!(
            seen,
            (0..1000).collect::<Vec<_>>(),
            "each line once, in order"
        );
        let refused = page_text(None, &pages, pages.len() + 1, "/games").unwrap_err();
        assert!(
            refused.text().contains(&format!("{} pages", pages.len())),
            "{refused}"
        );
    }

    #[test]
    fn a_short_list_is_one_page_without_a_page_line() {
        let pages = paginate(vec![Item::new("", "#1 Arcana".into())]);
        let (text, _) = page_text(None, &pages, 1, "/games").unwrap();
        assert_eq!(text, "#1 Arcana");
        assert!(paginate(Vec::new()).is_empty());
    }
}
