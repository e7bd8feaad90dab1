//! Pass 2: the values of every row, parsed straight into its section's float64 columns (NaN for
//! an empty field, a missing one, or one that is not a number, which is also reported), and the
//! text columns (TOP's command names ...) as a code per row and each distinct text once.

use crate::input::{block_data, for_blocks, FxMap, Input};
use crate::numbers::next_number;
use crate::pass1::Slot;
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
}

/// Pass 2 over every block. `layouts`: per section, its value fields and text fields (field 0
/// is the tag); `rows`, `base`, `sec_rows`: pass 1's rows per block (taken), rows before each
/// block per section, rows per section.
#[allow(clippy::too_many_arguments)]
pub(crate) fn pass2(
    input: &Input,
    layouts: &[(Vec<usize>, Vec<usize>)],
    rows: &[Mutex<Vec<Slot>>],
    base: &[Vec<u32>],
    sec_rows: &[usize],
    nblocks: usize,
    threads: usize,
    block: u64,
) -> std::io::Result<Vec<SectionValues>> {
    let mut bufs: Vec<Vec<f64>> = Vec::new();
    let mut targets = Vec::new();
    let mut text_base = 0;
    for (s, (vf, tf)) in layouts.iter().enumerate() {
        let n = sec_rows[s];
        let width = vf.iter().chain(tf.iter()).max().map_or(0, |m| m + 1);
        let mut slot = vec![-1i32; width];
        for (j, &f) in vf.iter().enumerate() {
            slot[f] = j as i32;
        }
        for (k, &f) in tf.iter().enumerate() {
            slot[f] = -2 - k as i32;
        }
        // Zeroed memory comes from the system untouched: the threads fill it in parallel.
        let mut buf = vec![0.0f64; n * vf.len()];
        let plain = tf.is_empty() && vf.iter().enumerate().all(|(j, &f)| f == j + 2);
        targets.push(Target { plain, ptr: buf.as_mut_ptr(), rows: n, slot, value_fields: vf.clone(), text_base });
        text_base += tf.len();
        bufs.push(buf);
    }
    let targets_ref = &targets;
    let extras: Vec<Extra> = for_blocks(nblocks, threads, |b, buf| {
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
    })?;
    drop(targets);
    // Per section: its text columns (each block's distinct texts coded once, then its rows) and
    // the values that are not numbers, blocks in file order.
    let mut out: Vec<SectionValues> = (bufs.into_iter().enumerate())
        .map(|(s, values)| SectionValues {
            values,
            texts: (0..layouts[s].1.len()).map(|_| TextColumn::new(sec_rows[s])).collect(),
            bad: Vec::new(),
            bad_count: 0,
        })
        .collect();
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
