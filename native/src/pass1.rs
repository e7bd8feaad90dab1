//! Pass 1: split the lines of every block, classify each one, note the data rows of each
//! section and keep the other lines as text. The threads each number the sections they meet;
//! the numbering is made global afterwards (each block keeps its rows, with its lane's
//! numbers, for pass 2, which also writes each row's line, snapshot and field count).

use crate::classify::{classify, commas, for_lines, zzzz, Line};
use crate::input::{block_data, FxMap, Input, Tag};
use std::collections::HashMap;

/// A data row found by pass 1 (positions are inside its block's bytes). Kept small: a long
/// recording has millions of rows.
#[derive(Clone, Copy)]
pub(crate) struct Row {
    pub(crate) sec: u32, // section: numbered by the lane that read the block (see `Pass1::maps`)
    pub(crate) snap: u32,
    pub(crate) nf: u32,   // field count
    pub(crate) line: u32, // line number inside the block (1-based)
    pub(crate) start: u32,
    pub(crate) len: u32,
    pub(crate) values_at: u8, // see `Line::Row`
}

/// A ZZZZ line read by [`zzzz`] (date: lane-local index).
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
    counts: Vec<u32>, // rows per (lane-local) section
    first: Vec<(u32, u32)>, // per (lane-local) section: line inside the block and field count of its first row
    most: Vec<u32>, // per (lane-local) section: the most fields of its rows
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
    /// One line (`nf`: its field count, one more than its commas).
    fn line(&mut self, blk: &mut Block, line: &[u8], nf: u32, start: usize, rel: u32, force_text: bool) {
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
            Line::Row { tag_end, snap, top, values_at } => {
                let tag = &line[..tag_end];
                if nf > self.max_fields {
                    blk.wide.push((rel, nf, tag.to_vec())); // damaged: not read (Python warns)
                    return;
                }
                let key = Tag::of_line(line, tag_end);
                let sec = match self.index.get(&key) {
                    Some(&i) => i,
                    None => {
                        self.names.push(tag.to_vec());
                        self.top.push(top);
                        self.index.insert(key, self.names.len() as u32 - 1);
                        self.names.len() as u32 - 1
                    }
                };
                let k = sec as usize;
                if blk.counts.len() <= k {
                    blk.counts.resize(k + 1, 0);
                    blk.first.resize(k + 1, (0, 0));
                    blk.most.resize(k + 1, 0);
                }
                if blk.counts[k] == 0 {
                    blk.first[k] = (rel, nf);
                }
                blk.counts[k] += 1;
                blk.most[k] = blk.most[k].max(nf);
                blk.rows.push(Row { sec, snap, nf, line: rel, start: start as u32, len: line.len() as u32, values_at });
            }
        }
    }

    /// Every line of one block; `eof`: the block ends the input (its last line may lack a newline).
    fn block(&mut self, data: &[u8], eof: bool, ends_clean: bool) -> Block {
        let mut blk = Block::default();
        let mut rel: u32 = 0;
        if memchr::memchr(b'\r', data).is_none() {
            // The usual block: every line ends at '\n'.
            for_lines(data, |start, end, commas| {
                rel += 1;
                let last = eof && end + 1 >= data.len();
                self.line(&mut blk, &data[start..end], commas + 1, start, rel, last && !ends_clean);
            });
            blk.lines = rel;
            return blk;
        }
        let mut pos = 0;
        while pos < data.len() {
            let nl = memchr::memchr(b'\n', &data[pos..]).map(|i| pos + i);
            let seg_start = pos;
            let seg = &data[pos..nl.unwrap_or(data.len())];
            pos = nl.map_or(data.len(), |i| i + 1);
            let last_seg = eof && pos >= data.len();
            if memchr::memchr(b'\r', seg).is_none() {
                rel += 1;
                self.line(&mut blk, seg, commas(seg) + 1, seg_start, rel, last_seg && !ends_clean);
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
                self.line(&mut blk, part, commas(part) + 1, start, rel, last_seg && k == n - 1 && !ends_clean);
                start += part.len() + 1;
            }
        }
        blk.lines = rel;
        blk
    }
}

/// What pass 1 found; sections are numbered globally lane by lane (lane 0's in the order it met
/// them, then the ones only lane 1 met ...).
pub(crate) struct Pass1 {
    pub(crate) names: Vec<(Vec<u8>, bool)>, // (tag, TOP-style)
    pub(crate) sections: Vec<SectionSummary>,
    pub(crate) rows: Vec<Vec<Row>>,  // per block
    pub(crate) lane: Vec<usize>,     // per block: the lane that read it
    pub(crate) maps: Vec<Vec<u32>>,  // per lane: its section numbers -> global ones
    pub(crate) base: Vec<Vec<u32>>,  // per block, per section: rows in earlier blocks
    pub(crate) offset: Vec<u64>,     // per block: lines in earlier blocks
    pub(crate) lines: u64,
    pub(crate) text: Vec<(i64, Vec<u8>)>,
    pub(crate) wide: Vec<(i64, u32, Vec<u8>)>,
    pub(crate) cr_line: u64,
    pub(crate) dates: Vec<Vec<u8>>,
    pub(crate) zzzz: Zcols,
}

/// What Python needs of a section's rows to decide its columns, before pass 2 reads them.
#[derive(Clone, Copy, Default)]
pub(crate) struct SectionSummary {
    pub(crate) rows: u32,
    pub(crate) first_line: i64, // line of its first row
    pub(crate) first_nf: u32,   // field count of its first row
    pub(crate) most_nf: u32,    // the most fields of its rows
}

/// The ZZZZ lines read in native code, one entry each, in file order.
#[derive(Default)]
pub(crate) struct Zcols {
    pub(crate) lines: Vec<i64>,
    pub(crate) snaps: Vec<i64>,
    pub(crate) digits: Vec<i32>,
    pub(crate) sods: Vec<i64>,
    pub(crate) dates: Vec<i32>,
}

pub(crate) fn pass1(input: &Input, nblocks: usize, threads: usize, block: u64, ends_clean: bool, max_fields: u32) -> std::io::Result<Pass1> {
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
    // Global numbers of sections and dates, lane by lane.
    let mut blocks: Vec<Option<(usize, Block)>> = (0..nblocks).map(|_| None).collect();
    let mut names: Vec<(Vec<u8>, bool)> = Vec::new();
    let mut global: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut dates: Vec<Vec<u8>> = Vec::new();
    let mut date_ids: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut maps: Vec<Vec<u32>> = Vec::with_capacity(lanes.len());
    for (k, mut lane) in lanes.into_iter().enumerate() {
        let date_map: Vec<u32> = (lane.dates.iter())
            .map(|d| {
                *date_ids.entry(d.clone()).or_insert_with(|| {
                    dates.push(d.clone());
                    dates.len() as u32 - 1
                })
            })
            .collect();
        maps.push(
            (lane.names.iter().zip(&lane.top))
                .map(|(n, &top)| {
                    *global.entry(n.clone()).or_insert_with(|| {
                        names.push((n.clone(), top));
                        names.len() as u32 - 1
                    })
                })
                .collect(),
        );
        for (b, mut blk) in lane.blocks.drain(..) {
            for z in &mut blk.zzzz {
                z.date = date_map[z.date as usize];
            }
            blocks[b] = Some((k, blk));
        }
    }
    // Per block: its first line, and per section the rows before it (from the blocks' own counts).
    let mut offset = vec![0u64; nblocks + 1];
    let mut base = Vec::with_capacity(nblocks);
    let mut sections = vec![SectionSummary::default(); names.len()];
    let mut rows = Vec::with_capacity(nblocks);
    let mut lane = Vec::with_capacity(nblocks);
    let mut text = Vec::new();
    let mut wide = Vec::new();
    let mut cr_line = 0;
    let mut zzzz = Zcols::default();
    for (b, entry) in blocks.into_iter().enumerate() {
        base.push(sections.iter().map(|s| s.rows).collect());
        let Some((k, mut blk)) = entry else {
            offset[b + 1] = offset[b];
            rows.push(Vec::new());
            lane.push(0);
            continue;
        };
        let at = offset[b];
        offset[b + 1] = at + blk.lines as u64;
        if cr_line == 0 && blk.first_cr > 0 {
            cr_line = at + blk.first_cr as u64;
        }
        for (local, &n) in blk.counts.iter().enumerate() {
            let sec = &mut sections[maps[k][local] as usize];
            if n > 0 && sec.rows == 0 {
                (sec.first_line, sec.first_nf) = ((at + blk.first[local].0 as u64) as i64, blk.first[local].1);
            }
            sec.rows += n;
            sec.most_nf = sec.most_nf.max(blk.most[local]);
        }
        text.extend(std::mem::take(&mut blk.text).into_iter().map(|(rel, t)| ((at + rel as u64) as i64, t)));
        wide.extend(std::mem::take(&mut blk.wide).into_iter().map(|(rel, nf, tag)| ((at + rel as u64) as i64, nf, tag)));
        for z in &blk.zzzz {
            zzzz.lines.push((at + z.line as u64) as i64);
            zzzz.snaps.push(z.snap as i64);
            zzzz.digits.push(z.digits as i32);
            zzzz.sods.push(z.sod as i64);
            zzzz.dates.push(z.date as i32);
        }
        rows.push(blk.rows);
        lane.push(k);
    }
    let lines = offset[nblocks];
    offset.truncate(nblocks);
    Ok(Pass1 { names, sections, rows, lane, maps, base, offset, lines, text, wide, cr_line, dates, zzzz })
}
