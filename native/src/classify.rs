//! What a line of an nmon recording is: a data row of a section, a usual ZZZZ line, or text.

use crate::WIN;

/// What the classifier makes of a line: a data row of a section, or text for Python.
pub(crate) enum Line {
    Text,
    /// `tag_end`: position of the first comma;
    /// `snap`: the snapshot number; `top`: a TOP-style row (PID before the Tnnnn field);
    /// `values_at`: where the values of a `TAG,Tnnnn,...` row start (after its second comma;
    /// one past the end when it has none), 0 for TOP.
    Row { tag_end: usize, snap: u32, top: bool, values_at: u8 },
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

/// Calls `line(start, end, commas)` for every line of `data` ('\n' ends one; a last line
/// without it counts too), finding line ends and counting commas in one scan of 64 bytes at a
/// time (two bit masks per chunk) instead of a search and a count per line.
pub(crate) fn for_lines(data: &[u8], mut line: impl FnMut(usize, usize, u32)) {
    let (mut start, mut commas, mut base) = (0usize, 0u32, 0usize);
    while base < data.len() {
        let (mut nl, mut cm) = masks(&data[base..data.len().min(base + 64)]);
        while nl != 0 {
            let p = nl.trailing_zeros();
            let below = (1u64 << p) - 1;
            commas += (cm & below).count_ones();
            line(start, base + p as usize, commas);
            start = base + p as usize + 1;
            commas = 0;
            cm &= !below;
            nl &= nl - 1;
        }
        commas += cm.count_ones();
        base += 64;
    }
    if start < data.len() {
        line(start, data.len(), commas);
    }
}

/// Bit k of the first mask: chunk[k] is '\n'; of the second: it is ','. At most 64 bytes.
#[cfg(target_arch = "x86_64")]
fn masks(chunk: &[u8]) -> (u64, u64) {
    use std::arch::x86_64::*;
    let mut pad = [0u8; 64];
    let bytes: &[u8] = if chunk.len() == 64 {
        chunk
    } else {
        pad[..chunk.len()].copy_from_slice(chunk);
        &pad
    };
    let (mut nl, mut cm) = (0u64, 0u64);
    // SAFETY: SSE2 is part of every x86_64 processor; each load reads 16 of the 64 bytes.
    unsafe {
        let (n, c) = (_mm_set1_epi8(b'\n' as i8), _mm_set1_epi8(b',' as i8));
        for k in 0..4 {
            let v = _mm_loadu_si128(bytes.as_ptr().add(16 * k) as *const __m128i);
            nl |= (_mm_movemask_epi8(_mm_cmpeq_epi8(v, n)) as u16 as u64) << (16 * k);
            cm |= (_mm_movemask_epi8(_mm_cmpeq_epi8(v, c)) as u16 as u64) << (16 * k);
        }
    }
    (nl, cm)
}

#[cfg(not(target_arch = "x86_64"))]
fn masks(chunk: &[u8]) -> (u64, u64) {
    let (mut nl, mut cm) = (0u64, 0u64);
    for (k, &b) in chunk.iter().enumerate() {
        nl |= ((b == b'\n') as u64) << k;
        cm |= ((b == b',') as u64) << k;
    }
    (nl, cm)
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
            // p2 < WIN (the second comma, or the end of a short line): values_at fits a byte
            let values_at = (p2 + 1) as u8;
            return if is_top_tag { Line::Text } else { Line::Row { tag_end: p1, snap: snap as u32, top: false, values_at } };
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
            return Line::Row { tag_end: p1, snap: snap as u32, top: true, values_at: 0 };
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
