//! The zlib stream of a PNG's pixels (RFC 1950/1951), made for Tokar's
//! pictures: faster than a general-purpose level-1 deflate, and smaller.
//!
//! A picture is flat colour almost everywhere: board squares, panels, the
//! inside of icons. So instead of hashing every position, the encoder asks at
//! each pixel whether the pixels go on as the one to the left, as the row
//! above, or as the row above shifted by one pixel (diagonal strands and
//! edges), and where none does, whether the same two pixels started a literal
//! not long before (a row of identical pieces, repeated letters). The longest
//! answer is taken as a match (whole pixels, straight from the RGBA canvas),
//! anything else is three literal bytes (antialiased edges, text). Symbols are
//! then coded with Huffman codes built for each band of the picture (one
//! dynamic block per band), which is where a fast general encoder (static
//! codes at zlib level 1) loses bytes.

/// Bytes per pixel in the stream (8-bit RGB) and on the canvas (RGBA).
const RGB: usize = 3;
const RGBA: usize = 4;

/// Shortest and longest match in bytes; whole pixels per match at most
/// (86 pixels are 258 bytes).
const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = 258;
const MAX_RUN: usize = MAX_MATCH / RGB;
/// Diagonal candidates are tried only when no straight one reaches this many
/// pixels (and then give at most this many).
const DIAGONAL_BELOW: usize = 8;
/// Farthest back a deflate match may reach.
const WINDOW: usize = 32 * 1024;

/// Symbols per deflate block: the codes adapt to each band of the picture
/// (header, board, panels) without paying for a code table too often.
const BLOCK_SYMBOLS: usize = 16 * 1024;

/// Longest code for literal/length and distance symbols, and for the code
/// length alphabet (RFC 1951, 3.2.7).
const MAX_CODE: u32 = 15;
const MAX_CODE_LENGTH_CODE: u32 = 7;

/// Working space kept between pictures.
#[derive(Default)]
pub struct Scratch {
    symbols: Vec<Symbol>,
    counts: Vec<Counts>,
    row: Vec<u8>,
    recent: Vec<(u32, u32)>,
}

/// Entries in the table of recent literal pixels (a power of two).
const RECENT: usize = 4096;

/// The zlib stream of an opaque RGBA picture as PNG scanlines: each row a
/// filter byte (0, none) and its RGB bytes.
pub fn zlib(rgba: &[u8], width: usize, scratch: &mut Scratch) -> Vec<u8> {
    let rows = if width == 0 {
        0
    } else {
        rgba.len() / (width * RGBA)
    };
    let stride = width * RGB + 1;
    let line = width * RGBA;
    let mut adler = 1;
    let Scratch {
        symbols,
        counts,
        row,
        recent,
    } = scratch;
    symbols.clear();
    counts.clear();
    row.clear();
    row.resize(stride, 0);
    recent.clear();
    recent.resize(RECENT, (0, 0));
    // Candidates, tried in this order (ties go to the earlier, whose distance
    // costs fewer extra bits): left, up, up and left, up and right.
    // Rows too long for the window to reach the row above have only the left one.
    let up_ok = width > 0 && stride + RGB <= WINDOW;
    let distances = if up_ok {
        [RGB, stride, stride + RGB, stride - RGB]
    } else {
        [RGB; 4]
    };
    let mut parser = Parser {
        symbols,
        counts,
        rgba,
        width,
        stride,
        slots: distances.map(|d| distance_code(d).0),
        recent,
    };
    for r in 0..rows {
        let cur = &rgba[r * line..(r + 1) * line];
        let above = if up_ok && r > 0 {
            &rgba[(r - 1) * line..r * line]
        } else {
            &[]
        };
        rgba_to_rgb(&mut row[1..], cur);
        adler = zlib_rs::adler32::adler32(adler, row);
        parser.row(r, cur, above, row);
    }
    let mut out = Bits::with_capacity(symbols.len() + 1024);
    // zlib header: deflate, 32 KiB window, fastest; a multiple of 31.
    out.put(0x78, 8);
    out.put(0x01, 8);
    if counts.is_empty() {
        counts.push(Counts::default());
    }
    let blocks = counts.len();
    for (n, c) in counts.iter().enumerate() {
        let first = n * BLOCK_SYMBOLS;
        let block = &symbols[first.min(symbols.len())..(first + BLOCK_SYMBOLS).min(symbols.len())];
        write_block(&mut out, block, c, &distances, n + 1 == blocks);
    }
    let mut bytes = out.finish();
    bytes.extend_from_slice(&adler.to_be_bytes());
    bytes
}

/// Drops the alpha byte of each pixel (the canvas is opaque).
pub fn rgba_to_rgb(rgb: &mut [u8], rgba: &[u8]) {
    // Eight pixels (32 bytes) become 24: four words in, three out, each pair
    // of pixels packed into 48 bits.
    let pair = |s: &[u8], at: usize| {
        let x = u64::from_le_bytes(s[at..at + 8].try_into().expect("8 bytes"));
        x & 0xff_ffff | (x >> 8) & 0xffff_ff00_0000
    };
    for (d, s) in rgb.chunks_exact_mut(24).zip(rgba.chunks_exact(32)) {
        let (a, b, c, e) = (pair(s, 0), pair(s, 8), pair(s, 16), pair(s, 24));
        d[0..8].copy_from_slice(&(a | b << 48).to_le_bytes());
        d[8..16].copy_from_slice(&(b >> 16 | c << 32).to_le_bytes());
        d[16..24].copy_from_slice(&(c >> 32 | e << 16).to_le_bytes());
    }
    let done = rgba.len() / 32 * 8;
    for (d, s) in rgb[done * 3..]
        .chunks_exact_mut(3)
        .zip(rgba[done * 4..].chunks_exact(4))
    {
        d.copy_from_slice(&s[..3]);
    }
}

/// What one parsed step writes: three entries of the block's code table
/// (see [`write_block`]) and raw extra bits. A literal byte (the filter byte)
/// or a pixel's three literal bytes; a match's length and one of the four
/// candidate distances; or a match's length, a distance code and the
/// distance's extra bits (a match with a recent pair).
type Symbol = [u16; 4];

/// Where the code table holds match lengths, the candidates' distances,
/// distance codes (extra bits written from the symbol), and nothing.
const LENGTHS_AT: u16 = 256;
const DISTANCES_AT: u16 = LENGTHS_AT + MAX_MATCH as u16 + 1;
const DISTANCE_CODES_AT: u16 = DISTANCES_AT + 4;
const NOTHING: u16 = DISTANCE_CODES_AT + 30;
const TABLE: usize = NOTHING as usize + 1;

/// How often each literal/length and distance symbol occurs in a block.
#[derive(Clone)]
struct Counts {
    lit: [u32; 286],
    dist: [u32; 30],
}

impl Default for Counts {
    fn default() -> Counts {
        Counts {
            lit: [0; 286],
            dist: [0; 30],
        }
    }
}

/// Pixel `p` of an RGBA row (alpha included: the canvas is opaque).
#[inline]
fn pixel(row: &[u8], p: usize) -> u32 {
    u32::from_ne_bytes(row[p * RGBA..p * RGBA + RGBA].try_into().expect("4 bytes"))
}

/// How many pixels from `a` on equal those from `b` on, up to `max`: sixteen
/// pixels a step while they agree (runs are long), then two.
#[inline(always)]
fn run(x: &[u8], a: usize, y: &[u8], b: usize, max: usize) -> usize {
    let (x, y) = (
        &x[a * RGBA..(a + max) * RGBA],
        &y[b * RGBA..(b + max) * RGBA],
    );
    let word = |s: &[u8], at: usize| u64::from_ne_bytes(s[at..at + 8].try_into().expect("8 bytes"));
    let mut n = 0;
    while n + 16 <= max {
        let (p, q) = (&x[n * RGBA..][..64], &y[n * RGBA..][..64]);
        let diff = (0..8).fold(0, |d, k| d | (word(p, 8 * k) ^ word(q, 8 * k)));
        if diff != 0 {
            break;
        }
        n += 16;
    }
    while n + 2 <= max {
        let diff = word(x, n * RGBA) ^ word(y, n * RGBA);
        if diff != 0 {
            let same = if cfg!(target_endian = "little") {
                diff.trailing_zeros()
            } else {
                diff.leading_zeros()
            };
            return n + (same / 32) as usize;
        }
        n += 2;
    }
    if n < max && pixel(x, n) == pixel(y, n) {
        n += 1;
    }
    n
}

/// Greedy parse, one row at a time, counting symbols per block as it goes.
struct Parser<'a> {
    symbols: &'a mut Vec<Symbol>,
    counts: &'a mut Vec<Counts>,
    /// The whole picture, and its rows' length in the stream.
    rgba: &'a [u8],
    width: usize,
    stride: usize,
    /// The distance symbol of each candidate.
    slots: [usize; 4],
    /// Where a pair of pixels last started a literal (row + 1 and column, by
    /// a hash of the pair): repeated sprites (a row of pawns) and glyphs.
    recent: &'a mut [(u32, u32)],
}

impl Parser<'_> {
    /// Starts a new block's counts every [`BLOCK_SYMBOLS`] symbols.
    #[inline]
    fn counts(&mut self) -> &mut Counts {
        if self.symbols.len().is_multiple_of(BLOCK_SYMBOLS) {
            self.counts.push(Counts::default());
        }
        self.counts.last_mut().expect("a block")
    }

    fn literals(&mut self, bytes: &[u8]) {
        let counts = self.counts();
        let mut symbol = [NOTHING, NOTHING, NOTHING, 0];
        for (s, &b) in symbol.iter_mut().zip(bytes) {
            counts.lit[b as usize] += 1;
            *s = b as u16;
        }
        self.symbols.push(symbol);
    }

    /// Records a match of `bytes` bytes against a nearby candidate (its
    /// distance slot of the band's own code).
    fn matched(&mut self, bytes: usize, candidate: usize) {
        let slot = self.slots[candidate];
        self.push_match(bytes, slot, DISTANCES_AT + candidate as u16, 0);
    }

    /// Records a match of `bytes` bytes `dist` bytes back (a DEFLATE
    /// distance code and its extra bits).
    fn matched_far(&mut self, bytes: usize, dist: usize) {
        let (code, _, extra) = distance_code(dist);
        self.push_match(bytes, code, DISTANCE_CODES_AT + code as u16, extra as u16);
    }

    fn push_match(&mut self, bytes: usize, dist_code: usize, dist_symbol: u16, extra: u16) {
        let counts = self.counts();
        counts.lit[LENGTH_CODES[bytes].0 as usize] += 1;
        counts.dist[dist_code] += 1;
        self.symbols
            .push([LENGTHS_AT + bytes as u16, dist_symbol, NOTHING, extra]);
    }

    /// A match elsewhere for the pixels from `p` on in row `r`, where nothing
    /// near matches: the last literal that started with the same two pixels,
    /// if it is in reach and at least two pixels agree. Records this place.
    fn far(&mut self, r: usize, p: usize) -> Option<(usize, usize)> {
        let w = self.width;
        let at = r * w + p;
        let pair = u64::from_ne_bytes(
            self.rgba[at * RGBA..at * RGBA + 8]
                .try_into()
                .expect("8 bytes"),
        );
        let slot =
            (pair.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - RECENT.trailing_zeros())) as usize;
        let (row, fp) = std::mem::replace(&mut self.recent[slot], (r as u32 + 1, p as u32));
        let (fr, fp) = ((row as usize).checked_sub(1)?, fp as usize);
        let from = fr * w + fp;
        let dist = (r * self.stride + p * RGB) - (fr * self.stride + fp * RGB);
        if dist > WINDOW {
            return None;
        }
        let max = (w - p).min(w - fp).min(MAX_RUN);
        let n = run(self.rgba, at, self.rgba, from, max);
        (n >= 2).then_some((n, dist))
    }

    /// Parses row `r`: `cur` and `above` are RGBA (`above` empty on the first
    /// row or when rows are too long to reach back to), `rgb` the scanline
    /// (filter byte and RGB) the symbols must reproduce.
    fn row(&mut self, r: usize, cur: &[u8], above: &[u8], rgb: &[u8]) {
        let w = self.width;
        let has_above = !above.is_empty();
        self.literals(&rgb[..1]);
        let mut p = 0;
        while p < w {
            let here = pixel(cur, p);
            let left = p > 0 && pixel(cur, p - 1) == here;
            let (up, up_left, up_right) = if has_above {
                (
                    pixel(above, p) == here,
                    p > 0 && pixel(above, p - 1) == here,
                    p + 1 < w && pixel(above, p + 1) == here,
                )
            } else {
                (false, false, false)
            };
            if !(left | up | up_left | up_right) {
                if let Some((len, dist)) = (p + 1 < w).then(|| self.far(r, p)).flatten() {
                    self.matched_far(len * RGB, dist);
                    p += len;
                } else {
                    self.literals(&rgb[1 + p * RGB..1 + (p + 1) * RGB]);
                    p += 1;
                }
                continue;
            }
            let max = (w - p).min(MAX_RUN);
            let (mut len, mut best) = (0, 0);
            if left {
                len = run(cur, p, cur, p - 1, max);
            }
            if up && len < max {
                let n = run(cur, p, above, p, max);
                if n > len {
                    (len, best) = (n, 1);
                }
            }
            // The diagonals catch slanted edges and strands: short runs, only
            // looked for when nothing straight goes on for long.
            let max = max.min(len.max(DIAGONAL_BELOW));
            if up_left && len < max {
                let n = run(cur, p, above, p - 1, max);
                if n > len {
                    (len, best) = (n, 2);
                }
            }
            if up_right && len < max {
                let n = run(cur, p, above, p + 1, max.min(w - 1 - p));
                if n > len {
                    (len, best) = (n, 3);
                }
            }
            self.matched(len * RGB, best);
            p += len;
        }
    }
}

/// Length symbol, extra bit count and extra value by match length.
static LENGTH_CODES: [(u16, u8, u8); MAX_MATCH + 1] = length_codes();

const fn length_codes() -> [(u16, u8, u8); MAX_MATCH + 1] {
    let mut table = [(0, 0, 0); MAX_MATCH + 1];
    let mut len = MIN_MATCH;
    while len <= MAX_MATCH {
        let (code, n, extra) = length_code(len);
        table[len] = (code as u16, n as u8, extra as u8);
        len += 1;
    }
    table
}

/// Length symbol (257..=285), extra bit count and extra value for a match length.
const fn length_code(len: usize) -> (usize, u32, u32) {
    const BASE: [u16; 29] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ];
    if len == MAX_MATCH {
        return (285, 0, 0);
    }
    let mut code = 28;
    while BASE[code] as usize > len {
        code -= 1;
    }
    let extra = if code < 8 { 0 } else { (code as u32 - 4) / 4 };
    (257 + code, extra, (len - BASE[code] as usize) as u32)
}

/// Distance symbol (0..=29), extra bit count and extra value for a distance.
fn distance_code(dist: usize) -> (usize, u32, u32) {
    if dist <= 4 {
        return (dist - 1, 0, 0);
    }
    let d = (dist - 1) as u32;
    let top = 31 - d.leading_zeros(); // floor(log2(d)), at least 2
    let extra = top - 1;
    let code = 2 * top + ((d >> extra) & 1);
    (code as usize, extra, d & ((1 << extra) - 1))
}

/// Writes bits least significant first, as deflate wants. Each write stores
/// the whole 64-bit accumulator and moves on by the bytes it completed, which
/// needs no branch on how full the accumulator is.
struct Bits {
    bytes: Vec<u8>,
    /// Bytes complete.
    len: usize,
    acc: u64,
    /// Bits in `acc` not yet counted in `len` (at most 7 between writes).
    count: u32,
}

impl Bits {
    fn with_capacity(capacity: usize) -> Bits {
        Bits {
            bytes: vec![0; capacity.max(64)],
            len: 0,
            acc: 0,
            count: 0,
        }
    }

    /// Appends the low `n` bits of `value` (`n` at most 56, higher bits clear).
    #[inline]
    fn put(&mut self, value: u64, n: u32) {
        self.acc |= value << self.count;
        self.count += n;
        if self.len + 8 > self.bytes.len() {
            self.bytes.resize(self.bytes.len() * 2, 0);
        }
        self.bytes[self.len..self.len + 8].copy_from_slice(&self.acc.to_le_bytes());
        let whole = self.count / 8;
        self.len += whole as usize;
        self.acc >>= whole * 8;
        self.count -= whole * 8;
    }

    fn finish(mut self) -> Vec<u8> {
        self.len += self.count.div_ceil(8) as usize;
        self.bytes.truncate(self.len);
        self.bytes
    }
}

/// A canonical Huffman code: each symbol's length and its bits, reversed so
/// they can be written least significant first.
struct Code {
    lengths: Vec<u8>,
    bits: Vec<u16>,
}

impl Code {
    /// The code for these symbol counts, no code longer than `limit`. At
    /// least two symbols always get a code, so every code is complete.
    fn new(counts: &[u32], limit: u32) -> Code {
        let mut counts = counts.to_vec();
        for c in counts.iter_mut().take(2) {
            *c = (*c).max(1);
        }
        let lengths = lengths(&counts, limit);
        let bits = canonical(&lengths);
        Code { lengths, bits }
    }

    #[inline]
    fn put(&self, out: &mut Bits, symbol: usize) {
        out.put(self.bits[symbol] as u64, self.lengths[symbol] as u32);
    }
}

/// Huffman code lengths for the symbols with a non-zero count (at least two),
/// limited to `limit` bits.
fn lengths(counts: &[u32], limit: u32) -> Vec<u8> {
    // Leaves sorted by count, then the two-queue Huffman construction.
    let mut leaves: Vec<(u32, usize)> = counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(s, &c)| (c, s))
        .collect();
    leaves.sort_unstable();
    let n = leaves.len();
    // Nodes 0..n are the leaves, n.. the merged nodes; parent of each.
    let mut weight: Vec<u64> = leaves.iter().map(|&(c, _)| c as u64).collect();
    let mut parent = vec![0usize; 2 * n - 1];
    let (mut next_leaf, mut next_node) = (0, n);
    let mut take = |weight: &Vec<u64>, made: usize| {
        let leaf_ok = next_leaf < n;
        let node_ok = next_node < made;
        if leaf_ok && (!node_ok || weight[next_leaf] <= weight[next_node]) {
            next_leaf += 1;
            next_leaf - 1
        } else {
            next_node += 1;
            next_node - 1
        }
    };
    for made in n..2 * n - 1 {
        let a = take(&weight, made);
        let b = take(&weight, made);
        weight.push(weight[a] + weight[b]);
        parent[a] = made;
        parent[b] = made;
    }
    // Depths: the root (last node) is 0, every other node one more than its parent.
    let mut depth = vec![0u32; 2 * n - 1];
    for node in (0..2 * n - 2).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    // How many codes of each length, folded down to the limit and rebalanced
    // so the lengths still form a complete code (as miniz does).
    let mut per_length = vec![0u32; 64];
    for &d in &depth[..n] {
        per_length[d as usize] += 1;
    }
    let limit = limit as usize;
    let over: u32 = per_length[limit + 1..].iter().sum();
    per_length[limit] += over;
    per_length[limit + 1..].iter_mut().for_each(|c| *c = 0);
    let mut total: u64 = (1..=limit)
        .map(|l| (per_length[l] as u64) << (limit - l))
        .sum();
    while total > 1 << limit {
        per_length[limit] -= 1;
        for l in (1..limit).rev() {
            if per_length[l] != 0 {
                per_length[l] -= 1;
                per_length[l + 1] += 2;
                break;
            }
        }
        total -= 1;
    }
    // The rarest symbols get the longest codes.
    let mut out = vec![0u8; counts.len()];
    let mut leaf = leaves.iter();
    for l in (1..=limit).rev() {
        for _ in 0..per_length[l] {
            let &(_, s) = leaf.next().expect("one leaf per code");
            out[s] = l as u8;
        }
    }
    out
}

/// Canonical codes for these lengths (RFC 1951, 3.2.2), bit-reversed.
fn canonical(lengths: &[u8]) -> Vec<u16> {
    let mut per_length = [0u16; 16];
    for &l in lengths {
        per_length[l as usize] += 1;
    }
    per_length[0] = 0;
    let mut next = [0u16; 16];
    let mut code = 0u16;
    for l in 1..16 {
        code = (code + per_length[l - 1]) << 1;
        next[l] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[l as usize];
            next[l as usize] += 1;
            c.reverse_bits() >> (16 - l)
        })
        .collect()
}

/// One dynamic-Huffman block holding `symbols`.
fn write_block(
    out: &mut Bits,
    symbols: &[Symbol],
    counts: &Counts,
    distances: &[usize; 4],
    last: bool,
) {
    let mut lit_counts = counts.lit;
    lit_counts[256] = 1;
    let lit = Code::new(&lit_counts, MAX_CODE);
    let dist = Code::new(&counts.dist, MAX_CODE);
    out.put(last as u64, 1);
    out.put(2, 2);
    write_tables(out, &lit.lengths, &dist.lengths);
    // What to write for each table entry, with extra bits after the code:
    // literal bytes, match lengths, distances, nothing. A symbol's (up to
    // three) entries go out in one write, without a branch on its kind.
    // Each entry: its bits (with any fixed extra bits after the code), their
    // count, and how many raw extra bits from the symbol follow it.
    let mut table = [(0u64, 0u32, 0u32); TABLE];
    for (byte, t) in table.iter_mut().enumerate().take(256) {
        *t = (lit.bits[byte] as u64, lit.lengths[byte] as u32, 0);
    }
    for len in MIN_MATCH..=MAX_MATCH {
        let (code, n, extra) = LENGTH_CODES[len];
        let bits = lit.lengths[code as usize] as u32;
        table[LENGTHS_AT as usize + len] = (
            lit.bits[code as usize] as u64 | (extra as u64) << bits,
            bits + n as u32,
            0,
        );
    }
    for (k, &d) in distances.iter().enumerate() {
        let (code, n, extra) = distance_code(d);
        let bits = dist.lengths[code] as u32;
        table[DISTANCES_AT as usize + k] =
            (dist.bits[code] as u64 | (extra as u64) << bits, bits + n, 0);
    }
    for code in 0..30 {
        let extra = if code < 4 { 0 } else { (code as u32 - 2) / 2 };
        table[DISTANCE_CODES_AT as usize + code] =
            (dist.bits[code] as u64, dist.lengths[code] as u32, extra);
    }
    for s in symbols {
        // One write a symbol, without a branch on its kind: at most
        // 15 + 5 + 15 + 13 = 48 bits (a match), or 45 (three literals).
        let (a, na, _) = table[s[0] as usize];
        let (b, nb, nx) = table[s[1] as usize];
        let (c, nc, _) = table[s[2] as usize];
        let x = s[3] as u64;
        out.put(
            a | b << na | x << (na + nb) | c << (na + nb + nx),
            na + nb + nx + nc,
        );
    }
    lit.put(out, 256);
}

/// The two code tables of a dynamic block, run-length coded (RFC 1951, 3.2.7).
fn write_tables(out: &mut Bits, lit: &[u8], dist: &[u8]) {
    let hlit = lit
        .iter()
        .rposition(|&l| l != 0)
        .map_or(0, |p| p + 1)
        .max(257);
    let hdist = dist
        .iter()
        .rposition(|&l| l != 0)
        .map_or(0, |p| p + 1)
        .max(1);
    let all: Vec<u8> = lit[..hlit].iter().chain(&dist[..hdist]).copied().collect();
    // (symbol, extra bits, extra value) of the code length alphabet.
    let mut runs: Vec<(u8, u32, u32)> = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let l = all[i];
        let run = all[i..].iter().take_while(|&&x| x == l).count();
        if l == 0 && run >= 11 {
            let n = run.min(138);
            runs.push((18, 7, (n - 11) as u32));
            i += n;
        } else if l == 0 && run >= 3 {
            runs.push((17, 3, (run - 3) as u32));
            i += run;
        } else if l != 0 && run >= 4 {
            runs.push((l, 0, 0));
            let n = (run - 1).min(6);
            runs.push((16, 2, (n - 3) as u32));
            i += 1 + n;
        } else {
            runs.push((l, 0, 0));
            i += 1;
        }
    }
    let mut counts = [0u32; 19];
    for &(s, _, _) in &runs {
        counts[s as usize] += 1;
    }
    let code = Code::new(&counts, MAX_CODE_LENGTH_CODE);
    const ORDER: [usize; 19] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ];
    let hclen = ORDER
        .iter()
        .rposition(|&s| code.lengths[s] != 0)
        .map_or(0, |p| p + 1)
        .max(4);
    out.put((hlit - 257) as u64, 5);
    out.put((hdist - 1) as u64, 5);
    out.put((hclen - 4) as u64, 4);
    for &s in &ORDER[..hclen] {
        out.put(code.lengths[s] as u64, 3);
    }
    for (s, n, extra) in runs {
        code.put(out, s as usize);
        out.put(extra as u64, n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inflate(z: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len + 1];
        let (got, rc) = zlib_rs::decompress_slice(&mut out, z, zlib_rs::InflateConfig::default());
        assert_eq!(rc, zlib_rs::ReturnCode::Ok, "inflate failed");
        got.to_vec()
    }

    /// A pseudo-random generator, so the tests need no dependency.
    fn noise(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Opaque RGBA rows shaped like pictures: flat runs, copies of the row
    /// above (straight or shifted by a pixel), noise, sparse noise.
    fn picture(width: usize, height: usize, seed: u64) -> Vec<u8> {
        let row = width * RGBA;
        let mut seed = seed | 1;
        let mut rgba: Vec<u8> = Vec::with_capacity(row * height);
        for y in 0..height {
            let kind = noise(&mut seed) % 6;
            for x in 0..width {
                let above = |dx: isize| {
                    let ax = (x as isize + dx).clamp(0, width as isize - 1) as usize;
                    let at = (y - 1) * row + ax * RGBA;
                    [rgba[at], rgba[at + 1], rgba[at + 2]]
                };
                let n = noise(&mut seed);
                let px = match kind {
                    0 if y > 0 => above(0),
                    1 => [(x / 7) as u8, 3, (x / 13) as u8],
                    2 => [n as u8, (n >> 8) as u8, (n >> 16) as u8],
                    3 if y > 0 => above(1),
                    4 if y > 0 => above(-1),
                    _ if n.is_multiple_of(5) => [n as u8, 9, (n >> 8) as u8],
                    _ if y > 0 => above(0),
                    _ => [7, 7, 7],
                };
                rgba.extend_from_slice(&[px[0], px[1], px[2], 255]);
            }
        }
        rgba
    }

    /// The PNG scanlines a picture's stream must hold.
    fn scanlines(rgba: &[u8], width: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for row in rgba.chunks_exact((width * RGBA).max(1)) {
            out.push(0);
            for p in row.chunks_exact(RGBA) {
                out.extend_from_slice(&p[..RGB]);
            }
        }
        out
    }

    fn round_trip(rgba: &[u8], width: usize) -> usize {
        let z = zlib(rgba, width, &mut Scratch::default());
        let want = scanlines(rgba, width);
        assert_eq!(inflate(&z, want.len()), want, "width {width}");
        z.len()
    }

    #[test]
    fn round_trips_picture_like_data() {
        for (seed, width, height) in [
            (1, 800, 60),
            (2, 1, 1),
            (3, 5, 300),
            (4, 2, 50),
            (5, 800, 200),
            (6, 11_000, 3),
        ] {
            round_trip(&picture(width, height, seed), width);
        }
    }

    #[test]
    fn round_trips_edge_cases() {
        round_trip(&[], 800);
        round_trip(&[], 0);
        round_trip(&[1, 2, 3, 255], 1);
        let flat: Vec<u8> = [5, 5, 5, 255].repeat(100 * 300);
        round_trip(&flat, 100);
        // The same byte in every channel: runs that do not start on a pixel.
        let grey: Vec<u8> = (0..64 * 64)
            .flat_map(|i| {
                let v = (i % 7 / 3) as u8;
                [v, v, v, 255]
            })
            .collect();
        round_trip(&grey, 64);
    }

    #[test]
    fn repeated_sprites_are_found_far_away() {
        // Each row: a random 10-pixel pattern, repeated every 50 pixels on flat
        // ground, as a row of identical pieces is.
        let (width, height) = (400, 40);
        let mut seed = 7;
        let mut rgba = Vec::new();
        for _ in 0..height {
            let pattern: Vec<u64> = (0..10).map(|_| noise(&mut seed)).collect();
            for x in 0..width {
                let n = if x % 50 < 10 {
                    pattern[x % 50]
                } else {
                    0x30_2010
                };
                rgba.extend_from_slice(&[n as u8, (n >> 8) as u8, (n >> 16) as u8, 255]);
            }
        }
        // 40 rows of 10 random pixels are 1,200 bytes that cannot shrink; the
        // seven copies of each must cost next to nothing.
        let n = round_trip(&rgba, width);
        assert!(n < 3_000, "{n} bytes");
    }

    #[test]
    fn flat_pictures_compress_to_almost_nothing() {
        let flat: Vec<u8> = [240, 230, 200, 255].repeat(800 * 1000);
        let n = round_trip(&flat, 800);
        assert!(n < 12_000, "{n} bytes");
    }

    #[test]
    fn codes_respect_the_length_limit_and_are_complete() {
        // Fibonacci counts force a deep tree.
        let mut counts = vec![1u32, 1];
        while counts.len() < 30 {
            let n = counts.len();
            counts.push(counts[n - 1] + counts[n - 2]);
        }
        for limit in [7, 15] {
            let l = lengths(&counts, limit);
            assert!(l.iter().all(|&x| x >= 1 && x as u32 <= limit));
            let kraft: f64 = l.iter().map(|&x| 0.5f64.powi(x as i32)).sum();
            assert!((kraft - 1.0).abs() < 1e-12, "kraft sum {kraft}");
        }
    }

    #[test]
    fn length_and_distance_codes_match_the_tables() {
        assert_eq!(length_code(3), (257, 0, 0));
        assert_eq!(length_code(10), (264, 0, 0));
        assert_eq!(length_code(12), (265, 1, 1));
        assert_eq!(length_code(227), (284, 5, 0));
        assert_eq!(length_code(257), (284, 5, 30));
        assert_eq!(length_code(258), (285, 0, 0));
        assert_eq!(distance_code(1), (0, 0, 0));
        assert_eq!(distance_code(3), (2, 0, 0));
        assert_eq!(distance_code(5), (4, 1, 0));
        assert_eq!(distance_code(8), (5, 1, 1));
        assert_eq!(distance_code(2401), (22, 10, 352));
        assert_eq!(distance_code(32768), (29, 13, 8191));
    }
}
