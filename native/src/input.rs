//! The input (a file read block by block, or bytes in memory), its blocks and a small fast hash.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fs::File;
use std::hash::{BuildHasherDefault, Hasher};
use std::os::unix::fs::FileExt;

// --- a small fast hash for section names and dates ----------------------------------------

#[derive(Default)]
pub(crate) struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        // eight bytes at a time (a slice's length is hashed before its bytes, so the zeros that
        // fill its last word cannot make two slices alike)
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.write_u64(u64::from_le_bytes(w.try_into().unwrap()));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut w = 0u64;
            for (k, &b) in rest.iter().enumerate() {
                w |= (b as u64) << (8 * k);
            }
            self.write_u64(w);
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

pub(crate) type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// A section name (at most 15 bytes, see [`classify`]) as two words: hashed and compared
/// without a loop over its bytes.
#[derive(PartialEq, Eq, Clone, Copy)]
pub(crate) struct Tag(u64, u64);

impl Tag {
    /// The tag that is the first `len` bytes of `line`: two word loads from the line when it is
    /// long enough (a copy into a buffer then word reads of it stalled on store forwarding).
    pub(crate) fn of_line(line: &[u8], len: usize) -> Tag {
        if line.len() < 16 {
            return Tag::new(&line[..len]);
        }
        let word = |at: usize| u64::from_le_bytes(line[at..at + 8].try_into().unwrap());
        let keep = |w: u64, n: usize| if n >= 8 { w } else { w & ((1u64 << (8 * n)) - 1) };
        let hi = keep(word(8), len.saturating_sub(8)) & !(0xff << 56);
        Tag(keep(word(0), len), hi | (len as u64) << 56)
    }

    pub(crate) fn new(tag: &[u8]) -> Tag {
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


pub(crate) enum Input<'a> {
    Mem(&'a [u8]),
    File(File, u64),
}

impl Input<'_> {
    pub(crate) fn size(&self) -> u64 {
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

/// Bytes of the lines owned by block `b` (those starting in [b * block, (b + 1) * block)).
/// A file block is read into `buf` (one buffer per thread, reused); bytes are borrowed.
pub(crate) fn block_data<'a>(input: &'a Input, b: usize, block: u64, buf: &'a mut Vec<u8>) -> std::io::Result<(&'a [u8], bool)> {
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
pub(crate) fn for_blocks<T: Send>(
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
