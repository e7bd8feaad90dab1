//! HMC attribute listings (``lslparutil`` without ``-F``) read column-wise in one native pass.
//!
//! The HMC prints each event as one line of ``name=value`` fields joined by commas:
//!
//! ```text
//! time=11/20/2026 00:05:00,event_type=sample,resource_type=lpar,...,lpar_name=vios1,lpar_id=1,...
//! ```
//!
//! [`read`] accepts exactly what the Python reader's fast path (``read_plain`` in
//! ``lparscope/sources/_hmc_util_listing.py``) accepts, and refuses (None) the rest, so that Python
//! reads it: any byte that is not printable ASCII or a tab, a double quote, a field without
//! ``=``, a repeated or invalid name, a value with a blank at either end. Lines may give
//! different names (state changes among samples): the columns are every name in order of first
//! appearance, a row without a name has no value there. A refusal costs one more read in Python,
//! never a different result.

/// The listing: for each row its 0-based line (in the text given), every name, and the value of
/// each name on each row (column-major; None: the row does not give that name).
pub(crate) struct Listing<'a> {
    pub lines: Vec<i64>,
    pub names: Vec<&'a str>,
    pub columns: Vec<Vec<Option<&'a str>>>,
}

fn name_ok(name: &str) -> bool {
    // [A-Za-z_][A-Za-z0-9_.]* (the Python reader's _KEY, on ASCII text)
    let b = name.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {}
        _ => return false,
    }
    b[1..].iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.')
}

fn names_of(line: &str) -> Option<Vec<&str>> {
    let names: Vec<&str> = line.split(',').map(|f| f.split_once('=').map_or(f, |(n, _)| n)).collect();
    let mut seen = std::collections::HashSet::with_capacity(names.len());
    if names.iter().all(|n| name_ok(n) && seen.insert(*n)) {
        Some(names)
    } else {
        None
    }
}

fn value_ok(v: &str) -> bool {
    // empty, or no blank at either end (commas, quotes and control bytes are refused earlier)
    match (v.as_bytes().first(), v.as_bytes().last()) {
        (Some(a), Some(z)) => !matches!(a, b' ' | b'\t') && !matches!(z, b' ' | b'\t'),
        _ => true,
    }
}

/// The values of one line when it gives exactly ``names`` in that order, else None.
fn values_of<'a>(line: &'a str, names: &[&str]) -> Option<Vec<&'a str>> {
    let mut fields = line.split(',');
    let mut values = Vec::with_capacity(names.len());
    for name in names {
        let v = fields.next()?.strip_prefix(name)?.strip_prefix('=')?;
        if !value_ok(v) {
            return None;
        }
        values.push(v);
    }
    fields.next().is_none().then_some(values)
}

/// A set of names seen on some line, and the column of each.
struct Shape<'a> {
    names: Vec<&'a str>,
    columns: Vec<usize>,
}

pub(crate) fn read(text: &str) -> Option<Listing<'_>> {
    if !text.bytes().all(|b| b == b'\t' || b == b'\n' || ((0x20..0x7f).contains(&b) && b != b'"')) {
        return None;
    }
    let mut shapes: Vec<Shape> = Vec::new();
    let mut names: Vec<&str> = Vec::new(); // every name, in order of first appearance
    let mut rows: Vec<(usize, Vec<&str>)> = Vec::new(); // (shape, values)
    let mut lines = Vec::new();
    let mut current = usize::MAX;
    for (i, line) in text.split('\n').enumerate() {
        let mut values = shapes.get(current).and_then(|s| values_of(line, &s.names));
        if values.is_none() {
            if line.bytes().all(|b| b == b' ' || b == b'\t') {
                continue;
            }
            let found = names_of(line)?;
            current = match shapes.iter().position(|s| s.names == found) {
                Some(k) => k,
                None => {
                    let columns = found
                        .iter()
                        .map(|n| match names.iter().position(|m| m == n) {
                            Some(c) => c,
                            None => {
                                names.push(n);
                                names.len() - 1
                            }
                        })
                        .collect();
                    shapes.push(Shape { names: found, columns });
                    shapes.len() - 1
                }
            };
            values = Some(values_of(line, &shapes[current].names)?);
        }
        rows.push((current, values?));
        lines.push(i as i64);
    }
    if rows.is_empty() {
        return None;
    }
    let mut columns = vec![vec![None; rows.len()]; names.len()];
    for (r, (shape, values)) in rows.iter().enumerate() {
        for (&c, v) in shapes[*shape].columns.iter().zip(values) {
            columns[c][r] = Some(*v);
        }
    }
    Some(Listing { lines, names, columns })
}

/// A plain number as the Python reader's ``plain_numbers`` tells one: ``[-+]?[0-9]+(\.[0-9]+)?``.
fn plain(v: &str) -> bool {
    let b = v.as_bytes();
    let b = match b.first() {
        Some(b'-' | b'+') => &b[1..],
        _ => b,
    };
    let int = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if int == 0 {
        return false;
    }
    match &b[int..] {
        [] => true,
        [b'.', frac @ ..] => !frac.is_empty() && frac.iter().all(|c| c.is_ascii_digit()),
        _ => false,
    }
}

/// The column as float64 when every value is a plain number of at most 48 characters and none
/// is beyond ``limit`` in size (what the Python reader keeps as a float array), else None.
pub(crate) fn floats(column: &[Option<&str>], limit: f64) -> Option<Vec<f64>> {
    let mut out = Vec::with_capacity(column.len());
    for v in column {
        let v = (*v)?;
        if v.len() > 48 || !plain(v) {
            return None;
        }
        let x: f64 = v.parse().ok()?; // correctly rounded, as Python's float()
        if x.abs() > limit {
            return None;
        }
        out.push(x);
    }
    Some(out)
}

/// Each value's code (the index of its first appearance) and the distinct values in that order.
pub(crate) fn coded<'a>(column: &[Option<&'a str>]) -> (Vec<u32>, Vec<Option<&'a str>>) {
    let mut seen: std::collections::HashMap<Option<&str>, u32> = std::collections::HashMap::new();
    let mut distinct = Vec::new();
    let codes = column
        .iter()
        .map(|v| {
            *seen.entry(*v).or_insert_with(|| {
                distinct.push(*v);
                (distinct.len() - 1) as u32
            })
        })
        .collect();
    (codes, distinct)
}
