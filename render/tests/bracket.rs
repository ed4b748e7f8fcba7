//! The knockout bracket picture (`src/bracket.rs`): its size follows the
//! bracket, every text lies inside it without overlapping another, each
//! later match sits between the two that feed it, a winner is marked and
//! drawn in bold, and a bracket of the wrong shape or too large is refused.

use tokar_render::{BracketMatch, BracketPicture, BracketSlot, RenderError, Renderer, TextBox};

fn slot(name: &str, score: &str, won: bool) -> BracketSlot {
    BracketSlot {
        name: name.into(),
        score: score.into(),
        won,
    }
}

/// A bracket of 16 after its first round, with one quarter-final decided.
fn sixteen() -> BracketPicture {
    let first: Vec<BracketMatch> = (0..8)
        .map(|m| BracketMatch {
            slots: [
                slot(&format!("seed{}", m + 1), "1", true),
                slot(&format!("seed{}", 16 - m), "0", false),
            ],
        })
        .collect();
    let mut quarters: Vec<BracketMatch> = (0..4)
        .map(|m| BracketMatch {
            slots: [
                slot(&format!("seed{}", 2 * m + 1), "", false),
                slot(&format!("seed{}", 2 * m + 2), "", false),
            ],
        })
        .collect();
    quarters[0].slots = [slot("seed1", "1½", true), slot("seed2", "½", false)];
    BracketPicture {
        title: "Winter knockout".into(),
        heads: ["Round of 16", "Quarter-finals", "Semi-finals", "Final"]
            .map(String::from)
            .to_vec(),
        rounds: vec![
            first,
            quarters,
            vec![
                BracketMatch {
                    slots: [slot("seed1", "", false), BracketSlot::default()],
                },
                BracketMatch::default(),
            ],
            vec![BracketMatch::default()],
        ],
        notes: vec!["Matches of two games; a level match goes on with a decider.".into()],
    }
}

fn find<'a>(texts: &'a [TextBox], text: &str) -> Vec<&'a TextBox> {
    texts.iter().filter(|t| t.text == text).collect()
}

fn centre_y(t: &TextBox) -> f32 {
    t.y + t.height / 2.0
}

#[test]
fn every_text_is_inside_and_none_overlaps_another() {
    let r = Renderer::new();
    let b = sixteen();
    let png = r.bracket(&b).expect("drawn");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (w, h, texts) = r.bracket_layout(&b).expect("laid out");
    // Eight first-round matches of two rows each, four columns.
    assert!(h as f32 >= 8.0 * 64.0, "{h}");
    assert!(w as f32 >= 4.0 * 110.0, "{w}");
    for t in &texts {
        assert!(t.px >= 13, "{t:?}");
        assert!(t.x >= 0.0 && t.x + t.width <= w as f32, "{t:?}");
        assert!(t.y >= 0.0 && t.y + t.height <= h as f32, "{t:?}");
    }
    for (i, a) in texts.iter().enumerate() {
        for c in &texts[i + 1..] {
            let apart = a.x + a.width <= c.x
                || c.x + c.width <= a.x
                || a.y + a.height <= c.y
                || c.y + c.height <= a.y;
            assert!(apart, "{a:?} overlaps {c:?}");
        }
    }
    for name in ["Winter knockout", "Final", "seed16", "1½"] {
        assert!(!find(&texts, name).is_empty(), "{name}");
    }
}

#[test]
fn a_later_match_sits_between_the_two_that_feed_it() {
    let r = Renderer::new();
    let (_, _, texts) = r.bracket_layout(&sixteen()).unwrap();
    // seed1 is drawn in round 1, the first quarter-final and the first semi-final.
    let seed1 = find(&texts, "seed1");
    assert_eq!(seed1.len(), 3);
    let (r1, qf, sf) = (seed1[0], seed1[1], seed1[2]);
    assert!(r1.x < qf.x && qf.x < sf.x);
    // The first quarter-final's upper slot is between the first two
    // first-round matches' upper slots (seed1 and seed2).
    let seed2_r1 = find(&texts, "seed2")[0];
    assert!(centre_y(r1) < centre_y(qf) && centre_y(qf) < centre_y(seed2_r1));
    // The first semi-final sits lower still: between four first-round matches.
    assert!(centre_y(sf) > centre_y(qf));
}

#[test]
fn the_picture_grows_as_the_bracket_grows() {
    let r = Renderer::new();
    let small = BracketPicture {
        title: "Two".into(),
        heads: vec!["Final".into()],
        rounds: vec![vec![BracketMatch {
            slots: [slot("ann", "1", true), slot("bo", "0", false)],
        }]],
        notes: vec![],
    };
    let (w1, h1, _) = r.bracket_layout(&small).unwrap();
    let (w16, h16, _) = r.bracket_layout(&sixteen()).unwrap();
    assert!(w16 > w1 && h16 > h1);
}

#[test]
fn a_bracket_of_the_wrong_shape_or_too_large_is_refused() {
    let r = Renderer::new();
    let mut three = sixteen();
    three.rounds[1].pop();
    let e = r.bracket(&three).unwrap_err();
    assert!(e.to_string().contains("round 2 has 3 matches"), "{e}");
    let mut headless = sixteen();
    headless.heads.pop();
    assert!(r.bracket(&headless).is_err());
    let mut odd = sixteen();
    odd.rounds = vec![
        vec![BracketMatch::default(); 3],
        vec![BracketMatch::default()],
    ];
    odd.heads.truncate(2);
    assert!(r.bracket(&odd).is_err());
    let empty = BracketPicture {
        rounds: vec![],
        heads: vec![],
        ..sixteen()
    };
    assert!(r.bracket(&empty).is_err());
    let mut rounds = Vec::new();
    let mut n = 64;
    while n >= 1 {
        rounds.push(vec![BracketMatch::default(); n]);
        n /= 2;
    }
    let huge = BracketPicture {
        heads: vec![String::new(); rounds.len()],
        rounds,
        ..sixteen()
    };
    assert!(matches!(r.bracket(&huge), Err(RenderError::TooLarge(_))));
}
