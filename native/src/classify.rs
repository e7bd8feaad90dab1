//! What a line of an nmon recording is: a data row of a section, a usual ZZZZ line, or text.

use crate::WIN;

/// What the classifier makes of a line: a data row of a section, or text for Python.
pub(crate) enum Line {
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
pub(crate) fn commas(line: &[u8]) -> u32 {
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
pub(crate) fn classify(line: &[u8]) -> Line {
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
pub(crate) fn zzzz(line: &[u8]) -> Option<(u32, u8, i32, &[u8])> {
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
