//! Pass 2: the values of every row, parsed straight into its section's float64 columns (NaN for
//! an empty field, a missing one, or one that is not a number, which is also reported), the
//! text columns (TOP's command names ...) as a code per row and each distinct text once, and
//! each row's line, snapshot and field count.

use crate::input::{block_data, for_blocks, FxMap, Input};
use crate::numbers::next_number;
use crate::pass1::Pass1;
use std::collections::HashMap;
use std::sync::Mutex;

const BAD_KEEP: usize = 20; // values that are not numbers, listed per section (the rest counted)

/// Where pass 2 writes a section: its (columns x rows) float64 buffer, shared by the threads.
/// Each cell is written by exactly one thread (rows of a block belong to one thread).
struct Target {
    plain: bool, // value fields are 2, 3, ... and no text fields
    ptr: *mut f64,
    rows: usize, // values are column after column: row r of column j at j * rows + r
    slot: Vec<i32>, // field -> value column (>= 0), text column (-2 - k), or -1 (skipped)
    value_fields: Vec<usize>,
    text_base: usize, // index of the section's first text column among all sections' ones
    lines: *mut i64,  // per row: its line, snapshot and field count
    snaps: *mut i64,
    nfields: *mut i32,
}
unsafe impl Send for Target {}
unsafe impl Sync for Target {}

/// The texts one block gives one text column: each distinct text once, and per row its code here.
#[derive(Default)]
struct BlockTexts {
    index: FxMap<Vec<u8>, u32>,
    distinct: Vec<Vec<u8>>,
    rows: Vec<(u32, u32)>, // (row of the section, code in `distinct`)
}

/// What pass 2 found in one block besides the values.
#[derive(Default)]
struct Extra {
    texts: Vec<BlockTexts>,              // per text column (all sections'), the non-empty texts
    bad: Vec<(u32, u32, u32, Vec<u8>)>,  // (section, row, field, raw): first BAD_KEEP per section
    bad_count: HashMap<u32, u64>,
}

impl Extra {
    fn text(&mut self, column: usize, row: u32, tok: &[u8]) {
        if self.texts.len() <= column {
            self.texts.resize_with(column + 1, BlockTexts::default);
        }
        let col = &mut self.texts[column];
        let code = match col.index.get(tok) {
            Some(&c) => c,
            None => {
                let c = col.distinct.len() as u32;
                col.distinct.push(tok.to_vec());
                col.index.insert(tok.to_vec(), c);
                c
            }
        };
        col.rows.push((row, code));
    }
}

fn note_bad(ex: &mut Extra, sec: u32, row: u32, field: usize, tok: &[u8]) {
    let n = ex.bad_count.entry(sec).or_insert(0);
    *n += 1;
    if *n as usize <= BAD_KEEP {
        ex.bad.push((sec, row, field as u32, tok.to_vec()));
    }
}

/// One text column of a section: per row a code (0: "", a row without the field; k: the k-th
/// distinct text), each distinct text held once.
pub(crate) struct TextColumn {
    pub(crate) codes: Vec<u32>,
    index: FxMap<String, u32>,
}

impl TextColumn {
    fn new(rows: usize) -> Self {
        TextColumn { codes: vec![0; rows], index: FxMap::default() }
    }

    /// The column's code of a (non-empty) text: texts that decode alike share one.
    fn code(&mut self, text: &[u8]) -> u32 {
        let next = self.index.len() as u32 + 1;
        *self.index.entry(String::from_utf8_lossy(text).into_owned()).or_insert(next)
    }

    /// The distinct texts in code order ("" first).
    pub(crate) fn distinct(&mut self) -> Vec<String> {
        let mut out = vec![String::new(); self.index.len() + 1];
        for (text, code) in self.index.drain() {
            out[code as usize] = text;
        }
        out
    }
}

/// What pass 2 gives for one section.
pub(crate) struct SectionValues {
    pub(crate) values: Vec<f64>,           // value column after value column (len(value_fields) x rows)
    pub(crate) texts: Vec<TextColumn>,     // per text field, in the layout's order
    pub(crate) bad: Vec<(i64, u32, Vec<u8>)>, // first values that are not numbers: (row, field, raw)
    pub(crate) bad_count: u64,
    pub(crate) lines: Vec<i64>,
    pub(crate) snaps: Vec<i64>,
    pub(crate) nfields: Vec<i32>,
}

/// Pass 2 over every block. `layouts`: per section, its value fields and text fields (field 0
/// is the tag); `p1`: what pass 1 found (each block's rows are taken, and freed, by this pass).
pub(crate) fn pass2(
    input: &Input,
    layouts: &[(Vec<usize>, Vec<usize>)],
    p1: &mut Pass1,
    threads: usize,
    block: u64,
) -> std::io::Result<Vec<SectionValues>> {
    let nblocks = p1.rows.len();
    let mut out: Vec<SectionValues> = Vec::with_capacity(layouts.len());
    let mut targets = Vec::new();
    let mut text_base = 0;
    for (s, (vf, tf)) in layouts.iter().enumerate() {
        let n = p1.sections[s].rows as usize;
        let width = vf.iter().chain(tf.iter()).max().map_or(0, |m| m + 1);
        let mut slot = vec![-1i32; width];
        for (j, &f) in vf.iter().enumerate() {
            slot[f] = j as i32;
        }
        for (k, &f) in tf.iter().enumerate() {
            slot[f] = -2 - k as i32;
        }
        // Zeroed memory comes from the system untouched: the threads fill it in parallel.
        let mut sv = SectionValues {
            values: vec![0.0f64; n * vf.len()],
            texts: (0..tf.len()).map(|_| TextColumn::new(n)).collect(),
            bad: Vec::new(),
            bad_count: 0,
            lines: vec![0; n],
            snaps: vec![0; n],
            nfields: vec![0; n],
        };
        let plain = tf.is_empty() && vf.iter().enumerate().all(|(j, &f)| f == j + 2);
        targets.push(Target {
            plain,
            ptr: sv.values.as_mut_ptr(),
            rows: n,
            slot,
            value_fields: vf.clone(),
            text_base,
            lines: sv.lines.as_mut_ptr(),
            snaps: sv.snaps.as_mut_ptr(),
            nfields: sv.nfields.as_mut_ptr(),
        });
        text_base += tf.len();
        out.push(sv);
    }
    let rows: Vec<Mutex<Vec<crate::pass1::Row>>> = p1.rows.drain(..).map(Mutex::new).collect();
    let (targets_ref, rows_ref, p1_ref) = (&targets, &rows, &*p1);
    let extras: Vec<Extra> = for_blocks(nblocks, threads, |b, buf| {
        let mut ex = Extra::default();
        // The block's rows are needed by this pass only: freed as soon as it is done.
        let block_rows = std::mem::take(&mut *rows_ref[b].lock().expect("nmon rows lock"));
        if block_rows.is_empty() {
            return Ok(ex);
        }
        let (data, _) = block_data(input, b, block, buf)?;
        let (map, base, at) = (&p1_ref.maps[p1_ref.lane[b]], &p1_ref.base[b], p1_ref.offset[b]);
        let mut seen = vec![0u32; targets_ref.len()];
        for row in &block_rows {
            let s = map[row.sec as usize] as usize;
            let r = (base[s] + seen[s]) as usize;
            seen[s] += 1;
            let t = &targets_ref[s];
            // SAFETY: r < rows of section s (counted by pass 1), and only this block writes row r.
            unsafe {
                *t.lines.add(r) = (at + row.line as u64) as i64;
                *t.snaps.add(r) = row.snap as i64;
                *t.nfields.add(r) = row.nf as i32;
            }
            let start = row.start as usize;
            // The block is read again: a file cut short since pass 1 no longer holds the row.
            let Some(line) = data.get(start..start + row.len as usize) else {
                return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "the file changed while it was read"));
            };
            fill_row(t, line, row.values_at as usize, s as u32, r, &mut ex);
        }
        Ok(ex)
    })?;
    drop(targets);
    // Per section: its text columns (each block's distinct texts coded once, then its rows) and
    // the values that are not numbers, blocks in file order.
    let owner: Vec<(usize, usize)> =
        (layouts.iter().enumerate()).flat_map(|(s, (_, tf))| (0..tf.len()).map(move |k| (s, k))).collect();
    for ex in extras {
        for (c, bt) in ex.texts.into_iter().enumerate() {
            if bt.rows.is_empty() {
                continue;
            }
            let (s, k) = owner[c];
            let col = &mut out[s].texts[k];
            let codes: Vec<u32> = bt.distinct.iter().map(|t| col.code(t)).collect();
            for (row, local) in bt.rows {
                col.codes[row as usize] = codes[local as usize];
            }
        }
        for (s, row, f, raw) in ex.bad {
            let sec = &mut out[s as usize];
            if sec.bad.len() < BAD_KEEP {
                sec.bad.push((row as i64, f, raw));
            }
        }
        for (s, n) in ex.bad_count {
            out[s as usize].bad_count += n;
        }
    }
    Ok(out)
}

/// Parse one row into its section's columns (row `r`); `values_at`: see `Line::Row`.
fn fill_row(t: &Target, line: &[u8], values_at: usize, sec: u32, r: usize, ex: &mut Extra) {
    let len = line.len();
    if t.plain {
        // The usual section: field f >= 2 is value column f - 2 (skip the tag and Tnnnn).
        let mut i = values_at;
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
            if i > fs {
                ex.text(t.text_base + (-2 - slot) as usize, r as u32, &line[fs..i]);
            }
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
