//! Pass 1: split the lines of every block, classify each one, note the data rows of each
//! section and keep the other lines as text. The threads each number the sections they meet;
//! the numbering is made global afterwards, and the per-section arrays (line, snapshot, field
//! count of each row) are filled by the threads again, each block into its own places.

use crate::classify::{classify, commas, zzzz, Line};
use crate::input::{block_data, for_blocks, FxMap, Input, Tag};
use std::collections::HashMap;

/// A data row found by pass 1 (positions are inside its block's bytes).
#[derive(Clone, Copy)]
struct Row {
    sec: u32, // section: lane-local
    snap: u32,
    nf: u32,   // field count
    line: u32, // line number inside the block (1-based)
    start: u32,
}

/// A data row as pass 2 needs it: its section (global) and where it starts in its block (it
/// ends at the next line end). Kept small: a long recording has millions of rows.
#[derive(Clone, Copy)]
pub(crate) struct Slot {
    pub(crate) sec: u32,
    pub(crate) start: u32,
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
                if blk.counts.len() <= sec as usize {
                    blk.counts.resize(sec as usize + 1, 0);
                }
                blk.counts[sec as usize] += 1;
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

/// What pass 1 found; sections are numbered globally lane by lane (lane 0's in the order it met
/// them, then the ones only lane 1 met ...).
pub(crate) struct Pass1 {
    pub(crate) names: Vec<(Vec<u8>, bool)>, // (tag, TOP-style)
    pub(crate) rows: Vec<Vec<Slot>>,        // per block
    pub(crate) base: Vec<Vec<u32>>,         // per block, per section: rows in earlier blocks
    pub(crate) lines: u64,
    pub(crate) text: Vec<(i64, Vec<u8>)>,
    pub(crate) wide: Vec<(i64, u32, Vec<u8>)>,
    pub(crate) cr_line: u64,
    pub(crate) per_sec: Vec<SectionRows>,
    pub(crate) dates: Vec<Vec<u8>>,
    pub(crate) zzzz: Zcols,
}

/// The rows of one section, in file order: line, snapshot and field count of each.
pub(crate) struct SectionRows {
    pub(crate) lines: Vec<i64>,
    pub(crate) snaps: Vec<i64>,
    pub(crate) nfields: Vec<i32>,
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

/// Where the threads write the per-section arrays; each element is written by exactly one
/// block (its rows' places are `base[b][s]..` for its own rows).
struct Places {
    lines: Vec<*mut i64>,
    snaps: Vec<*mut i64>,
    nfields: Vec<*mut i32>,
}
unsafe impl Send for Places {}
unsafe impl Sync for Places {}

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
    let mut sec_maps: Vec<Vec<u32>> = Vec::with_capacity(lanes.len());
    for (k, mut lane) in lanes.into_iter().enumerate() {
        let date_map: Vec<u32> = (lane.dates.iter())
            .map(|d| {
                *date_ids.entry(d.clone()).or_insert_with(|| {
                    dates.push(d.clone());
                    dates.len() as u32 - 1
                })
            })
            .collect();
        sec_maps.push(
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
    let nsec = names.len();
    let mut offset = vec![0u64; nblocks + 1];
    let mut base = Vec::with_capacity(nblocks);
    let mut count = vec![0u32; nsec];
    let mut text = Vec::new();
    let mut wide = Vec::new();
    let mut cr_line = 0;
    let mut zzzz = Zcols::default();
    for (b, entry) in blocks.iter_mut().enumerate() {
        let Some((k, blk)) = entry.as_mut() else {
            offset[b + 1] = offset[b];
            base.push(count.clone());
            continue;
        };
        offset[b + 1] = offset[b] + blk.lines as u64;
        if cr_line == 0 && blk.first_cr > 0 {
            cr_line = offset[b] + blk.first_cr as u64;
        }
        base.push(count.clone());
        for (local, &n) in blk.counts.iter().enumerate() {
            count[sec_maps[*k][local] as usize] += n;
        }
        let at = offset[b];
        text.extend(std::mem::take(&mut blk.text).into_iter().map(|(rel, t)| ((at + rel as u64) as i64, t)));
        wide.extend(std::mem::take(&mut blk.wide).into_iter().map(|(rel, nf, tag)| ((at + rel as u64) as i64, nf, tag)));
        for z in &blk.zzzz {
            zzzz.lines.push((at + z.line as u64) as i64);
            zzzz.snaps.push(z.snap as i64);
            zzzz.digits.push(z.digits as i32);
            zzzz.sods.push(z.sod as i64);
            zzzz.dates.push(z.date as i32);
        }
    }
    // The per-section arrays, filled by the threads: block b writes its rows of section s at
    // base[b][s], base[b][s] + 1 ... (zeroed memory comes untouched from the system).
    let mut per_sec: Vec<SectionRows> = (count.iter())
        .map(|&n| SectionRows { lines: vec![0; n as usize], snaps: vec![0; n as usize], nfields: vec![0; n as usize] })
        .collect();
    let places = Places {
        lines: per_sec.iter_mut().map(|s| s.lines.as_mut_ptr()).collect(),
        snaps: per_sec.iter_mut().map(|s| s.snaps.as_mut_ptr()).collect(),
        nfields: per_sec.iter_mut().map(|s| s.nfields.as_mut_ptr()).collect(),
    };
    let (blocks_ref, base_ref, maps_ref, offset_ref, places_ref) = (&blocks, &base, &sec_maps, &offset, &places);
    let rows = for_blocks(nblocks, threads, |b, _| {
        let Some((k, blk)) = &blocks_ref[b] else { return Ok(Vec::new()) };
        let map = &maps_ref[*k];
        let mut next = base_ref[b].clone();
        let mut slots = Vec::with_capacity(blk.rows.len());
        for row in &blk.rows {
            let s = map[row.sec as usize] as usize;
            let r = next[s] as usize;
            next[s] += 1;
            // SAFETY: r < rows of section s (counted above), and only block b writes its places.
            unsafe {
                *places_ref.lines[s].add(r) = (offset_ref[b] + row.line as u64) as i64;
                *places_ref.snaps[s].add(r) = row.snap as i64;
                *places_ref.nfields[s].add(r) = row.nf as i32;
            }
            slots.push(Slot { sec: s as u32, start: row.start });
        }
        Ok(slots)
    })?;
    drop(places);
    drop(blocks);
    Ok(Pass1 { names, rows, base, lines: offset[nblocks], text, wide, cr_line, per_sec, dates, zzzz })
}
