//! Native core of the lparscope nmon reader: one pass over the file in native code.
//!
//! An nmon recording is CSV-like text whose first field names the section:
//!
//! ```text
//! AAA,host,aixlpar                                  header (text, read by Python)
//! BBBP,119,lparstat -i,"Entitled Capacity : 1.30"   configuration (text)
//! CPU_ALL,CPU Total aixlpar,User%,Sys%,Wait%,Idle%  section header line (text)
//! ZZZZ,T0001,17:28:10,10-FEB-2016                   snapshot time (text)
//! CPU_ALL,T0001,32.2,29.2,0.1,38.5,,28              data row: tag, Tnnnn, values
//! TOP,2555992,T0002,9.64,9.64,0.00,51,...,j2pg,...  TOP row: tag, PID, Tnnnn, values and text
//! ```
//!
//! [`Scanner`] reads the input in two passes, each over blocks of `BLOCK` bytes (a block owns
//! the lines that start in it; block b goes to thread b % threads; a file is read block by
//! block, so memory stays near the size of the result):
//!
//! 1. split the lines and classify each one exactly like the pure-Python reader
//!    (`lparscope.nmon.fast.scan`: the tag and the snapshot field must sit in the first 32
//!    bytes of the line); note each data row (section, snapshot, field count, position) and
//!    keep the other lines (a few thousand: AAA, BBB*, ZZZZ, headers, UARG ...) as text for
//!    Python, which reads them as before and decides the columns of each section (TOP has
//!    text columns whose position depends on its header);
//! 2. parse the values of every row straight into its section's float64 columns (NaN for an
//!    empty field or a value that is not a number, which is also reported).
//!
//! Line ends: "\n", "\r\n" and a lone "\r" all end a line (as the Python reader's
//! `replace(b"\r\n", b"\n").replace(b"\r", b"\n")`).

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::fs::File;
use std::os::unix::fs::FileExt;

const BLOCK: u64 = 8 << 20; // bytes per block (default)
const WIN: usize = 32; // the classifier looks at the first 32 bytes of a line (as fast.scan)
const BAD_KEEP: usize = 20; // values that are not numbers, listed per section (the rest counted)

// --- numbers ------------------------------------------------------------------------------

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A field as a number, with the rules of Arrow's CSV float conversion (the Python reader):
/// spaces and tabs around are ignored, an optional sign, decimal or exponent notation,
/// "inf"/"infinity"/"nan"/"nan(...)" in any case. `None` when it is not a number.
/// (The caller handles the empty field, which is a missing value, not an error.)
fn parse_num(tok: &[u8]) -> Option<f64> {
    let mut t = tok;
    while let [b' ' | b'\t', rest @ ..] = t {
        t = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = t {
        t = rest;
    }
    let (neg, body) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        Some(_) => (false, t),
        None => return None,
    };
    // Fast path, exact: up to 15 digits with an optional point is m / 10^k, where both m and
    // 10^k are exact doubles, so one division gives the correctly rounded value.
    let mut m: u64 = 0;
    let mut digits = 0usize;
    let mut frac = 0usize;
    let mut i = 0;
    while i < body.len() && body[i].is_ascii_digit() {
        m = m.wrapping_mul(10).wrapping_add((body[i] - b'0') as u64);
        i += 1;
    }
    digits += i;
    if i < body.len() && body[i] == b'.' {
        i += 1;
        while i < body.len() && body[i].is_ascii_digit() {
            m = m.wrapping_mul(10).wrapping_add((body[i] - b'0') as u64);
            i += 1;
            frac += 1;
        }
    }
    let v = if i == body.len() && digits + frac > 0 && digits + frac <= 15 {
        m as f64 / POW10[frac]
    } else {
        slow_num(body)?
    };
    Some(if neg { -v } else { v })
}

fn slow_num(body: &[u8]) -> Option<f64> {
    let lower: Vec<u8> = body.iter().map(|c| c.to_ascii_lowercase()).collect();
    match lower.as_slice() {
        b"inf" | b"infinity" => return Some(f64::INFINITY),
        b"nan" => return Some(f64::NAN),
        [b'n', b'a', b'n', b'(', inner @ .., b')']
            if inner.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_') =>
        {
            return Some(f64::NAN)
        }
        _ => {}
    }
    // Only digits, one point and an exponent are left to the general parser.
    let first = *body.first()?;
    if !(first.is_ascii_digit() || first == b'.') {
        return None;
    }
    fast_float2::parse::<f64, _>(body).ok()
}

// --- line classification ------------------------------------------------------------------

/// What the classifier makes of a line: a data row of a section, or text for Python.
enum Line {
    Text,
    /// `tag_end`: position of the first comma;
    /// `snap`: the snapshot number; `top`: a TOP-style row (PID before the Tnnnn field).
    Row { tag_end: usize, snap: u32, top: bool },
}

/// Digits `win[begin..begin+count]` as a number, when there are 1..=`width` of them.
fn digits(win: &[u8], begin: usize, count: isize, width: isize) -> Option<u64> {
    if count <= 0 || count > width {
        return None;
    }
    let mut v: u64 = 0;
    for &c in win.get(begin..begin + count as usize)? {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + (c - b'0') as u64;
    }
    Some(v)
}

/// The commas of a line, 32 bytes at a time with byte counters (which the compiler turns into
/// SIMD compares; a plain filter().count() widened every byte to 64 bits).
fn commas(line: &[u8]) -> u32 {
    let mut chunks = line.chunks_exact(32);
    let mut n = 0u32;
    for c in &mut chunks {
        n += c.iter().fold(0u8, |k, &b| k + (b == b',') as u8) as u32;
    }
    n + chunks.remainder().iter().filter(|&&b| b == b',').count() as u32
}

fn numeric_tag(tag: &[u8]) -> bool {
    // Sections are named like CPU_ALL, DISKBUSY1, SEA+, ...; AAA, BBB*, ZZZZ, UARG and
    // ERROR lines are text.
    let ok = tag[0].is_ascii_alphabetic()
        && tag[1..].iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'-'));
    ok && !tag.starts_with(b"BBB") && !matches!(tag, b"AAA" | b"ZZZZ" | b"UARG" | b"ERROR")
}

/// The rules of `fast.scan` + `_Reader.pass1`, on the first 32 bytes of the line:
/// `TAG,Tnnnn,...` (tag 1..15 bytes, 1..7 digits) is a row of section TAG, and for TOP only
/// `TOP,pid,Tnnnn,...` (1..12 digits of pid). Everything else is text.
fn classify(line: &[u8]) -> Line {
    let len = line.len();
    let win = &line[..len.min(WIN)];
    let at = |i: usize| -> u8 { if i < win.len() { win[i] } else { 0 } };
    let Some(p1) = memchr::memchr(b',', win) else { return Line::Text };
    if p1 == 0 || p1 >= 16 || !numeric_tag(&line[..p1]) {
        return Line::Text;
    }
    let is_top_tag = &line[..p1] == b"TOP";
    let next_comma = |from: usize| memchr::memchr(b',', &win[from.min(win.len())..]).map(|i| i + from);
    let c2 = next_comma(p1 + 1);
    let short = len < WIN;
    let p2 = c2.unwrap_or(if short { len } else { WIN });
    let c1 = at(p1 + 1);
    if c1 == b'T' && (c2.is_some() || short) {
        if let Some(snap) = digits(win, p1 + 2, p2 as isize - p1 as isize - 2, 7) {
            return if is_top_tag { Line::Text } else { Line::Row { tag_end: p1, snap: snap as u32, top: false } };
        }
    }
    if !is_top_tag || c2.is_none() || !c1.is_ascii_digit() {
        return Line::Text;
    }
    let c3 = next_comma(p2 + 1);
    let p3 = c3.unwrap_or(if short { len } else { WIN });
    let pid_ok = digits(win, p1 + 1, p2 as isize - p1 as isize - 1, 12).is_some();
    if pid_ok && at((p2 + 1).min(WIN - 1)) == b'T' && (c3.is_some() || short) {
        if let Some(snap) = digits(win, p2 + 2, p3 as isize - p2 as isize - 2, 7) {
            return Line::Row { tag_end: p1, snap: snap as u32, top: true };
        }
    }
    Line::Text
}

// --- snapshot time lines ------------------------------------------------------------------

/// A ZZZZ line in its usual form, `ZZZZ,Tnnnn,hh:mm:ss,date` (exactly four fields, no spaces
/// around them, a valid time of day): (snapshot, digits of the snapshot field, seconds of the
/// day, date text). Any other form is left to Python as text (`lparscope.nmon.snapshots`).
fn zzzz(line: &[u8]) -> Option<(u32, u8, i32, &[u8])> {
    let rest = line.strip_prefix(b"ZZZZ,T")?;
    let c1 = memchr::memchr(b',', rest)?;
    let digits = &rest[..c1];
    if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let snap = digits.iter().fold(0u32, |v, c| v * 10 + (c - b'0') as u32);
    let rest = &rest[c1 + 1..];
    let hms = rest.get(..9)?;
    let num = |i: usize| -> Option<i32> {
        let (a, b) = (hms[i].wrapping_sub(b'0'), hms[i + 1].wrapping_sub(b'0'));
        (a < 10 && b < 10).then_some((a * 10 + b) as i32)
    };
    if hms[2] != b':' || hms[5] != b':' || hms[8] != b',' {
        return None;
    }
    let (h, m, sec) = (num(0)?, num(3)?, num(6)?);
    if h > 23 || m > 59 || sec > 59 {
        return None;
    }
    let date = &rest[9..];
    let printable = |c: &u8| (0x21..=0x7e).contains(c);
    if !date.first().is_some_and(printable) || !date.last().is_some_and(printable)
        || !date.iter().all(|c| *c == b' ' || printable(c)) || date.contains(&b',')
    {
        return None;
    }
    Some((snap, digits.len() as u8, h * 3600 + m * 60 + sec, date))
}

// --- a small fast hash for section names and dates ----------------------------------------

#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0.rotate_left(5) ^ n as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        // The product's high bits depend on every input bit, its low bits only on the input's low
        // bits, and the table indexes by the low bits: without the rotation, tags that differ only
        // after their first bytes ("S0000001", "S0000002" ...) all fell into one bucket chain
        // (400,000 of them took 11 s).
        self.0.rotate_left(26)
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// A section name (at most 15 bytes, see [`classify`]) as two words: hashed and compared
/// without a loop over its bytes.
#[derive(PartialEq, Eq, Clone, Copy)]
struct Tag(u64, u64);

impl Tag {
    fn new(tag: &[u8]) -> Tag {
        let mut b = [0u8; 16];
        b[..tag.len()].copy_from_slice(tag);
        b[15] = tag.len() as u8;
        Tag(u64::from_le_bytes(b[..8].try_into().unwrap()), u64::from_le_bytes(b[8..].try_into().unwrap()))
    }
}

impl std::hash::Hash for Tag {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.0 ^ self.1.rotate_left(29));
    }
}

// --- input --------------------------------------------------------------------------------

enum Input<'a> {
    Mem(&'a [u8]),
    File(File, u64),
}

impl Input<'_> {
    fn size(&self) -> u64 {
        match self {
            Input::Mem(d) => d.len() as u64,
            Input::File(_, n) => *n,
        }
    }

    fn read(&self, start: u64, end: u64) -> std::io::Result<Cow<'_, [u8]>> {
        match self {
            Input::Mem(d) => Ok(Cow::Borrowed(&d[start as usize..end as usize])),
            Input::File(f, _) => {
                let mut buf = vec![0u8; (end - start) as usize];
                f.read_exact_at(&mut buf, start)?;
                Ok(Cow::Owned(buf))
            }
        }
    }

    /// Position just after the first '\n' at or after `pos` (the size when there is none).
    fn line_start_from(&self, pos: u64) -> std::io::Result<u64> {
        let size = self.size();
        let mut at = pos;
        while at < size {
            let end = (at + (64 << 10)).min(size);
            let piece = self.read(at, end)?;
            if let Some(i) = memchr::memchr(b'\n', &piece) {
                return Ok(at + i as u64 + 1);
            }
            at = end;
        }
        Ok(size)
    }

    /// Start of the first line owned by block `b` (the first line starting at or after b * BLOCK).
    fn block_start(&self, b: u64, block: u64) -> std::io::Result<u64> {
        if b == 0 {
            Ok(0)
        } else {
            self.line_start_from((b * block).min(self.size()) - 1)
        }
    }
}

// --- pass 1: lines, rows, text ------------------------------------------------------------

/// A data row found by pass 1 (positions are inside its block's bytes).
#[derive(Clone, Copy)]
struct Row {
    sec: u32, // section: lane-local in pass 1, global after it
    snap: u32,
    nf: u32,   // field count
    line: u32, // line number inside the block (1-based)
    start: u32,
}

/// A data row as pass 2 needs it: its section (global) and where it starts in its block (it
/// ends at the next line end). Kept small: a long recording has millions of rows.
#[derive(Clone, Copy)]
struct Slot {
    sec: u32,
    start: u32,
}

/// A ZZZZ line read by [`zzzz`] (date: lane-local index in pass 1, global after it).
#[derive(Clone, Copy)]
struct Zrow {
    line: u32, // line inside the block (1-based)
    snap: u32,
    digits: u8,
    sod: i32,
    date: u32,
}

#[derive(Default)]
struct Block {
    rows: Vec<Row>,
    wide: Vec<(u32, u32, Vec<u8>)>, // (line inside the block, field count, tag) of rows over the field cap
    zzzz: Vec<Zrow>,
    text: Vec<(u32, Vec<u8>)>, // (line inside the block, bytes) of the lines that are not rows
    lines: u32,
    first_cr: u32, // line inside the block of the first carriage return, 0 when none
}

/// What one thread found in its blocks (sections numbered in the order it met them).
#[derive(Default)]
struct Lane {
    max_fields: u32, // rows with more fields are not read
    names: Vec<Vec<u8>>,
    top: Vec<bool>,
    index: FxMap<Tag, u32>,
    dates: Vec<Vec<u8>>,
    date_index: FxMap<Vec<u8>, u32>,
    blocks: Vec<(usize, Block)>,
}

impl Lane {
    fn line(&mut self, blk: &mut Block, line: &[u8], start: usize, rel: u32, force_text: bool) {
        let class = if force_text { Line::Text } else { classify(line) };
        match class {
            Line::Text => match (force_text, zzzz(line)) {
                (false, Some((snap, digits, sod, date))) => {
                    let id = match self.date_index.get(date) {
                        Some(&i) => i,
                        None => {
                            self.dates.push(date.to_vec());
                            self.date_index.insert(date.to_vec(), self.dates.len() as u32 - 1);
                            self.dates.len() as u32 - 1
                        }
                    };
                    blk.zzzz.push(Zrow { line: rel, snap, digits, sod, date: id });
                }
                _ => blk.text.push((rel, line.to_vec())),
            },
            Line::Row { tag_end, snap, top } => {
                let tag = &line[..tag_end];
                let nf = commas(line) + 1;
                if nf > self.max_fields {
                    blk.wide.push((rel, nf, tag.to_vec())); // damaged: not read (Python warns)
                    return;
                }
                let key = Tag::new(tag);
                let sec = match self.index.get(&key) {
                    Some(&i) => i,
                    None => {
                        self.names.push(tag.to_vec());
                        self.top.push(top);
                        self.index.insert(key, self.names.len() as u32 - 1);
                        self.names.len() as u32 - 1
                    }
                };
                blk.rows.push(Row { sec, snap, nf, line: rel, start: start as u32 });
            }
        }
    }

    /// Every line of one block; `eof`: the block ends the input (its last line may lack a newline).
    fn block(&mut self, data: &[u8], eof: bool, ends_clean: bool) -> Block {
        let mut blk = Block::default();
        let mut rel: u32 = 0;
        let mut pos = 0;
        let any_cr = memchr::memchr(b'\r', data).is_some();
        while pos < data.len() {
            let nl = memchr::memchr(b'\n', &data[pos..]).map(|i| pos + i);
            let seg_start = pos;
            let seg = &data[pos..nl.unwrap_or(data.len())];
            pos = nl.map_or(data.len(), |i| i + 1);
            let last_seg = eof && pos >= data.len();
            if !any_cr || memchr::memchr(b'\r', seg).is_none() {
                rel += 1;
                self.line(&mut blk, seg, seg_start, rel, last_seg && !ends_clean);
                continue;
            }
            // "\r\n" ends a line, and so does a lone "\r".
            if blk.first_cr == 0 {
                blk.first_cr = rel + 1;
            }
            let seg = seg.strip_suffix(b"\r").unwrap_or(seg);
            let n = seg.iter().filter(|&&c| c == b'\r').count() + 1;
            let mut start = seg_start;
            for (k, part) in seg.split(|&c| c == b'\r').enumerate() {
                rel += 1;
                self.line(&mut blk, part, start, rel, last_seg && k == n - 1 && !ends_clean);
                start += part.len() + 1;
            }
        }
        blk.lines = rel;
        blk
    }
}

/// Bytes of the lines owned by block `b` (those starting in [b * block, (b + 1) * block)).
/// A file block is read into `buf` (one buffer per thread, reused); bytes are borrowed.
fn block_data<'a>(input: &'a Input, b: usize, block: u64, buf: &'a mut Vec<u8>) -> std::io::Result<(&'a [u8], bool)> {
    let start = input.block_start(b as u64, block)?;
    let end = input.block_start(b as u64 + 1, block)?;
    let eof = end >= input.size();
    match input {
        Input::Mem(d) => Ok((&d[start as usize..end as usize], eof)),
        Input::File(f, _) => {
            buf.resize((end - start) as usize, 0);
            f.read_exact_at(buf, start)?;
            Ok((&buf[..], eof))
        }
    }
}

/// Run `work` on every block, block b on thread b % threads; results in block order.
fn for_blocks<T: Send>(
    nblocks: usize,
    threads: usize,
    work: impl Fn(usize, &mut Vec<u8>) -> std::io::Result<T> + Sync,
) -> std::io::Result<Vec<T>> {
    let work = &work;
    let mut per_thread: Vec<Vec<(usize, T)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut buf = Vec::new();
                    (t..nblocks).step_by(threads).map(|b| work(b, &mut buf).map(|x| (b, x))).collect::<std::io::Result<Vec<_>>>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("nmon worker panicked")).collect::<std::io::Result<Vec<_>>>()
    })?;
    let mut all: Vec<(usize, T)> = per_thread.iter_mut().flat_map(|v| v.drain(..)).collect();
    all.sort_by_key(|x| x.0);
    Ok(all.into_iter().map(|x| x.1).collect())
}

// --- pass 2: values -----------------------------------------------------------------------

/// Where pass 2 writes a section: its (columns x rows) float64 buffer, shared by the threads.
/// Each cell is written by exactly one thread (rows of a block belong to one thread).
struct Target {
    plain: bool, // value fields are 2, 3, ... and no text fields
    ptr: *mut f64,
    rows: usize, // values are column after column: row r of column j at j * rows + r
    slot: Vec<i32>, // field -> value column (>= 0), text column (-2 - k), or -1 (skipped)
    value_fields: Vec<usize>,
}
unsafe impl Send for Target {}
unsafe impl Sync for Target {}

fn note_bad(ex: &mut Extra, sec: u32, row: u32, field: usize, tok: &[u8]) {
    let n = ex.bad_count.entry(sec).or_insert(0);
    *n += 1;
    if *n as usize <= BAD_KEEP {
        ex.bad.push((sec, row, field as u32, tok.to_vec()));
    }
}

/// One text column: per row a code (0: "", a row without the field; k: the k-th distinct text).
struct TextColumn {
    codes: Vec<u32>,
    index: FxMap<String, u32>, // each distinct text, held once, with its code
}

impl TextColumn {
    fn new(rows: usize) -> Self {
        TextColumn { codes: vec![0; rows], index: FxMap::default() }
    }

    fn set(&mut self, row: usize, text: String) {
        if text.is_empty() {
            return;
        }
        let next = self.index.len() as u32 + 1;
        self.codes[row] = *self.index.entry(text).or_insert(next);
    }

    /// The distinct texts in code order ("" first).
    fn distinct(&mut self) -> Vec<String> {
        let mut out = vec![String::new(); self.index.len() + 1];
        for (text, code) in self.index.drain() {
            out[code as usize] = text;
        }
        out
    }
}

/// What pass 2 found besides the values, per block.
#[derive(Default)]
struct Extra {
    text: Vec<(u32, u32, u32, String)>, // (section, row, text column, text)
    bad: Vec<(u32, u32, u32, Vec<u8>)>,  // (section, row, field, raw): first BAD_KEEP per section
    bad_count: HashMap<u32, u64>,
}

/// The number starting at `line[*i]`, up to the next comma (or the end), with `*i` left on it.
/// Inline fast path for [-]digits[.digits] up to 15 digits (exact, see parse_num); other
/// forms go to parse_num. `Err(token)` when the field is not a number.
#[inline(always)]
fn next_number<'a>(line: &'a [u8], i: &mut usize) -> Result<f64, &'a [u8]> {
    let len = line.len();
    let fs = *i;
    let mut p = fs;
    let neg = p < len && line[p] == b'-';
    p += neg as usize;
    let mut m: i64 = 0;
    let mut nd = 0usize;
    let mut frac = 0usize;
    let mut dot = false;
    while p < len {
        let c = line[p];
        let d = c.wrapping_sub(b'0');
        if d < 10 {
            m = m.wrapping_mul(10).wrapping_add(d as i64);
            nd += 1;
            frac += dot as usize;
        } else if c == b'.' && !dot {
            dot = true;
        } else {
            break;
        }
        p += 1;
    }
    if (p == len || line[p] == b',') && nd > 0 && nd <= 15 {
        *i = p;
        let v = m as f64 / POW10[frac];
        return Ok(if neg { -v } else { v });
    }
    *i = memchr::memchr(b',', &line[fs..]).map_or(len, |e| fs + e);
    let tok = &line[fs..*i];
    if tok.is_empty() {
        return Ok(f64::NAN);
    }
    parse_num(tok).ok_or(tok)
}

/// Parse one row into its section's columns (row `r`).
fn fill_row(t: &Target, line: &[u8], sec: u32, r: usize, ex: &mut Extra) {
    let len = line.len();
    if t.plain {
        // The usual section: field f >= 2 is value column f - 2 (skip the tag and Tnnnn).
        let mut i = match memchr::memchr(b',', line).and_then(|a| memchr::memchr(b',', &line[a + 1..]).map(|b| a + b + 2)) {
            Some(i) => i,
            None => len + 1,
        };
        let mut j = 0;
        let ncols = t.value_fields.len();
        while i <= len && j < ncols {
            let v = next_number(line, &mut i).unwrap_or_else(|tok| {
                note_bad(ex, sec, r as u32, j + 2, tok);
                f64::NAN
            });
            // SAFETY: j < columns and r < rows; only this thread writes row r.
            unsafe { *t.ptr.add(j * t.rows + r) = v };
            j += 1;
            i += 1;
        }
        for j in j..ncols {
            unsafe { *t.ptr.add(j * t.rows + r) = f64::NAN };
        }
        return;
    }
    let mut i = 0;
    let mut f = 0;
    loop {
        let slot = t.slot.get(f).copied().unwrap_or(-1);
        let fs = i;
        if slot == -1 {
            i = memchr::memchr(b',', &line[i..]).map_or(len, |e| i + e);
        } else if slot >= 0 {
            let v = next_number(line, &mut i).unwrap_or_else(|tok| {
                note_bad(ex, sec, r as u32, f, tok);
                f64::NAN
            });
            // SAFETY: column `slot` < columns and r < rows; only this thread writes row r.
            unsafe { *t.ptr.add(slot as usize * t.rows + r) = v };
        } else {
            i = memchr::memchr(b',', &line[i..]).map_or(len, |e| i + e);
            ex.text.push((sec, r as u32, (-2 - slot) as u32, String::from_utf8_lossy(&line[fs..i]).into_owned()));
        }
        f += 1;
        if i >= len {
            break;
        }
        i += 1;
    }
    // Value fields past the end of this row are missing.
    for (j, &vf) in t.value_fields.iter().enumerate().rev() {
        if vf < f {
            break;
        }
        unsafe { *t.ptr.add(j * t.rows + r) = f64::NAN };
    }
}

// --- Python interface ---------------------------------------------------------------------

enum Source {
    Bytes(Py<PyBytes>),
    Path(std::path::PathBuf),
}

fn with_input<R>(py: Python<'_>, src: &Source, f: impl FnOnce(&Input) -> std::io::Result<R> + Send) -> PyResult<R>
where
    R: Send,
{
    match src {
        Source::Bytes(b) => {
            let data: &[u8] = b.bind(py).as_bytes();
            Ok(py.allow_threads(|| f(&Input::Mem(data)))?)
        }
        Source::Path(p) => {
            let file = File::open(p)?;
            let n = file.metadata()?.len();
            Ok(py.allow_threads(|| f(&Input::File(file, n)))?)
        }
    }
}

/// One nmon input (a path of a plain file, or bytes), read in two passes.
///
/// ``Scanner(source, ends_clean, threads=0, block=0)`` runs pass 1: it finds every line, the
/// data rows of each section (``sections``: dicts with ``name``, ``top``, and per row
/// ``lines``, ``snaps``, ``nfields`` as numpy arrays) and the other lines (``text``: a list
/// of (line, bytes)) but the ZZZZ lines of the usual form ``ZZZZ,Tnnnn,hh:mm:ss,date``, which
/// are read here (``zzzz``: a dict of numpy arrays ``lines``, ``snaps``, ``digits`` (of the
/// snapshot field), ``sods`` (seconds of the day), ``dates`` (index into ``date_names``));
/// ``lines`` is the line count, ``cr_line`` the first line with a carriage
/// return (0 when none). Python reads the text (headers ...) and decides the columns of each
/// section; ``values(layouts)`` then runs pass 2 and parses the rows. ``threads``: 0 = one per
/// core; ``block``: bytes per block (0 = 8 MiB).
#[pyclass]
struct Scanner {
    src: Source,
    block: u64,
    nblocks: usize,
    threads: usize,
    rows: Vec<std::sync::Mutex<Vec<Slot>>>, // per block, sections numbered globally (pass 2 takes them)
    base: Vec<Vec<u32>>,  // per block, per section: rows in earlier blocks
    sec_rows: Vec<usize>, // per section
    #[pyo3(get)]
    lines: u64,
    #[pyo3(get)]
    cr_line: u64,
    #[pyo3(get)]
    text: Py<PyList>,
    #[pyo3(get)]
    wide: Py<PyList>, // (line, field count, tag) of the rows over max_fields (not read)
    #[pyo3(get)]
    sections_found: usize, // when over max_sections, no section is returned
    #[pyo3(get)]
    sections: Py<PyList>,
    #[pyo3(get)]
    zzzz: Py<PyDict>,
}

struct Pass1 {
    names: Vec<(Vec<u8>, bool)>,
    rows: Vec<Vec<Slot>>,
    base: Vec<Vec<u32>>,
    offset: Vec<u64>,
    text: Vec<(i64, Vec<u8>)>,
    wide: Vec<(i64, u32, Vec<u8>)>,
    cr_line: u64,
    per_sec: Vec<(Vec<i64>, Vec<i64>, Vec<i32>)>,
    dates: Vec<Vec<u8>>,
    zzzz: Zcols,
}

/// The ZZZZ lines read in native code, one entry each, in file order.
#[derive(Default)]
struct Zcols {
    lines: Vec<i64>,
    snaps: Vec<i64>,
    digits: Vec<i32>,
    sods: Vec<i64>,
    dates: Vec<i32>,
}

fn pass1(input: &Input, nblocks: usize, threads: usize, block: u64, ends_clean: bool, max_fields: u32) -> std::io::Result<Pass1> {
    // Each thread numbers the sections it meets; they are renumbered globally below.
    let lanes: Vec<Lane> = {
        let work = |t: usize| -> std::io::Result<Lane> {
            let mut lane = Lane { max_fields, ..Lane::default() };
            let mut buf = Vec::new();
            for b in (t..nblocks).step_by(threads) {
                let (data, eof) = block_data(input, b, block, &mut buf)?;
                let blk = lane.block(data, eof, ends_clean);
                lane.blocks.push((b, blk));
            }
            Ok(lane)
        };
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..threads).map(|t| s.spawn(move || work(t))).collect();
            hs.into_iter().map(|h| h.join().expect("nmon worker panicked")).collect::<std::io::Result<Vec<_>>>()
        })?
    };
    let mut blocks: Vec<Option<Block>> = (0..nblocks).map(|_| None).collect();
    let mut names: Vec<(Vec<u8>, bool)> = Vec::new();
    let mut global: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut dates: Vec<Vec<u8>> = Vec::new();
    let mut date_ids: HashMap<Vec<u8>, u32> = HashMap::new();
    for mut lane in lanes {
        let date_map: Vec<u32> = lane
            .dates
            .iter()
            .map(|d| {
                *date_ids.entry(d.clone()).or_insert_with(|| {
                    dates.push(d.clone());
                    dates.len() as u32 - 1
                })
            })
            .collect();
        let map: Vec<u32> = lane
            .names
            .iter()
            .zip(&lane.top)
            .map(|(n, &top)| {
                *global.entry(n.clone()).or_insert_with(|| {
                    names.push((n.clone(), top));
                    names.len() as u32 - 1
                })
            })
            .collect();
        for (b, mut blk) in lane.blocks.drain(..) {
            for row in &mut blk.rows {
                row.sec = map[row.sec as usize];
            }
            for z in &mut blk.zzzz {
                z.date = date_map[z.date as usize];
            }
            blocks[b] = Some(blk);
        }
    }
    let nsec = names.len();
    let mut offset = vec![0u64; nblocks + 1];
    let mut base = Vec::with_capacity(nblocks);
    let mut count = vec![0u32; nsec];
    let mut total = vec![0usize; nsec];
    for blk in blocks.iter().flatten() {
        for row in &blk.rows {
            total[row.sec as usize] += 1;
        }
    }
    let mut per_sec: Vec<(Vec<i64>, Vec<i64>, Vec<i32>)> =
        total.iter().map(|&n| (Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n))).collect();
    let mut text = Vec::new();
    let mut wide = Vec::new();
    let mut cr_line = 0;
    let mut rows = Vec::with_capacity(nblocks);
    let mut zzzz = Zcols::default();
    for (b, blk) in blocks.into_iter().enumerate() {
        let blk = blk.unwrap_or_default();
        offset[b + 1] = offset[b] + blk.lines as u64;
        if cr_line == 0 && blk.first_cr > 0 {
            cr_line = offset[b] + blk.first_cr as u64;
        }
        base.push(count.clone());
        for row in &blk.rows {
            count[row.sec as usize] += 1;
            let s = &mut per_sec[row.sec as usize];
            s.0.push((offset[b] + row.line as u64) as i64);
            s.1.push(row.snap as i64);
            s.2.push(row.nf as i32);
        }
        text.extend(blk.text.into_iter().map(|(rel, t)| ((offset[b] + rel as u64) as i64, t)));
        wide.extend(blk.wide.into_iter().map(|(rel, nf, tag)| ((offset[b] + rel as u64) as i64, nf, tag)));
        for z in &blk.zzzz {
            zzzz.lines.push((offset[b] + z.line as u64) as i64);
            zzzz.snaps.push(z.snap as i64);
            zzzz.digits.push(z.digits as i32);
            zzzz.sods.push(z.sod as i64);
            zzzz.dates.push(z.date as i32);
        }
        rows.push(blk.rows.iter().map(|r| Slot { sec: r.sec, start: r.start }).collect());
    }
    Ok(Pass1 { names, rows, base, offset, text, wide, cr_line, per_sec, dates, zzzz })
}

#[pymethods]
impl Scanner {
    #[new]
    #[pyo3(signature = (source, ends_clean, threads=0, block=0, max_fields=u32::MAX, max_sections=usize::MAX))]
    fn new(
        py: Python<'_>,
        source: &Bound<'_, PyAny>,
        ends_clean: bool,
        threads: usize,
        block: u64,
        max_fields: u32,
        max_sections: usize,
    ) -> PyResult<Self> {
        let src = match source.downcast::<PyBytes>() {
            Ok(b) => Source::Bytes(b.clone().unbind()),
            Err(_) => Source::Path(source.extract()?),
        };
        let block = if block > 0 { block } else { BLOCK };
        let size = match &src {
            Source::Bytes(b) => b.bind(py).as_bytes().len() as u64,
            Source::Path(p) => std::fs::metadata(p)?.len(),
        };
        let nblocks = size.div_ceil(block).max(1) as usize;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = (if threads > 0 { threads } else { cores }).clamp(1, nblocks);
        let mut p = with_input(py, &src, |input| pass1(input, nblocks, threads, block, ends_clean, max_fields))?;
        let sections_found = p.names.len();
        if sections_found > max_sections {
            // Not an nmon recording that can be read: no Python object per section is made.
            p.names.clear();
            p.per_sec.clear();
            p.text.clear();
            p.wide.clear();
            p.rows.iter_mut().for_each(|r| r.clear());
        }
        let wide = PyList::new_bound(
            py,
            p.wide
                .into_iter()
                .map(|(l, nf, tag)| (l, nf, String::from_utf8_lossy(&tag).into_owned()).into_py(py))
                .collect::<Vec<PyObject>>(),
        );
        let text = PyList::new_bound(
            py,
            p.text.into_iter().map(|(l, t)| (l, PyBytes::new_bound(py, &t)).into_py(py)).collect::<Vec<PyObject>>(),
        );
        let sections = PyList::empty_bound(py);
        let mut sec_rows = Vec::new();
        for ((name, top), (lines, snaps, nfields)) in p.names.into_iter().zip(p.per_sec) {
            let d = PyDict::new_bound(py);
            sec_rows.push(lines.len());
            d.set_item("name", String::from_utf8_lossy(&name).into_owned())?;
            d.set_item("top", top)?;
            d.set_item("lines", PyArray1::from_vec_bound(py, lines))?;
            d.set_item("snaps", PyArray1::from_vec_bound(py, snaps))?;
            d.set_item("nfields", PyArray1::from_vec_bound(py, nfields))?;
            sections.append(d)?;
        }
        let z = PyDict::new_bound(py);
        z.set_item("lines", PyArray1::from_vec_bound(py, p.zzzz.lines))?;
        z.set_item("snaps", PyArray1::from_vec_bound(py, p.zzzz.snaps))?;
        z.set_item("digits", PyArray1::from_vec_bound(py, p.zzzz.digits))?;
        z.set_item("sods", PyArray1::from_vec_bound(py, p.zzzz.sods))?;
        z.set_item("dates", PyArray1::from_vec_bound(py, p.zzzz.dates))?;
        let names: Vec<String> = p.dates.iter().map(|d| String::from_utf8_lossy(d).into_owned()).collect();
        z.set_item("date_names", PyList::new_bound(py, names))?;
        Ok(Scanner {
            src,
            block,
            nblocks,
            threads,
            lines: *p.offset.last().unwrap_or(&0),
            rows: p.rows.into_iter().map(std::sync::Mutex::new).collect(),
            base: p.base,
            sec_rows,
            cr_line: p.cr_line,
            text: text.unbind(),
            wide: wide.unbind(),
            sections_found,
            sections: sections.unbind(),
            zzzz: z.unbind(),
        })
    }

    /// Pass 2: ``layouts`` gives per section (in ``sections`` order) its value fields and text
    /// fields (field 0 is the tag). Returns per section (values, text, bad, bad_count): a
    /// (len(value_fields), rows) float64 array (NaN: empty, missing or not a number), a dict
    /// field -> list of str (one per row, "" when the row is shorter), the first values that are
    /// not numbers as (row, field, text) in file order, and their count.
    fn values<'py>(&self, py: Python<'py>, layouts: Vec<(Vec<usize>, Vec<usize>)>) -> PyResult<Bound<'py, PyList>> {
        let mut bufs: Vec<Vec<f64>> = Vec::new();
        let mut targets = Vec::new();
        for (s, (vf, tf)) in layouts.iter().enumerate() {
            let rows = self.sec_rows[s];
            let width = vf.iter().chain(tf.iter()).max().map_or(0, |m| m + 1);
            let mut slot = vec![-1i32; width];
            for (j, &f) in vf.iter().enumerate() {
                slot[f] = j as i32;
            }
            for (k, &f) in tf.iter().enumerate() {
                slot[f] = -2 - k as i32;
            }
            // Zeroed memory comes from the system untouched: the threads fill it in parallel.
            let mut buf = vec![0.0f64; rows * vf.len()];
            let plain = tf.is_empty() && vf.iter().enumerate().all(|(j, &f)| f == j + 2);
            targets.push(Target { plain, ptr: buf.as_mut_ptr(), rows, slot, value_fields: vf.clone() });
            bufs.push(buf);
        }
        let (rows, base, targets_ref) = (&self.rows, &self.base, &targets);
        let (nblocks, threads, block) = (self.nblocks, self.threads, self.block);
        let extras: Vec<Extra> = with_input(py, &self.src, |input| {
            for_blocks(nblocks, threads, |b, buf| {
                let mut ex = Extra::default();
                // The block's rows are needed by this pass only: freed as soon as it is done.
                let slots = std::mem::take(&mut *rows[b].lock().expect("nmon rows lock"));
                if slots.is_empty() {
                    return Ok(ex);
                }
                let (data, _) = block_data(input, b, block, buf)?;
                let mut seen = vec![0u32; targets_ref.len()];
                for row in &slots {
                    let s = row.sec as usize;
                    let r = (base[b][s] + seen[s]) as usize;
                    seen[s] += 1;
                    let start = row.start as usize;
                    let end = memchr::memchr2(b'\n', b'\r', &data[start..]).map_or(data.len(), |i| start + i);
                    fill_row(&targets_ref[s], &data[start..end], row.sec, r, &mut ex);
                }
                Ok(ex)
            })
        })?;
        drop(targets);
        // Text columns and bad values, per section. A text column comes back as a code per row and
        // the distinct texts (command names repeat in every snapshot: each is decoded once).
        let mut texts: Vec<Vec<TextColumn>> = (layouts.iter().enumerate())
            .map(|(s, (_, tf))| (0..tf.len()).map(|_| TextColumn::new(self.sec_rows[s])).collect())
            .collect();
        let mut bad: Vec<Vec<(i64, u32, Vec<u8>)>> = vec![Vec::new(); layouts.len()];
        let mut bad_count = vec![0u64; layouts.len()];
        for ex in extras {
            for (s, r, k, t) in ex.text {
                texts[s as usize][k as usize].set(r as usize, t);
            }
            for (s, row, f, raw) in ex.bad {
                if bad[s as usize].len() < BAD_KEEP {
                    bad[s as usize].push((row as i64, f, raw));
                }
            }
            for (s, n) in ex.bad_count {
                bad_count[s as usize] += n;
            }
        }
        let out = PyList::empty_bound(py);
        for (s, buf) in bufs.into_iter().enumerate() {
            let (vf, tf) = &layouts[s];
            let rows = self.sec_rows[s];
            let values = PyArray1::from_vec_bound(py, buf).reshape([vf.len(), rows])?;
            let text = PyDict::new_bound(py);
            for (k, &f) in tf.iter().enumerate() {
                let mut col = std::mem::replace(&mut texts[s][k], TextColumn::new(0));
                let distinct = col.distinct();
                let codes = PyArray1::from_vec_bound(py, col.codes);
                text.set_item(f, (codes, PyList::new_bound(py, distinct)))?;
            }
            let bad_list = PyList::new_bound(
                py,
                bad[s]
                    .iter()
                    .map(|(l, f, raw)| (*l, *f, String::from_utf8_lossy(raw).into_owned()).into_py(py))
                    .collect::<Vec<PyObject>>(),
            );
            out.append((values, text, bad_list, bad_count[s]))?;
        }
        Ok(out)
    }
}

/// Parse one field as the reader does (for tests): a float, or None when it is not a number.
#[pyfunction]
fn parse_number(tok: &[u8]) -> Option<f64> {
    parse_num(tok)
}

#[pymodule]
fn _nmon_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Scanner>()?;
    m.add_function(wrap_pyfunction!(parse_number, m)?)?;
    m.add("BLOCK", BLOCK)?;
    Ok(())
}
