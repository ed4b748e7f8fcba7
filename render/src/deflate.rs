//! Deflate (RFC 1951) for a picture's rows, in a zlib stream (RFC 1950).
//! The matches are found the way a palette picture is drawn: most pixels
//! repeat the pixel to their left (a run of one index) or the pixel above
//! them (a square, a panel, a border several rows tall). A general deflater
//! searches hash chains at every position for repeats anywhere in the last
//! 32 KiB; this one compares each position with those two places only, eight
//! bytes at a time, and passes on the literals between matches several at
//! once. Each band of [`ROWS_PER_BLOCK`] rows is a block with its own dynamic
//! Huffman codes ([`crate::huffman`]).
//!
//! Why Tokar has its own deflate (docs/bench/render.md): zlib-rs
//! at level 2, the fastest kept deflater that brings the 8x8 picture under
//! 50 KB, took longer by itself than the whole picture's time target; the
//! faster settings (fdeflate, zlib-rs level 1) are 63-68 KB; and libflate,
//! which takes a match finder of ours, spent as long again on its Huffman
//! side. Repeats further away (a second pawn, a letter used twice) were
//! measured too: a hash table of them saved 1.0-1.4 % of the 8x8 picture's
//! bytes and nearly doubled the match loop's mispredicted branches.

use crate::huffman::{self, BitWriter, DISTANCES, END_OF_BLOCK, LITERALS};
use std::sync::LazyLock;

/// Matches shorter than this are not worth a pointer: a literal costs about
/// as much.
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;
/// How far back a match may reach.
const WINDOW: usize = 32 * 1024;
/// Blocks end every this many rows (a match may run past the end), so each
/// block's codes fit its part of the picture: the board's squares, the
/// pieces, the panels' text.
const ROWS_PER_BLOCK: usize = 256;
/// A symbol is packed in a `u32`: bits 0-8 its entry in the block's
/// literal/length table (a literal byte, or 256 plus a match's length less
/// 3), bits 9-13 its distance symbol ([`NO_DISTANCE`] for a literal), and
/// from bit 14 the distance's extra bits.
const DISTANCE_SHIFT: u32 = 9;
const EXTRA_SHIFT: u32 = 14;
/// The distance symbol of a literal: a code of no bits.
const NO_DISTANCE: usize = DISTANCES;

/// What the encoder keeps between pictures, so that nothing is allocated
/// per picture once the first is made: a block's symbols.
#[derive(Default)]
pub struct Deflater {
    symbols: Vec<u32>,
}

/// Deflates scanlines (`stride` bytes a row, its filter byte included) into
/// a zlib stream, replacing what `out` held.
pub fn zlib_rows(rows: &[u8], stride: usize, deflater: &mut Deflater, out: &mut Vec<u8>) {
    out.clear();
    // CMF: deflate with a 32 KiB window; FLG: the fastest level, no
    // dictionary, and (CMF * 256 + FLG) a multiple of 31 (RFC 1950).
    out.extend_from_slice(&[0x78, 0x01]);
    let symbols = &mut deflater.symbols;
    let block = ROWS_PER_BLOCK * stride.max(1);
    let mut w = BitWriter::new(out);
    let mut start = 0;
    loop {
        symbols.clear();
        let stop = (start + block).min(rows.len());
        let end = find(rows, stride, start, stop, symbols);
        let last = end >= rows.len();
        write_block(&mut w, last, symbols);
        if last {
            break;
        }
        start = end;
    }
    w.finish();
    out.extend_from_slice(&zlib_rs::adler32::adler32(1, rows).to_be_bytes());
}

const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DISTANCE_BASE: [u16; DISTANCES] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA: [u8; DISTANCES] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

/// Per match length less 3 (RFC 1951, 3.2.5): its symbol less 257, how many
/// extra bits follow it and their value.
static LENGTHS: LazyLock<[(u8, u8, u8); 256]> = LazyLock::new(|| {
    let mut t = [(0, 0, 0); 256];
    for len in MIN_MATCH..=MAX_MATCH {
        // 258 has a symbol of its own, not the last of 227-257's.
        let code = if len == MAX_MATCH {
            28
        } else {
            LENGTH_BASE[..28]
                .iter()
                .rposition(|&b| usize::from(b) <= len)
                .unwrap_or(0)
        };
        let extra = len - usize::from(LENGTH_BASE[code]);
        t[len - MIN_MATCH] = (code as u8, LENGTH_EXTRA[code], extra as u8);
    }
    t
});

/// A match's distance packed as a symbol's distance part (see
/// [`DISTANCE_SHIFT`]).
fn distance_part(distance: usize) -> u32 {
    let code = DISTANCE_BASE
        .iter()
        .rposition(|&b| usize::from(b) <= distance)
        .unwrap_or(0);
    let extra = distance - usize::from(DISTANCE_BASE[code]);
    (code as u32) << DISTANCE_SHIFT | (extra as u32) << EXTRA_SHIFT
}

/// How many bytes `a` and `b` (of one length) share from their start,
/// compared eight at a time.
#[inline]
fn common(a: &[u8], b: &[u8]) -> usize {
    let len = a.len().min(b.len());
    let mut n = 0;
    while n + 8 <= len {
        let diff = word(&a[n..n + 8]) ^ word(&b[n..n + 8]);
        if diff != 0 {
            return n + same(diff);
        }
        n += 8;
    }
    while n < len && a[n] == b[n] {
        n += 1;
    }
    n
}

/// The eight bytes at the start of `s` (at least eight long).
#[inline]
fn word(s: &[u8]) -> u64 {
    u64::from_le_bytes(s[..8].try_into().unwrap_or([0; 8]))
}

/// How many of two words' bytes agree from the first, given their xor.
#[inline]
fn same(diff: u64) -> usize {
    diff.trailing_zeros() as usize / 8
}

/// The high bit of each byte of `diff` (two words xored) that is zero, where
/// the words agree; exact for every byte, unlike the borrow trick.
#[inline]
fn equal_bytes(diff: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    !(((diff & LOW7) + LOW7) | diff | LOW7)
}

/// The high bit of each byte that starts three agreeing bytes (valid for
/// the first six bytes of the word).
#[inline]
fn threes(diff: u64) -> u64 {
    let equal = equal_bytes(diff);
    equal & equal >> 8 & equal >> 16
}

/// The high bits of the first six bytes of a word.
const FIRST_SIX: u64 = 0x0000_8080_8080_8080;

/// The symbols of `data` from `start` until one ends at or past `stop`;
/// returns where the last one ends. At each position the longer of two
/// matches is taken, with the pixel to the left or with the one above; a tie
/// goes to the left, whose distance costs no extra bits.
fn find(data: &[u8], stride: usize, start: usize, stop: usize, symbols: &mut Vec<u32>) -> usize {
    let n = data.len();
    let up = if stride <= WINDOW { stride } else { 0 };
    let (left_part, up_part) = (distance_part(1), distance_part(up.max(1)));
    let no_distance = (NO_DISTANCE as u32) << DISTANCE_SHIFT;
    symbols.reserve(stop.saturating_sub(start) + 8);
    let mut here = start;
    while here < stop {
        let max = (n - here).min(MAX_MATCH);
        let (mut run, mut above) = (0, 0);
        if up != 0 && here >= up && here + 8 <= n {
            let at = word(&data[here..]);
            let left = at ^ word(&data[here - 1..]);
            let over = at ^ word(&data[here - up..]);
            // A sprite's pixels are mostly literals: the next positions that
            // start no match (up to six) are passed on together, all six
            // written and the extra ones dropped, so that no branch depends
            // on how many there were.
            let starts = (threes(left) | threes(over)) & FIRST_SIX;
            let literal_run = starts.trailing_zeros().min(48) as usize / 8;
            if literal_run > 0 {
                let kept = symbols.len() + literal_run;
                let six: [u32; 6] = std::array::from_fn(|i| u32::from((at >> (8 * i)) as u8));
                symbols.extend_from_slice(&six.map(|b| b | no_distance));
                symbols.truncate(kept);
                here += literal_run;
                continue;
            }
            // A match of at least three bytes starts here; only one of all
            // eight is measured further.
            run = same(left);
            above = same(over);
            if run == 8 {
                run += common(&data[here + 7..here - 1 + max], &data[here + 8..here + max]);
            }
            if above == 8 && run < max {
                above += common(
                    &data[here + 8 - up..here - up + max],
                    &data[here + 8..here + max],
                );
            }
        } else if here >= 1 {
            run = common(&data[here - 1..here - 1 + max], &data[here..here + max]);
            if up != 0 && here >= up {
                above = common(&data[here - up..here - up + max], &data[here..here + max]);
            }
        }
        let (len, part) = if above > run {
            (above, up_part)
        } else {
            (run, left_part)
        };
        if len >= MIN_MATCH {
            symbols.push((256 + len - MIN_MATCH) as u32 | part);
            here += len;
        } else {
            symbols.push(u32::from(data[here]) | no_distance);
            here += 1;
        }
    }
    here
}

/// Writes one dynamic block of `symbols`.
fn write_block(w: &mut BitWriter, last: bool, symbols: &[u32]) {
    let lengths = &*LENGTHS;
    let mut per_entry = [0u32; 512];
    let mut distances = [0u32; DISTANCES + 1];
    for &s in symbols {
        per_entry[(s & 511) as usize] += 1;
        distances[(s >> DISTANCE_SHIFT & 31) as usize] += 1;
    }
    // Literals count as themselves, lengths as their symbols.
    let mut literals = [0u32; LITERALS];
    literals[..256].copy_from_slice(&per_entry[..256]);
    for (&count, &(code, _, _)) in per_entry[256..].iter().zip(lengths.iter()) {
        literals[257 + usize::from(code)] += count;
    }
    literals[END_OF_BLOCK] += 1;
    let (lit, dist) = huffman::dynamic_header(w, last, &literals, &distances[..DISTANCES]);
    // What each symbol's two parts write: bits and how many, the length's
    // extra bits and the distance code joined.
    let mut entries = [(0u64, 0u32); 512];
    for (byte, e) in entries[..256].iter_mut().enumerate() {
        *e = (u64::from(lit.codes[byte]), u32::from(lit.lengths[byte]));
    }
    for (length, &(code, bits, extra)) in lengths.iter().enumerate() {
        let symbol = 257 + usize::from(code);
        let n = u32::from(lit.lengths[symbol]);
        entries[256 + length] = (
            u64::from(lit.codes[symbol]) | u64::from(extra) << n,
            n + u32::from(bits),
        );
    }
    // Per distance symbol: its code, the code's length, and that with the
    // extra bits; nothing for a literal's.
    let mut far = [(0u64, 0u32, 0u32); 32];
    for (d, f) in far[..DISTANCES].iter_mut().enumerate() {
        let n = u32::from(dist.lengths[d]);
        *f = (
            u64::from(dist.codes[d]),
            n,
            n + u32::from(DISTANCE_EXTRA[d]),
        );
    }
    // The block's length in bits, for the room to write it in.
    let bits: u64 = per_entry
        .iter()
        .zip(&entries)
        .map(|(&count, &(_, n))| u64::from(count) * u64::from(n))
        .chain(
            distances
                .iter()
                .zip(&far)
                .map(|(&count, &(_, _, n))| u64::from(count) * u64::from(n)),
        )
        .sum();
    w.put_all(
        bits,
        symbols.iter().map(|&s| {
            let (a, na) = entries[(s & 511) as usize];
            let (b, n, nb) = far[(s >> DISTANCE_SHIFT & 31) as usize];
            (a | (b | u64::from(s >> EXTRA_SHIFT) << n) << na, na + nb)
        }),
    );
    lit.write(w, END_OF_BLOCK);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(rows: &[u8], stride: usize) -> Vec<u8> {
        let mut out = Vec::new();
        zlib_rows(rows, stride, &mut Deflater::default(), &mut out);
        let back = miniz_oxide::inflate::decompress_to_vec_zlib(&out).expect("inflates");
        assert_eq!(back, rows, "the rows come back");
        out
    }

    /// A picture-like image: squares of one index, a few "sprites" of
    /// varied bytes repeated, and noise.
    fn picture(width: usize, height: usize) -> Vec<u8> {
        let mut seed = 7u32;
        let mut next = move || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as u8
        };
        let sprite: Vec<u8> = (0..40 * 40).map(|_| next() % 9).collect();
        let mut rows = Vec::new();
        for y in 0..height {
            rows.push(0);
            for x in 0..width {
                let square = ((x / 100 + y / 100) % 2) as u8;
                let (sx, sy) = (x % 100, y % 100);
                let p = if (30..70).contains(&sx) && (30..70).contains(&sy) && (x / 100) % 3 == 0 {
                    sprite[(sy - 30) * 40 + sx - 30]
                } else if y + 20 > height {
                    next()
                } else {
                    square
                };
                rows.push(p);
            }
        }
        rows
    }

    #[test]
    fn a_picture_comes_back_and_is_small() {
        let (w, h) = (800, 500);
        let rows = picture(w, h);
        let out = round_trip(&rows, w + 1);
        assert!(out.len() < rows.len() / 8, "{} bytes", out.len());
    }

    #[test]
    fn random_rows_of_every_shape_come_back() {
        // Few distinct bytes in runs, as in a picture, at strides from 1 to
        // past the window, and lengths that end mid-row.
        let mut seed = 99u64;
        let mut next = move |below: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % below
        };
        for _ in 0..300 {
            let wide = next(10) == 0;
            let stride = 1 + next(if wide { 40_000 } else { 300 }) as usize;
            let len = next(20_000) as usize;
            let kinds = 1 + next(6);
            let mut rows = Vec::with_capacity(len);
            while rows.len() < len {
                let byte = next(kinds) as u8;
                let short = next(2) == 0;
                let run = 1 + next(if short { 4 } else { 400 }) as usize;
                if next(3) == 0 && rows.len() >= stride {
                    // Repeat the row above for a while.
                    let from = rows.len() - stride;
                    for i in 0..run.min(len - rows.len()) {
                        rows.push(rows[from + i]);
                    }
                } else {
                    rows.extend(std::iter::repeat_n(byte, run.min(len - rows.len())));
                }
            }
            round_trip(&rows, stride);
        }
    }

    #[test]
    fn edge_cases_come_back() {
        round_trip(&[], 1);
        round_trip(&[0], 1);
        round_trip(&[0, 5, 5, 5, 5, 5, 5], 7);
        round_trip(&vec![3; 100_000], 1001);
        // Longer than the window, with no repeats nearby.
        let noise: Vec<u8> = (0..200_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        round_trip(&noise, 40_001);
        // A stride over the window's reach: the row above is never used.
        round_trip(&picture(40_000, 3), 40_001);
    }
}
