//! `/league table` sends, beside the standings' text, the league's crosstable
//! picture (T56): rows in standing order with their pairing numbers, columns
//! by number, each cell the results between the two (a forfeit as + and −),
//! the own cells shaded, then points and the tie-break columns.

mod common;
use common::*;
use tokar_bot::Reply;
use tokar_render::{CrossRow, Crosstable, Renderer};

/// The number of the league game between `a` and `b`, from the start's
/// announcements ("Game #N (...) begins: ... (a) ... (b)").
fn game_between(replies: &[Reply], a: &str, b: &str) -> u64 {
    replies
        .iter()
        .filter(|r| r.content.contains(") begins: "))
        .find(|r| r.content.contains(&format!("({a})")) && r.content.contains(&format!("({b})")))
        .and_then(|r| r.content.split("Game #").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no game of {a} and {b}: {replies:#?}"))
}

fn row(place: &str, number: usize, name: &str, cells: [&str; 3], tail: [&str; 5]) -> CrossRow {
    CrossRow {
        place: place.into(),
        number: number.to_string(),
        name: name.into(),
        cells: cells.map(String::from).to_vec(),
        own: Some(number - 1),
        tail: tail.map(String::from).to_vec(),
    }
}

/// Three players numbered as named; bob resigns to alice, then carol leaves
/// without having moved (ICCF: her games left are lost, as forfeits). The
/// picture `/league table` sends is the crosstable of those results, drawn
/// byte for byte as the renderer draws the table worked out by hand.
#[tokio::test]
async fn league_table_carries_the_crosstable_picture() {
    let e = env("league-crosstable").await;
    e.ok("@alice /league new game:arcana name:Cross players:@alice @bob @carol numbers:listed withdrawal:iccf")
        .await;
    e.ok("@bob /league accept name:Cross").await;
    let started = e.ok("@carol /league accept name:Cross").await;
    let ab = game_between(&started, "alice", "bob");
    e.ok(&format!("@bob /resign game:{ab} confirm:yes")).await;
    e.ok("@carol /league leave name:Cross").await;
    let t = e.ok("@alice /league table name:Cross").await;
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].images.len(), 1, "{:#?}", t[0].images.len());
    let image = &t[0].images[0];
    assert_eq!(image.name, "league-1-crosstable.png");
    png::Decoder::new(std::io::Cursor::new(image.png.clone()))
        .read_info()
        .expect("a PNG");
    // By hand: alice 2 (beat bob, carol's forfeit), bob 1 (carol's forfeit),
    // carol 0. Nobody level: no DE. Wins count only games won over the board
    // (T57): alice 1, bob 0. Sonneborn-Berger: alice beat bob over the board,
    // and bob's score, as the tie-breaks read it, counts his game not played
    // as a draw (T57): ½; a forfeit adds nothing. Koya: points taken over the
    // board from those whose score so read is at least half of 2 (alice 1½,
    // carol 1; not bob, ½): alice 0 (her one game played was against bob),
    // bob 0.
    let want = Crosstable {
        title: "League Cross · Arcana · crosstable".into(),
        opponents: ["1", "2", "3"].map(String::from).to_vec(),
        tail: ["Pts", "DE", "Wins", "SB", "Koya"].map(String::from).to_vec(),
        rows: vec![
            row("1", 1, "alice", ["", "1", "+"], ["2", "", "1", "½", "0"]),
            row("2", 2, "bob", ["0", "", "+"], ["1", "", "0", "0", "0"]),
            row("3", 3, "carol", ["−", "−", ""], ["0", "", "0", "0", "0"]),
        ],
        notes: vec!["1 won, ½ drawn, 0 lost; + won and − lost without play (lost at the move deadline before moving); blank: not yet played.".into()],
    };
    let drawn = Renderer::new().crosstable(&want).unwrap();
    assert!(
        drawn == image.png,
        "the picture is not the crosstable worked out by hand"
    );
    assert!(
        t[0].content.contains("```"),
        "the standings' text stays: {}",
        t[0].content
    );
}
