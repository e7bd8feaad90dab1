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
//! Modules: [`classify`] (what a line is), [`numbers`] (what a field is worth), [`input`]
//! (blocks of a file or of bytes), [`pass1`], [`pass2`]; [`attrs`] reads HMC attribute listings
//! (`lslparutil` events) for the HMC reader; this file is the Python interface.
//!
//! Line ends: "\n", "\r\n" and a lone "\r" all end a line (as the Python reader's
//! `replace(b"\r\n", b"\n").replace(b"\r", b"\n")`).

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use std::fs::File;

mod attrs;
mod classify;
mod input;
mod numbers;
mod pass1;
mod pass2;

use input::Input;
use pass1::{pass1, Pass1};
use pass2::pass2;

const BLOCK: u64 = 8 << 20; // bytes per block (default)
const WIN: usize = 32; // the classifier looks at the first 32 bytes of a line (as fast.scan)

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
/// data rows of each section (``sections``: dicts with ``name``, ``top``, ``rows``, and
/// ``first_line``, ``first_nf``, ``most_nf``: the line and field count of its first row, the
/// most fields of a row) and the other lines (``text``: a list of (line, bytes)) but the ZZZZ
/// lines of the usual form ``ZZZZ,Tnnnn,hh:mm:ss,date``, which are read here (``zzzz``: a dict
/// of numpy arrays ``lines``, ``snaps``, ``digits`` (of the snapshot field), ``sods`` (seconds
/// of the day), ``dates`` (index into ``date_names``)); ``lines`` is the line count,
/// ``cr_line`` the first line with a carriage return (0 when none). Python reads the text
/// (headers ...) and decides the columns of each section; ``values(layouts)`` then runs pass 2
/// and parses the rows. ``threads``: 0 = one per core; ``block``: bytes per block (0 = 8 MiB).
#[pyclass]
struct Scanner {
    src: Source,
    block: u64,
    threads: usize,
    pass1: std::sync::Mutex<Option<Pass1>>, // what pass 2 needs (taken by it)
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
            p.sections.clear();
            p.text.clear();
            p.wide.clear();
            p.rows.iter_mut().for_each(|r| r.clear());
        }
        let wide = PyList::new_bound(
            py,
            std::mem::take(&mut p.wide)
                .into_iter()
                .map(|(l, nf, tag)| (l, nf, String::from_utf8_lossy(&tag).into_owned()).into_py(py))
                .collect::<Vec<PyObject>>(),
        );
        let text = PyList::new_bound(
            py,
            (std::mem::take(&mut p.text).into_iter())
                .map(|(l, t)| (l, PyBytes::new_bound(py, &t)).into_py(py))
                .collect::<Vec<PyObject>>(),
        );
        let sections = PyList::empty_bound(py);
        for ((name, top), sec) in p.names.iter().zip(&p.sections) {
            let d = PyDict::new_bound(py);
            d.set_item("name", String::from_utf8_lossy(name).into_owned())?;
            d.set_item("top", *top)?;
            d.set_item("rows", sec.rows)?;
            d.set_item("first_line", sec.first_line)?;
            d.set_item("first_nf", sec.first_nf)?;
            d.set_item("most_nf", sec.most_nf)?;
            sections.append(d)?;
        }
        let z = PyDict::new_bound(py);
        let zz = std::mem::take(&mut p.zzzz);
        z.set_item("lines", PyArray1::from_vec_bound(py, zz.lines))?;
        z.set_item("snaps", PyArray1::from_vec_bound(py, zz.snaps))?;
        z.set_item("digits", PyArray1::from_vec_bound(py, zz.digits))?;
        z.set_item("sods", PyArray1::from_vec_bound(py, zz.sods))?;
        z.set_item("dates", PyArray1::from_vec_bound(py, zz.dates))?;
        let names: Vec<String> = p.dates.iter().map(|d| String::from_utf8_lossy(d).into_owned()).collect();
        z.set_item("date_names", PyList::new_bound(py, names))?;
        Ok(Scanner {
            src,
            block,
            threads,
            lines: p.lines,
            cr_line: p.cr_line,
            text: text.unbind(),
            wide: wide.unbind(),
            sections_found,
            sections: sections.unbind(),
            zzzz: z.unbind(),
            pass1: std::sync::Mutex::new(Some(p)),
        })
    }

    /// Pass 2 (once): ``layouts`` gives per section (in ``sections`` order) its value fields and
    /// text fields (field 0 is the tag). Returns per section (values, text, bad, bad_count,
    /// lines, snaps, nfields): a (len(value_fields), rows) float64 array (NaN: empty, missing or
    /// not a number), a dict field -> (codes, distinct texts) (code 0: "", the row is shorter),
    /// the first values that are not numbers as (row, field, text) in file order, their count,
    /// and per row its line, snapshot and field count (int64, int64, int32 arrays).
    fn values<'py>(&self, py: Python<'py>, layouts: Vec<(Vec<usize>, Vec<usize>)>) -> PyResult<Bound<'py, PyList>> {
        let (threads, block) = (self.threads, self.block);
        let Some(mut p) = self.pass1.lock().expect("nmon scanner lock").take() else {
            return Err(pyo3::exceptions::PyRuntimeError::new_err("values() was already called"));
        };
        if layouts.len() != p.sections.len() {
            return Err(pyo3::exceptions::PyValueError::new_err("one layout per section is needed"));
        }
        let layouts_ref = &layouts;
        let found = with_input(py, &self.src, |input| pass2(input, layouts_ref, &mut p, threads, block))?;
        let out = PyList::empty_bound(py);
        for ((vf, tf), mut sec) in layouts.iter().zip(found) {
            let rows = sec.lines.len();
            let values = PyArray1::from_vec_bound(py, sec.values).reshape([vf.len(), rows])?;
            let text = PyDict::new_bound(py);
            for (&f, col) in tf.iter().zip(sec.texts.iter_mut()) {
                let distinct = col.distinct();
                let codes = PyArray1::from_vec_bound(py, std::mem::take(&mut col.codes));
                text.set_item(f, (codes, PyList::new_bound(py, distinct)))?;
            }
            let bad = PyList::new_bound(
                py,
                (sec.bad.iter())
                    .map(|(l, f, raw)| (*l, *f, String::from_utf8_lossy(raw).into_owned()).into_py(py))
                    .collect::<Vec<PyObject>>(),
            );
            let (lines, snaps, nfields) = (
                PyArray1::from_vec_bound(py, sec.lines),
                PyArray1::from_vec_bound(py, sec.snaps),
                PyArray1::from_vec_bound(py, sec.nfields),
            );
            out.append((values, text, bad, sec.bad_count, lines, snaps, nfields))?;
        }
        Ok(out)
    }
}

/// Parse one field as the reader does (for tests): a float, or None when it is not a number.
#[pyfunction]
fn parse_number(tok: &[u8]) -> Option<f64> {
    numbers::parse_num(tok)
}

/// An HMC attribute listing (``lslparutil`` events, one ``name=value,...`` line each) read
/// column-wise (see `attrs.rs`): ``(lines, names, columns)`` or None when Python must read it.
/// ``lines``: int64, each row's line (``first_line`` + its 0-based line in ``text``);
/// ``columns``: per name ``(floats, codes, distinct)``: float64 values when all are plain numbers
/// within ``limit`` (else None), and, for the names in ``coded`` or when there are no floats,
/// a uint32 code per row into the distinct values (in order of first appearance).
#[pyfunction]
fn attr_listing(
    py: Python<'_>,
    text: &str,
    first_line: i64,
    coded: std::collections::HashSet<String>,
    limit: f64,
) -> PyResult<Option<PyObject>> {
    let Some(listing) = attrs::read(text) else { return Ok(None) };
    let lines: Vec<i64> = listing.lines.iter().map(|i| i + first_line).collect();
    let columns = PyList::empty_bound(py);
    for (name, column) in listing.names.iter().zip(&listing.columns) {
        let floats = attrs::floats(column, limit);
        let (codes, distinct) = if floats.is_none() || coded.contains(*name) {
            let (codes, distinct) = attrs::coded(column);
            (Some(PyArray1::from_vec_bound(py, codes)), Some(PyList::new_bound(py, distinct)))
        } else {
            (None, None)
        };
        columns.append((floats.map(|f| PyArray1::from_vec_bound(py, f)), codes, distinct))?;
    }
    Ok(Some((PyArray1::from_vec_bound(py, lines), PyList::new_bound(py, &listing.names), columns).into_py(py)))
}

/// What the Python side expects of this core; a core built from older sources (an editable
/// install not rebuilt) says another number, or none, and is not used.
const API: u32 = 3;

#[pymodule]
fn _nmon_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Scanner>()?;
    m.add_function(wrap_pyfunction!(parse_number, m)?)?;
    m.add_function(wrap_pyfunction!(attr_listing, m)?)?;
    m.add("BLOCK", BLOCK)?;
    m.add("API", API)?;
    Ok(())
}