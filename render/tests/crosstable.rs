//! The crosstable picture (`src/crosstable.rs`): its size follows what it
//! holds, every text lies inside it and none under 13 px, each row's own cell
//! is shaded where its pairing number's column crosses its row (read back
//! from the PNG) and no other cell is, and a table too large is refused.

mod samples;

use tokar_render::{Crosstable, RenderError, Renderer, TextBox};

const FADED: [u8; 3] = [0x9A, 0x96, 0x90];

/// The picture's pixels as RGB, with its size.
fn pixels(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG header");
    assert_eq!(reader.info().color_type, png::ColorType::Indexed);
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

fn find<'a>(texts: &'a [TextBox], text: &str) -> &'a TextBox {
    texts
        .iter()
        .find(|t| t.text == text)
        .unwrap_or_else(|| panic!("no text {text:?}"))
}

/// A column's head (17 px; the cells below are 18 px, so a place or pairing
/// number with the same text is not taken for it).
fn head<'a>(texts: &'a [TextBox], text: &str) -> &'a TextBox {
    texts
        .iter()
        .find(|t| t.text == text && t.px == 17)
        .unwrap_or_else(|| panic!("no head {text:?}"))
}

fn centre_x(t: &TextBox) -> f32 {
    t.x + t.width / 2.0
}

fn centre_y(t: &TextBox) -> f32 {
    t.y + t.height / 2.0
}

#[test]
fn the_picture_has_its_layouts_size_and_every_text_inside() {
    let r = Renderer::new();
    let table = samples::crosstable();
    let png = r.crosstable(&table).expect("drawn");
    let (w, h, texts) = r.crosstable_layout(&table).expect("laid out");
    let (pw, ph, _) = pixels(&png);
    assert_eq!((pw, ph), (w, h));
    // Title, heads of five columns, five rows, a note: room for all of them.
    assert!(h >= 24 + 48 + 32 * 6 + 22, "{h}");
    for t in &texts {
        assert!(t.px >= 13, "{t:?}");
        assert!(t.x >= 0.0 && t.x + t.width <= w as f32, "{t:?}");
        assert!(t.y >= 0.0 && t.y + t.height <= h as f32, "{t:?}");
    }
    for s in ["carol with a long name", "1 won, ½ drawn, 0 lost; + won and − lost without play (lost at the move deadline before moving); blank: not yet played.", "5¾", "Koya", "+", "−"] {
        find(&texts, s);
    }
    // One more row makes it taller by one row; a longer name wider.
    let mut more = table.clone();
    more.rows.push(more.rows[4].clone());
    let (w2, h2, _) = r.crosstable_layout(&more).unwrap();
    assert_eq!((w2, h2), (w, h + 32));
    let mut longer = table.clone();
    longer.rows[0].name = "alice, whose name is very long indeed".into();
    assert!(r.crosstable_layout(&longer).unwrap().0 > w);
}

/// Each row's own cell (the column of its pairing number) is shaded, read
/// back from the PNG where the column's head and the row's name say; a cell
/// of another column on the same row is not.
#[test]
fn each_rows_own_cell_is_shaded_and_no_other() {
    let r = Renderer::new();
    let table = samples::crosstable();
    let (w, _, rgb) = pixels(&r.crosstable(&table).unwrap());
    let (_, _, texts) = r.crosstable_layout(&table).unwrap();
    let at = |x: f32, y: f32| {
        let i = (y as usize * w as usize + x as usize) * 3;
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    for row in &table.rows {
        let y = centre_y(find(&texts, &row.name));
        let own = row.own.unwrap();
        for (c, number) in table.opponents.iter().enumerate() {
            let x = centre_x(head(&texts, number));
            // Beside the cell's text, if any: 13 px left of its centre.
            let colour = at(x - 13.0, y);
            if c == own {
                assert_eq!(colour, FADED, "{} column {number}", row.name);
            } else {
                assert_ne!(colour, FADED, "{} column {number}", row.name);
            }
        }
    }
}

#[test]
fn results_sit_in_their_opponents_columns() {
    let r = Renderer::new();
    let table = samples::crosstable();
    let (_, _, texts) = r.crosstable_layout(&table).unwrap();
    // dave's "−" (his forfeit, against number 5) in column 5, on dave's row.
    let dave = find(&texts, "dave");
    let minus = find(&texts, "−");
    let five = head(&texts, "5");
    assert!((centre_x(minus) - centre_x(five)).abs() < 1.0);
    assert!((centre_y(minus) - centre_y(dave)).abs() < 1.0);
}

#[test]
fn a_table_too_large_is_refused() {
    let r = Renderer::new();
    let mut table: Crosstable = samples::crosstable();
    let one = table.rows[0].clone();
    table.rows = vec![one; tokar_render::MAX_ENTRANTS + 1];
    match r.crosstable(&table) {
        Err(RenderError::TooLarge(why)) => assert!(why.contains("crosstable"), "{why}"),
        other => panic!("{other:?}"),
    }
}
