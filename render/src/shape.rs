//! The outlines drawn at start-up (rectangles, circles, rounded rectangles),
//! as polygons for imageproc: curves flattened finely enough for the
//! supersampled masks of `sketch.rs`, strokes as strips of quadrilaterals
//! with mitred corners, dashes split off by length. Plain geometry: nothing
//! here touches pixels.

/// A point in pixels.
pub type Pt = (f32, f32);

/// A closed outline that a sketch fills or strokes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outline {
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
    },
    Circle {
        cx: f32,
        cy: f32,
        r: f32,
    },
    RoundedRect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        r: f32,
    },
}

fn finite(values: &[f32]) -> bool {
    values.iter().all(|v| v.is_finite())
}

impl Outline {
    /// A rectangle; `None` when it is empty or not a number.
    pub fn rect(x: f32, y: f32, w: f32, h: f32) -> Option<Outline> {
        (finite(&[x, y, w, h]) && w > 0.0 && h > 0.0).then_some(Outline::Rect { x, y, w, h })
    }

    /// A circle; `None` when its radius is not positive or not a number.
    pub fn circle(cx: f32, cy: f32, r: f32) -> Option<Outline> {
        (finite(&[cx, cy, r]) && r > 0.0).then_some(Outline::Circle { cx, cy, r })
    }

    /// A rectangle with corners rounded by `r` (at most half its sides).
    pub fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Outline> {
        let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
        (finite(&[x, y, w, h, r]) && w > 0.0 && h > 0.0).then_some(Outline::RoundedRect {
            x,
            y,
            w,
            h,
            r,
        })
    }

    /// The outline moved outwards by `d` pixels (inwards when negative), as
    /// the edges of a stroke `2 |d|` wide: a rectangle's corners stay sharp
    /// (mitred), a rounded corner's radius grows or shrinks with it. `None`
    /// when nothing is left.
    pub fn grown(self, d: f32) -> Option<Outline> {
        match self {
            Outline::Rect { x, y, w, h } => Outline::rect(x - d, y - d, w + 2.0 * d, h + 2.0 * d),
            Outline::Circle { cx, cy, r } => Outline::circle(cx, cy, r + d),
            Outline::RoundedRect { x, y, w, h, r } => {
                let (w, h) = (w + 2.0 * d, h + 2.0 * d);
                (w > 0.0 && h > 0.0).then_some(Outline::RoundedRect {
                    x: x - d,
                    y: y - d,
                    w,
                    h,
                    r: (r + d).max(0.0).min(w / 2.0).min(h / 2.0),
                })
            }
        }
    }

    /// The outline as a closed polyline (the first point is not repeated),
    /// curves flattened so that no chord strays more than `tolerance` pixels
    /// from the curve. It starts where tiny-skia's paths of the same shapes
    /// started and runs the same way (clockwise on screen), so that dashes fall
    /// where they fell: a rectangle at its top-left corner, a circle at its
    /// rightmost point, a rounded rectangle after its top-left corner.
    pub fn points(self, tolerance: f32) -> Vec<Pt> {
        match self {
            Outline::Rect { x, y, w, h } => vec![(x, y), (x + w, y), (x + w, y + h), (x, y + h)],
            Outline::Circle { cx, cy, r } => {
                let n = segments(r, std::f32::consts::TAU, tolerance);
                (0..n)
                    .map(|i| {
                        let t = std::f32::consts::TAU * i as f32 / n as f32;
                        (cx + r * t.cos(), cy + r * t.sin())
                    })
                    .collect()
            }
            Outline::RoundedRect { x, y, w, h, r } => {
                use std::f32::consts::{FRAC_PI_2, PI};
                let mut p = Vec::new();
                // Each side, then the corner after it (centre, starting angle).
                let corners = [
                    ((x + w - r, y + r), -FRAC_PI_2),
                    ((x + w - r, y + h - r), 0.0),
                    ((x + r, y + h - r), FRAC_PI_2),
                    ((x + r, y + r), PI),
                ];
                let n = if r > 0.0 {
                    segments(r, FRAC_PI_2, tolerance)
                } else {
                    0
                };
                p.push((x + r, y));
                for ((ccx, ccy), start) in corners {
                    if n == 0 {
                        p.push((ccx, ccy));
                        continue;
                    }
                    for i in 0..=n {
                        let t = start + FRAC_PI_2 * i as f32 / n as f32;
                        p.push((ccx + r * t.cos(), ccy + r * t.sin()));
                    }
                }
                // The last corner ends where the polyline began.
                p.pop();
                p
            }
        }
    }
}

/// Chords needed along an arc of radius `r` and `angle` radians for a
/// deviation of at most `tolerance`.
fn segments(r: f32, angle: f32, tolerance: f32) -> usize {
    let step = if r > tolerance {
        2.0 * (1.0 - tolerance / r).acos()
    } else {
        angle
    };
    ((angle / step.max(1e-3)).ceil() as usize).clamp(2, 1024)
}

fn sub(a: Pt, b: Pt) -> Pt {
    (a.0 - b.0, a.1 - b.1)
}

/// The unit normal of the segment from `a` to `b` (to its left on screen),
/// or `None` for a segment of no length.
fn normal(a: Pt, b: Pt) -> Option<Pt> {
    let (dx, dy) = sub(b, a);
    let len = (dx * dx + dy * dy).sqrt();
    (len > 1e-6).then(|| (dy / len, -dx / len))
}

/// Drops points that repeat the one before (and a closing point equal to the first).
fn distinct(points: &[Pt], closed: bool) -> Vec<Pt> {
    let mut p: Vec<Pt> = Vec::with_capacity(points.len());
    for &q in points {
        if p.last().is_none_or(|&l| normal(l, q).is_some()) {
            p.push(q);
        }
    }
    if closed && p.len() > 1 && normal(p[p.len() - 1], p[0]).is_none() {
        p.pop();
    }
    p
}

/// Each vertex moved `half` pixels to either side of the line (left, right):
/// mitred where two segments meet, square at the ends of an open polyline.
/// Every vertex is a corner when `closed`.
fn sides(points: &[Pt], closed: bool, half: f32) -> Vec<(Pt, Pt)> {
    let n = points.len();
    let segment = |i: usize| normal(points[i], points[(i + 1) % n]).unwrap_or((0.0, 0.0));
    (0..n)
        .map(|i| {
            let before = if i > 0 {
                Some(segment(i - 1))
            } else if closed {
                Some(segment(n - 1))
            } else {
                None
            };
            let after = if i + 1 < n || closed {
                Some(segment(i))
            } else {
                None
            };
            let (nx, ny, scale) = match (before, after) {
                (Some(a), Some(b)) => {
                    let (mx, my) = (a.0 + b.0, a.1 + b.1);
                    let len = (mx * mx + my * my).sqrt();
                    // cos of half the turn; a turn near 180 degrees is cut
                    // at four widths, as tiny-skia's miter limit did.
                    let cos = (len / 2.0).max(0.25);
                    if len < 1e-6 {
                        (a.0, a.1, 1.0)
                    } else {
                        (mx / len, my / len, 1.0 / cos)
                    }
                }
                (Some(a), None) | (None, Some(a)) => (a.0, a.1, 1.0),
                (None, None) => (0.0, 0.0, 0.0),
            };
            let (p, d) = (points[i], half * scale);
            ((p.0 + nx * d, p.1 + ny * d), (p.0 - nx * d, p.1 - ny * d))
        })
        .collect()
}

/// The polygon of the strip over `count` vertices from `from` (wrapping
/// around a closed polyline): one side forwards, the other back.
fn strip(sides: &[(Pt, Pt)], from: usize, count: usize) -> Vec<Pt> {
    let n = sides.len();
    let idx: Vec<usize> = (0..count).map(|k| (from + k) % n).collect();
    let mut poly: Vec<Pt> = idx.iter().map(|&i| sides[i].0).collect();
    poly.extend(idx.iter().rev().map(|&i| sides[i].1));
    poly
}

/// Most segments in one polygon of a stroke: imageproc fills a polygon by
/// testing every edge on every row, so long strokes go in short strips.
const STRIP_SEGMENTS: usize = 16;

/// The polygons that together cover a line `2 * half` wide along `points`:
/// a closed polyline with mitred corners, or an open one with square ends.
/// Neighbouring strips share an edge exactly, so their union has no seam; a
/// closed one takes at least four strips, so that each is a simple polygon.
pub fn stroke(points: &[Pt], closed: bool, half: f32) -> Vec<Vec<Pt>> {
    let points = distinct(points, closed);
    let n = points.len();
    if n < 2 || half <= 0.0 || !half.is_finite() {
        return Vec::new();
    }
    let sides = sides(&points, closed, half);
    let segs = if closed { n } else { n - 1 };
    let per = if closed {
        (segs / 4).clamp(1, STRIP_SEGMENTS)
    } else {
        STRIP_SEGMENTS
    };
    (0..segs)
        .step_by(per)
        .map(|from| strip(&sides, from, per.min(segs - from) + 1))
        .collect()
}

/// An open polyline shortened by `by` pixels at each end (each end point
/// moved along its own segment, when that is longer).
pub fn trimmed(points: &[Pt], by: f32) -> Vec<Pt> {
    let mut p = distinct(points, false);
    let n = p.len();
    if n < 2 {
        return p;
    }
    let towards = |a: Pt, b: Pt| -> Pt {
        let (dx, dy) = sub(b, a);
        let len = (dx * dx + dy * dy).sqrt();
        if len > 2.0 * by {
            (a.0 + dx * by / len, a.1 + dy * by / len)
        } else {
            a
        }
    };
    p[0] = towards(p[0], p[1]);
    p[n - 1] = towards(p[n - 1], p[n - 2]);
    p
}

/// The pieces of a closed polyline that a dashed line draws: `on` pixels
/// drawn, `off` skipped, from its first point on, each piece an open polyline
/// (a dash running over the start joins the first).
pub fn dashes(points: &[Pt], on: f32, off: f32) -> Vec<Vec<Pt>> {
    let points = distinct(points, true);
    if points.len() < 2 || on <= 0.0 || off < 0.0 {
        return Vec::new();
    }
    let mut pieces = Vec::new();
    let mut piece: Vec<Pt> = vec![points[0]];
    // Distance left in the current dash (drawing) or gap (not drawing).
    let (mut drawing, mut left) = (true, on);
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        let (dx, dy) = sub(b, a);
        let len = (dx * dx + dy * dy).sqrt();
        let mut at = 0.0;
        while len - at > left {
            at += left;
            let p = (a.0 + dx * at / len, a.1 + dy * at / len);
            if drawing {
                piece.push(p);
                pieces.push(std::mem::take(&mut piece));
                left = off;
            } else {
                piece.push(p);
                left = on;
            }
            drawing = !drawing;
        }
        left -= len - at;
        if drawing {
            piece.push(b);
        }
    }
    if drawing && piece.len() > 1 {
        // A dash still drawn where the outline closes goes on into the first
        // one, round the corner, as tiny-skia (and Skia) dash closed paths.
        if pieces.is_empty() {
            pieces.push(piece);
        } else {
            piece.extend_from_slice(&pieces[0][1..]);
            pieces[0] = piece;
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(poly: &[Pt]) -> f32 {
        let n = poly.len();
        (0..n)
            .map(|i| {
                let (a, b) = (poly[i], poly[(i + 1) % n]);
                a.0 * b.1 - b.0 * a.1
            })
            .sum::<f32>()
            .abs()
            / 2.0
    }

    #[test]
    fn flattened_circles_stay_within_the_tolerance() {
        let c = Outline::circle(10.0, 20.0, 30.0).expect("a circle");
        let p = c.points(0.05);
        assert_eq!(p[0], (40.0, 20.0), "starts at the rightmost point");
        assert!(p[1].1 > 20.0, "runs clockwise on screen (down first)");
        for w in p.windows(2) {
            let mid = ((w[0].0 + w[1].0) / 2.0, (w[0].1 + w[1].1) / 2.0);
            let r = ((mid.0 - 10.0).powi(2) + (mid.1 - 20.0).powi(2)).sqrt();
            assert!(30.0 - r <= 0.05 + 1e-3, "chord {} from the curve", 30.0 - r);
        }
        let full = std::f32::consts::PI * 900.0;
        assert!((area(&p) - full).abs() / full < 0.005);
    }

    #[test]
    fn rounded_rectangles_keep_their_box_and_lose_their_corners() {
        let r = Outline::rounded_rect(2.0, 3.0, 40.0, 20.0, 6.0).expect("a shape");
        let p = r.points(0.05);
        assert_eq!(p[0], (8.0, 3.0));
        for q in &p {
            assert!(
                q.0 >= 2.0 - 1e-4 && q.0 <= 42.0 + 1e-4 && q.1 >= 3.0 - 1e-4 && q.1 <= 23.0 + 1e-4
            );
        }
        let expected = 40.0 * 20.0 - (4.0 - std::f32::consts::PI) * 36.0;
        // Chords cut inside each corner's arc: at most the tolerance times
        // its length (9.4 px) for each of the four.
        assert!(
            (area(&p) - expected).abs() < 4.0 * 0.05 * 9.5,
            "{}",
            area(&p)
        );
        assert_eq!(
            Outline::rounded_rect(0.0, 0.0, 10.0, 4.0, 9.0),
            Outline::rounded_rect(0.0, 0.0, 10.0, 4.0, 2.0),
            "the radius is at most half a side"
        );
    }

    #[test]
    fn growing_is_a_stroke_edge() {
        let r = Outline::rect(10.0, 10.0, 20.0, 10.0).expect("a rectangle");
        assert_eq!(r.grown(2.0), Outline::rect(8.0, 8.0, 24.0, 14.0));
        assert_eq!(r.grown(-5.0), None, "nothing left of a 10 px side");
        let c = Outline::circle(0.0, 0.0, 3.0).expect("a circle");
        assert_eq!(c.grown(-1.0), Outline::circle(0.0, 0.0, 2.0));
        let rr = Outline::rounded_rect(0.0, 0.0, 20.0, 20.0, 2.0).expect("a shape");
        assert_eq!(
            rr.grown(-3.0),
            Outline::rounded_rect(3.0, 3.0, 14.0, 14.0, 0.0)
        );
        assert!(Outline::rect(0.0, 0.0, f32::NAN, 1.0).is_none());
        assert!(Outline::circle(0.0, 0.0, 0.0).is_none());
    }

    #[test]
    fn a_closed_stroke_covers_the_band_between_its_edges() {
        // A square outline stroked 4 px wide: 24x24 outside, 16x16 inside.
        let r = Outline::rect(2.0, 2.0, 20.0, 20.0).expect("a rectangle");
        let strips = stroke(&r.points(0.1), true, 2.0);
        let total: f32 = strips.iter().map(|s| area(s)).sum();
        assert!(
            (total - (24.0 * 24.0 - 16.0 * 16.0)).abs() < 1e-2,
            "{total}"
        );
        // A circle's band, within the flattening's error.
        let c = Outline::circle(0.0, 0.0, 50.0).expect("a circle");
        let strips = stroke(&c.points(0.05), true, 3.0);
        assert!(strips.len() > 1, "long strokes come in strips");
        let total: f32 = strips.iter().map(|s| area(s)).sum();
        let band = std::f32::consts::PI * (53.0f32.powi(2) - 47.0f32.powi(2));
        assert!((total - band).abs() / band < 0.01, "{total} against {band}");
    }

    #[test]
    fn an_open_line_is_a_rectangle_with_square_ends() {
        let s = stroke(&[(0.0, 0.0), (10.0, 0.0)], false, 1.5);
        assert_eq!(s.len(), 1);
        assert!((area(&s[0]) - 30.0).abs() < 1e-4);
        assert!(stroke(&[(1.0, 1.0), (1.0, 1.0)], false, 2.0).is_empty());
        assert!(stroke(&[(0.0, 0.0), (5.0, 5.0)], false, 0.0).is_empty());
    }

    #[test]
    fn trimming_shortens_both_ends_along_their_segments() {
        let t = trimmed(&[(0.0, 0.0), (10.0, 0.0), (10.0, 5.0)], 0.5);
        assert_eq!(t, vec![(0.5, 0.0), (10.0, 0.0), (10.0, 4.5)]);
        assert_eq!(trimmed(&[(0.0, 0.0), (0.5, 0.0)], 0.5).len(), 2);
    }

    #[test]
    fn dashes_alternate_along_the_outline_from_its_start() {
        // A 40 px square outline (160 px around), dashes 10 on, 8 off.
        let r = Outline::rect(0.0, 0.0, 40.0, 40.0).expect("a rectangle");
        let d = dashes(&r.points(0.1), 10.0, 8.0);
        assert_eq!(d[0], vec![(0.0, 0.0), (10.0, 0.0)]);
        assert_eq!(d[1][0], (18.0, 0.0));
        // The third dash turns the top-right corner.
        assert_eq!(d[2], vec![(36.0, 0.0), (40.0, 0.0), (40.0, 6.0)]);
        let len = |p: &Vec<Pt>| -> f32 {
            p.windows(2)
                .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
                .sum()
        };
        // 160 = 8 whole periods of 18 (144) and a last dash of 10: 9 dashes.
        assert_eq!(d.len(), 9);
        for piece in &d {
            assert!((len(piece) - 10.0).abs() < 1e-3, "{}", len(piece));
        }
        // 10 on and 4 off: the twelfth dash (154 to 164) runs over the start
        // and goes on round the top-left corner into the first.
        let d = dashes(&r.points(0.1), 10.0, 4.0);
        assert_eq!(d.len(), 11);
        assert_eq!(d[0], vec![(0.0, 6.0), (0.0, 0.0), (10.0, 0.0)]);
    }
}
