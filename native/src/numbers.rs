//! Numbers of nmon fields, read as the pure-Python path (Arrow's CSV float conversion) reads them.

const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A field as a number, with the rules of Arrow's CSV float conversion (the Python reader):
/// spaces and tabs around are ignored, an optional sign, decimal or exponent notation,
/// "inf"/"infinity"/"nan"/"nan(...)" in any case. `None` when it is not a number.
/// (The caller handles the empty field, which is a missing value, not an error.)
pub(crate) fn parse_num(tok: &[u8]) -> Option<f64> {
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

/// The number starting at `line[*i]`, up to the next comma (or the end), with `*i` left on it.
/// Inline fast path for [-]digits[.digits] up to 15 digits (exact, see parse_num); other
/// forms go to parse_num. `Err(token)` when the field is not a number.
#[inline(always)]
pub(crate) fn next_number<'a>(line: &'a [u8], i: &mut usize) -> Result<f64, &'a [u8]> {
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
