//! The spool: an append-only file beside the database (`<db>.spool`) where the hook writes
//! every question's events (a question never opens SQLite: `crate::hook::handle`), and any
//! write the database could not take in time. The end of a turn ingests it a little at a time,
//! within a small budget; any CLI command that opens the store for writing ingests the rest.
//!
//! ## Format
//! One record per event, self-delimiting and verifiable:
//!
//! ```text
//! \x1e v1 <len:10 digits> <crc32:8 hex> \n <len bytes of JSON> \n      (no spaces around \x1e/\n)
//! ```
//!
//! The JSON is one serialised [`Batch`]. `serde_json` escapes every control character, so the
//! record separator `\x1e` (ASCII RS) never occurs inside a record: a reader that meets a torn
//! record (a writer killed mid-append, a full disk) knows where the next one starts, checks the
//! length and the CRC-32, and skips only the damaged bytes. Those are appended to
//! `<spool>.quarantine` (kept, up to [`QUARANTINE_MAX_BYTES`]) and reported, never silently
//! dropped. The previous format, one JSON line per event, is still read: any line that does not
//! start with `\x1e` is such a line, so a spool an older askhook wrote (or is still appending
//! to) is ingested as it is.
//!
//! ## Ingest
//! Appenders take a *shared* lock on the spool and write each record with one `O_APPEND`
//! write, so any number of hooks append at once; ingest takes the *exclusive* lock, so no record
//! lands between its read and its bookkeeping. Both waits are bounded. Ingest reads records from
//! the cursor on, streaming (memory stays bounded by one record and the chunk budget), applies
//! them in one transaction, commits, then moves the cursor (`<spool>.pos`: offset, the spool's
//! device and inode, a checksum) past them; once every record is in, it drops the cursor and
//! empties the spool, in that order. A crash between commit and cursor replays records already
//! in the database, which is harmless because every write is idempotent; a cursor that does not
//! match the spool (another file, beyond its end, not on a record boundary) is ignored, which
//! also only replays. Appends are not fsynced: like the database (`synchronous = NORMAL`) they
//! survive a crash of the process, not a power cut.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write as _};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::sys::fsutil;

use super::row::Batch;

/// The first byte of every record (ASCII record separator).
pub const MARK: u8 = 0x1e;

/// The largest record written or read (a record is a little larger than its hook payload,
/// which `ASKHOOK_MAX_INPUT_BYTES` caps at 4 MiB by default).
pub const MAX_RECORD_BYTES: u64 = 64 << 20;

/// The most damaged bytes kept in `<spool>.quarantine`; beyond it they are only reported.
pub const QUARANTINE_MAX_BYTES: u64 = 16 << 20;

/// `\x1e` `v1 ` 10 digits ` ` 8 hex `\n`.
const HEADER_BYTES: usize = 24;

/// Where ingest stands in `spool`: the offset of the first record not yet applied.
pub fn cursor_path(spool: &Path) -> PathBuf {
    suffixed(spool, ".pos")
}

/// Where damaged records of `spool` are kept.
pub fn quarantine_path(spool: &Path) -> PathBuf {
    suffixed(spool, ".quarantine")
}

fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// CRC-32 (IEEE 802.3, the zlib one), table-driven.
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut n = 0;
        while n < 256 {
            let mut c = n as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 == 1 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            table[n] = c;
            n += 1;
        }
        table
    };
    !bytes.iter().fold(!0u32, |c, &b| {
        TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8)
    })
}

/// One event as a spool record (see the module doc).
pub fn encode(write: &Batch) -> io::Result<Vec<u8>> {
    let mut out = vec![0u8; HEADER_BYTES];
    serde_json::to_writer(&mut out, write).map_err(io::Error::other)?;
    let len = out.len() - HEADER_BYTES;
    if len as u64 > MAX_RECORD_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("the event is {len} bytes, more than a spool record may hold"),
        ));
    }
    let header = format!("\x1ev1 {len:010} {:08x}\n", crc32(&out[HEADER_BYTES..]));
    out[..HEADER_BYTES].copy_from_slice(header.as_bytes());
    out.push(b'\n');
    Ok(out)
}

/// Append one write to the spool, waiting at most `budget` for its lock.
pub fn append(spool: &Path, write: &Batch, budget: Duration) -> io::Result<()> {
    append_record(spool, &encode(write)?, budget)
}

/// Append one encoded record ([`encode`]) to the spool, waiting at most `budget` for its lock.
pub fn append_record(spool: &Path, record: &[u8], budget: Duration) -> io::Result<()> {
    if let Some(dir) = spool.parent() {
        fsutil::create_private_dir(dir)?;
    }
    let mut file = fsutil::open_regular(
        spool,
        fsutil::private_options(OpenOptions::new().append(true).create(true)),
    )?;
    if !fsutil::lock_shared_within(&file, budget)? {
        return Err(io::Error::new(
            io::ErrorKind::TimedOut,
            "the spool lock was not obtained in time",
        ));
    }
    let result = file.write_all(record);
    let _ = file.unlock();
    result
}

/// How much one ingest may take.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Stop taking records once this many bytes were read (the record that crosses it is
    /// taken whole).
    pub bytes: u64,
    /// Stop taking records once this much time went by.
    pub time: Duration,
    /// A record larger than this is left for an ingest with a larger budget (the CLI's).
    pub record_bytes: u64,
    /// The longest wait for the spool's exclusive lock.
    pub lock_wait: Duration,
}

/// A stretch of the spool that is not a whole record: skipped, kept in the quarantine.
#[derive(Debug, Clone)]
pub struct Damaged {
    pub offset: u64,
    pub len: u64,
    pub why: &'static str,
    /// Its first bytes (up to [`MAX_RECORD_BYTES`]), for the quarantine.
    kept: Vec<u8>,
}

/// What one ingest read from the spool, under its exclusive lock until [`Chunk::finish`].
pub struct Chunk {
    file: File,
    spool: PathBuf,
    pub writes: Vec<Batch>,
    pub damaged: Vec<Damaged>,
    /// The spool's length when read, and how far this chunk reaches.
    len: u64,
    end: u64,
    /// The cursor the chunk started from was not valid (ignored; the spool is replayed).
    pub cursor_reset: bool,
}

impl Chunk {
    /// Spool bytes not covered by this chunk.
    pub fn backlog(&self) -> u64 {
        self.len - self.end
    }

    /// Keep a write the database refused (it is quarantined like a damaged record).
    pub fn reject(&mut self, write: &Batch, why: &'static str) {
        let kept = encode(write).unwrap_or_default();
        self.damaged.push(Damaged {
            offset: self.end,
            len: kept.len() as u64,
            why,
            kept,
        });
    }

    /// After the chunk's writes were committed: quarantine the damaged bytes, move the cursor
    /// past the chunk (or, when it reached the end, drop the cursor and empty the spool), and
    /// release the lock. Returns the quarantine problem, if any (the ingest goes on regardless).
    pub fn finish(self) -> io::Result<Option<String>> {
        let kept = quarantine(&self.spool, &self.damaged);
        let result = if self.end >= self.len {
            // Cursor first: a crash between the two then replays, it never skips.
            match std::fs::remove_file(cursor_path(&self.spool)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
                _ => self.file.set_len(0),
            }
        } else {
            write_cursor(&self.spool, &self.file, self.end)
        };
        let _ = self.file.unlock();
        result.map(|()| kept.err())
    }
}

/// Spool bytes not ingested yet (from the cursor to the end); 0 when there is no spool.
pub fn backlog(spool: &Path) -> io::Result<u64> {
    let file = match fsutil::open_regular(spool, OpenOptions::new().read(true)) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    let start = read_cursor(spool, &file, &meta).unwrap_or(0);
    Ok(meta.len() - start)
}

/// Lock the spool and read records from its cursor on, within `budget`. `Ok(None)` when there
/// is nothing to ingest or another process holds the lock (it ingests, or a later run will).
pub fn take(spool: &Path, budget: &Budget) -> io::Result<Option<Chunk>> {
    let file = match fsutil::open_regular(spool, OpenOptions::new().read(true).write(true)) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if file.metadata()?.len() == 0 || !fsutil::lock_within(&file, budget.lock_wait)? {
        return Ok(None);
    }
    let meta = file.metadata()?;
    let len = meta.len();
    let (start, cursor_reset) = match read_cursor(spool, &file, &meta) {
        Some(offset) => (offset, false),
        None => (0, cursor_path(spool).exists()),
    };
    if start > len {
        return Ok(None);
    }
    let (mut writes, mut damaged) = (Vec::new(), Vec::new());
    let mut reader = &file;
    reader.seek(SeekFrom::Start(start))?;
    let mut scanner = Scanner {
        reader: BufReader::with_capacity(64 * 1024, reader.take(len - start)),
        offset: start,
    };
    let started = Instant::now();
    let mut end = start;
    while end - start < budget.bytes && started.elapsed() < budget.time {
        match scanner.next_item(budget.record_bytes)? {
            None | Some(Item::TooBig) => break,
            Some(Item::Write(write)) => writes.push(*write),
            Some(Item::Damaged(d)) => damaged.push(d),
        }
        end = scanner.offset;
    }
    drop(scanner);
    Ok(Some(Chunk {
        file,
        spool: spool.to_path_buf(),
        writes,
        damaged,
        len,
        end,
        cursor_reset,
    }))
}

/// One thing read from the spool.
enum Item {
    Write(Box<Batch>),
    Damaged(Damaged),
    /// A record larger than the budget allows (left where it is).
    TooBig,
}

/// How a piece of the spool ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// At a newline (consumed).
    Newline,
    /// Before a record separator (not consumed).
    Mark,
    Eof,
    /// The piece is longer than it may be (consumed up to the limit).
    Limit,
}

/// A piece of the spool: its first bytes, its length, how it ended.
struct Piece {
    kept: Vec<u8>,
    len: u64,
    end: End,
}

/// A streaming reader of records, tracking its offset in the spool.
struct Scanner<R> {
    reader: R,
    offset: u64,
}

impl<R: BufRead> Scanner<R> {
    /// Consume up to and including the next newline, or up to the next record separator (with
    /// `own_mark`, a separator in first position is the piece's own), or the end, or `limit`
    /// bytes; keep at most `keep` of them.
    fn piece(&mut self, own_mark: bool, keep: usize, limit: u64) -> io::Result<Piece> {
        let mut piece = Piece {
            kept: Vec::new(),
            len: 0,
            end: End::Eof,
        };
        loop {
            let buf = self.reader.fill_buf()?;
            if buf.is_empty() {
                return Ok(piece);
            }
            let from = usize::from(own_mark && piece.len == 0 && buf[0] == MARK);
            let stop = buf[from..]
                .iter()
                .position(|&b| b == b'\n' || b == MARK)
                .map(|i| i + from);
            let (mut take, mut end) = match stop {
                Some(i) if buf[i] == b'\n' => (i + 1, Some(End::Newline)),
                Some(i) => (i, Some(End::Mark)),
                None => (buf.len(), None),
            };
            let room = limit - piece.len;
            if take as u64 > room {
                (take, end) = (room as usize, Some(End::Limit));
            }
            let wanted = keep.saturating_sub(piece.kept.len()).min(take);
            piece.kept.extend_from_slice(&buf[..wanted]);
            self.reader.consume(take);
            piece.len += take as u64;
            self.offset += take as u64;
            if let Some(end) = end {
                piece.end = end;
                return Ok(piece);
            }
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        Ok(self.reader.fill_buf()?.first().copied())
    }

    /// The next record, damaged stretch or blank line (skipped), or `None` at the end.
    fn next_item(&mut self, record_bytes: u64) -> io::Result<Option<Item>> {
        loop {
            let Some(first) = self.peek()? else {
                return Ok(None);
            };
            let start = self.offset;
            let item = if first == MARK {
                self.framed(start, record_bytes)?
            } else {
                match self.line(start, record_bytes)? {
                    Some(item) => item,
                    None => continue,
                }
            };
            return Ok(Some(item));
        }
    }

    /// A framed record: header line, then the JSON line it announces.
    fn framed(&mut self, start: u64, record_bytes: u64) -> io::Result<Item> {
        let header = self.piece(true, HEADER_BYTES * 2, HEADER_BYTES as u64 * 2)?;
        let Some((len, crc)) = parse_header(&header) else {
            return Ok(damaged(start, header, None, "not a spool record header"));
        };
        if len > record_bytes {
            return Ok(if record_bytes < MAX_RECORD_BYTES {
                Item::TooBig
            } else {
                damaged(
                    start,
                    header,
                    None,
                    "a record longer than any askhook writes",
                )
            });
        }
        let body = self.piece(false, len as usize + 1, len + 1)?;
        if body.end == End::Limit {
            let why = "longer than its header says";
            return Ok(damaged(start, header, Some(body), why));
        }
        if body.end != End::Newline || body.len != len + 1 {
            return Ok(damaged(start, header, Some(body), "torn (cut short)"));
        }
        let json = &body.kept[..len as usize];
        if crc32(json) != crc {
            return Ok(damaged(start, header, Some(body), "checksum mismatch"));
        }
        Ok(match serde_json::from_slice::<Batch>(json) {
            Ok(write) => Item::Write(Box::new(write)),
            Err(_) => damaged(
                start,
                header,
                Some(body),
                "not understood (written by a newer askhook?)",
            ),
        })
    }

    /// A line of the previous format (one JSON write per line); `None` for a blank line.
    fn line(&mut self, start: u64, record_bytes: u64) -> io::Result<Option<Item>> {
        let line = self.piece(false, MAX_RECORD_BYTES as usize, record_bytes + 1)?;
        if line.end == End::Limit {
            return Ok(Some(if record_bytes < MAX_RECORD_BYTES {
                Item::TooBig
            } else {
                damaged(start, line, None, "a line longer than any askhook writes")
            }));
        }
        if line.kept.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        Ok(Some(match serde_json::from_slice::<Batch>(&line.kept) {
            Ok(write) => Item::Write(Box::new(write)),
            Err(_) if line.end == End::Newline => damaged(start, line, None, "an unreadable line"),
            Err(_) => damaged(start, line, None, "torn (cut short)"),
        }))
    }
}

fn damaged(offset: u64, head: Piece, body: Option<Piece>, why: &'static str) -> Item {
    let mut kept = head.kept;
    let mut len = head.len;
    if let Some(body) = body {
        kept.extend_from_slice(&body.kept);
        len += body.len;
    }
    Item::Damaged(Damaged {
        offset,
        len,
        why,
        kept,
    })
}

/// `(len, crc)` of a whole header line.
fn parse_header(header: &Piece) -> Option<(u64, u32)> {
    if header.end != End::Newline {
        return None;
    }
    let text = std::str::from_utf8(header.kept.get(1..header.kept.len() - 1)?).ok()?;
    let mut fields = text.split(' ');
    if fields.next()? != "v1" {
        return None;
    }
    let len = fields.next()?.parse().ok()?;
    let crc = u32::from_str_radix(fields.next()?, 16).ok()?;
    fields.next().is_none().then_some((len, crc))
}

/// Append the kept bytes of `damaged` to the quarantine, each after a line saying what it was.
fn quarantine(spool: &Path, damaged: &[Damaged]) -> Result<(), String> {
    if damaged.is_empty() {
        return Ok(());
    }
    let path = quarantine_path(spool);
    let fail = |e: io::Error| format!("{}: {e}", path.display());
    let mut file = fsutil::open_regular(
        &path,
        fsutil::private_options(OpenOptions::new().append(true).create(true)),
    )
    .map_err(fail)?;
    if file.metadata().map_err(fail)?.len() >= QUARANTINE_MAX_BYTES {
        return Err(format!(
            "{} is full ({QUARANTINE_MAX_BYTES} bytes)",
            path.display()
        ));
    }
    let now = crate::sys::time::format_rfc3339(crate::sys::time::now_ms());
    for d in damaged {
        let mut text = format!(
            "\n# askhook {now}: {} bytes from spool offset {} skipped: {}\n",
            d.len, d.offset, d.why
        )
        .into_bytes();
        text.extend_from_slice(&d.kept);
        file.write_all(&text).map_err(fail)?;
    }
    Ok(())
}

/// The cursor line: offset, the spool's device and inode, and a CRC-32 of the three.
fn cursor_line(offset: u64, dev: u64, ino: u64) -> String {
    let fields = format!("{offset:020} {dev:020} {ino:020}");
    format!("{fields} {:08x}\n", crc32(fields.as_bytes()))
}

/// The cursor of `spool`, when it is valid for this file: same device and inode, inside the
/// file, on a record boundary.
fn read_cursor(spool: &Path, file: &File, meta: &std::fs::Metadata) -> Option<u64> {
    let bytes = fsutil::read_regular(&cursor_path(spool), 128).ok()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    let offset: u64 = text.get(..20)?.parse().ok()?;
    if text != cursor_line(offset, meta.dev(), meta.ino()) || offset > meta.len() {
        return None;
    }
    let at = |o: u64| {
        let mut b = [0u8];
        file.read_exact_at(&mut b, o).ok().map(|()| b[0])
    };
    let boundary = offset == 0
        || offset == meta.len()
        || at(offset - 1) == Some(b'\n')
        || at(offset) == Some(MARK);
    boundary.then_some(offset)
}

fn write_cursor(spool: &Path, file: &File, offset: u64) -> io::Result<()> {
    let meta = file.metadata()?;
    let cursor = fsutil::open_regular(
        &cursor_path(spool),
        fsutil::private_options(OpenOptions::new().write(true).create(true)),
    )?;
    // Fixed width: one write over the old line replaces it whole.
    cursor.write_all_at(cursor_line(offset, meta.dev(), meta.ino()).as_bytes(), 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decline(n: i64) -> Batch {
        Batch::Decline {
            session_id: format!("s{n}\n\u{1e}"),
            at: n,
        }
    }

    fn read_all(bytes: &[u8]) -> Vec<Result<i64, &'static str>> {
        let mut scanner = Scanner {
            reader: io::BufReader::with_capacity(7, bytes),
            offset: 0,
        };
        let mut out = Vec::new();
        while let Some(item) = scanner.next_item(MAX_RECORD_BYTES).unwrap() {
            out.push(match item {
                Item::Write(w) => match *w {
                    Batch::Decline { at, .. } => Ok(at),
                    Batch::Records { .. } => Ok(-1),
                },
                Item::Damaged(d) => Err(d.why),
                Item::TooBig => Err("too big"),
            });
        }
        assert_eq!(
            scanner.offset,
            bytes.len() as u64,
            "every byte is accounted for"
        );
        out
    }

    #[test]
    fn crc32_is_the_zlib_one() {
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    #[allow(clippy::naive_bytecount)] // a test over a few bytes
    fn a_record_holds_no_raw_separator_or_newline_inside() {
        let record = encode(&decline(1)).unwrap();
        assert_eq!(record[0], MARK);
        assert_eq!(record.iter().filter(|&&b| b == MARK).count(), 1);
        assert_eq!(record.iter().filter(|&&b| b == b'\n').count(), 2);
        assert_eq!(read_all(&record), vec![Ok(1)]);
    }

    #[test]
    fn a_torn_record_is_skipped_and_the_next_one_read() {
        let cases: &[(&str, usize)] = &[
            ("cut inside the header", 5),
            ("cut right after the header", HEADER_BYTES),
            ("cut inside the JSON", HEADER_BYTES + 10),
            (
                "cut before the last newline",
                encode(&decline(1)).unwrap().len() - 1,
            ),
        ];
        for (name, cut) in cases {
            let mut bytes = encode(&decline(1)).unwrap()[..*cut].to_vec();
            bytes.extend(encode(&decline(2)).unwrap());
            let items = read_all(&bytes);
            assert_eq!(items.len(), 2, "{name}: {items:?}");
            assert!(items[0].is_err(), "{name}");
            assert_eq!(items[1], Ok(2), "{name}");
        }
    }

    #[test]
    fn a_flipped_byte_fails_the_checksum() {
        let mut bytes = encode(&decline(1)).unwrap();
        let i = bytes.len() - 3;
        bytes[i] ^= 1;
        bytes.extend(encode(&decline(2)).unwrap());
        assert_eq!(read_all(&bytes), vec![Err("checksum mismatch"), Ok(2)]);
    }

    #[test]
    fn old_json_lines_mixed_with_records_are_all_read() {
        let line = |n| {
            let mut l = serde_json::to_vec(&decline(n)).unwrap();
            l.push(b'\n');
            l
        };
        let mut bytes = line(1);
        bytes.extend(b"\n  \n");
        bytes.extend(line(2));
        bytes.extend(&line(3)[..10]); // an old writer killed mid-line
        bytes.extend(encode(&decline(4)).unwrap());
        bytes.extend(line(5)); // an old writer appending after a new one
        assert_eq!(
            read_all(&bytes),
            vec![Ok(1), Ok(2), Err("torn (cut short)"), Ok(4), Ok(5)]
        );
    }

    #[test]
    fn a_record_over_the_budget_is_left_in_place() {
        let bytes = encode(&decline(1)).unwrap();
        let mut scanner = Scanner {
            reader: io::BufReader::new(&bytes[..]),
            offset: 0,
        };
        assert!(matches!(scanner.next_item(8).unwrap(), Some(Item::TooBig)));
    }

    #[test]
    fn the_cursor_must_match_its_spool() {
        let dir = tempfile::tempdir().unwrap();
        let spool = dir.path().join("db.spool");
        let mut bytes = encode(&decline(1)).unwrap();
        let first = bytes.len() as u64;
        bytes.extend(encode(&decline(2)).unwrap());
        std::fs::write(&spool, &bytes).unwrap();
        let file = File::open(&spool).unwrap();
        let meta = file.metadata().unwrap();
        write_cursor(&spool, &file, first).unwrap();
        assert_eq!(read_cursor(&spool, &file, &meta), Some(first));
        write_cursor(&spool, &file, first - 3).unwrap();
        assert_eq!(read_cursor(&spool, &file, &meta), None, "not a boundary");
        let text = cursor_line(first, meta.dev(), meta.ino() + 1);
        std::fs::write(cursor_path(&spool), text).unwrap();
        assert_eq!(read_cursor(&spool, &file, &meta), None, "another file");
    }
}
