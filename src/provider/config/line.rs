//! One line of a provider config file, as rdma-core's `read_config_file` reads it (the config
//! reading of dynamic_driver.c: `getline`, then `strspn` over the blanks and `strsep` for the
//! words). The line rules are in the parent module's header; this is the scanner that applies
//! them a chunk at a time, in bounded memory.
#![forbid(unsafe_code)]

/// What one config line says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Empty or blank-only line ending in '\n'.
    Blank,
    /// First non-blank character is '#'.
    Comment,
    /// `driver NAME`.
    Driver(Vec<u8>),
    /// Anything else; carries the first word, as rdma-core's warning shows it.
    Bad(Vec<u8>),
}

fn is_blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn is_sep(c: u8) -> bool {
    c == b'\n' || c == b'\t' || c == b' '
}

/// The longest word a line keeps (a driver name, or a bad directive's first word for its
/// warning); the rest of a longer word is read past. Longer than any path `dlopen` takes.
pub const MAX_WORD: usize = 4096;

/// How much of a bad line a diagnostic's detail quotes.
const QUOTE: usize = 120;

/// Where a [`LineScanner`] is in the current line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// Skipping the leading spaces and tabs.
    Lead,
    /// In the first word.
    First,
    /// After `driver` and its separator, skipping blanks.
    AfterDriver,
    /// In the driver name.
    Name,
    /// The line's outcome is decided; reading past the rest of it.
    Done,
}

/// One config line at a time, fed bytes in any chunks, as rdma-core's `getline` + `strspn` +
/// `strsep` see it (a NUL ends the line's text; see the module rules). Holds at most
/// `MAX_WORD` bytes of a word and `QUOTE` bytes of the line, whatever the line's length.
#[derive(Debug)]
pub struct LineScanner {
    at: At,
    word: Vec<u8>,
    outcome: Option<Line>,
    /// The text ended (a NUL): the rest of the line is not part of it.
    cut: bool,
    quote: Vec<u8>,
    line: usize,
}

impl Default for LineScanner {
    fn default() -> Self {
        // Room for a usual line's word and quote from the start (growing them a byte at a
        // time was a third of reading a config directory); they grow past it up to their caps.
        LineScanner {
            at: At::Lead,
            word: Vec::with_capacity(32),
            outcome: None,
            cut: false,
            quote: Vec::with_capacity(64),
            line: 1,
        }
    }
}

impl LineScanner {
    fn keep(&mut self, c: u8) {
        if self.word.len() < MAX_WORD {
            self.word.push(c);
        }
    }

    fn decide(&mut self, l: Line) {
        self.outcome = Some(l);
        self.at = At::Done;
    }

    /// The text of the line ends here (its '\n', a NUL, or the end of the file): what it was.
    fn end_text(&mut self, newline: bool) {
        let word = core::mem::take(&mut self.word);
        match self.at {
            At::Lead if newline => self.decide(Line::Blank),
            At::Lead => self.decide(Line::Bad(Vec::new())),
            // A first word that the text ends without a separator: `strsep` leaves no rest, so
            // even "driver" is a bad directive.
            At::First if newline && word == b"driver" => self.decide(Line::Driver(Vec::new())),
            At::First => self.decide(Line::Bad(word)),
            At::AfterDriver | At::Name => self.decide(Line::Driver(word)),
            At::Done => {}
        }
    }

    /// Whether the line may still be a bad directive, whose warning quotes it.
    fn quoting(&self) -> bool {
        matches!(self.outcome, None | Some(Line::Bad(_))) && self.quote.len() < QUOTE
    }

    /// One byte of the line (not its '\n').
    fn byte(&mut self, c: u8) {
        if self.quoting() {
            self.quote.push(c);
        }
        if self.cut || self.at == At::Done {
            return;
        }
        if c == 0 {
            self.end_text(false);
            self.cut = true;
            return;
        }
        match self.at {
            At::Lead if is_blank(c) => {}
            At::Lead if c == b'#' => self.decide(Line::Comment),
            At::Lead | At::First if !is_sep(c) => {
                self.at = At::First;
                self.keep(c);
            }
            At::First if self.word == b"driver" => {
                self.word.clear();
                self.at = At::AfterDriver;
            }
            At::First | At::Lead => {
                let w = core::mem::take(&mut self.word);
                self.decide(Line::Bad(w));
            }
            At::AfterDriver if is_blank(c) => {}
            At::AfterDriver | At::Name if !is_sep(c) => {
                self.at = At::Name;
                self.keep(c);
            }
            At::AfterDriver | At::Name => {
                let w = core::mem::take(&mut self.word);
                self.decide(Line::Driver(w));
            }
            At::Done => {}
        }
    }

    /// The line ends (with its '\n' when `newline`, else at the end of the file): `each` gets
    /// its number, what it was, and the start of its text for a diagnostic. Then the scanner is
    /// ready for the next line (its buffers kept: no allocation per line).
    fn finish(&mut self, newline: bool, each: &mut dyn FnMut(usize, Line, &[u8])) {
        if !self.cut {
            self.end_text(newline);
        }
        let out = self.outcome.take().unwrap_or(Line::Blank);
        each(self.line, out, &self.quote);
        self.line += 1;
        self.at = At::Lead;
        self.cut = false;
        self.word.clear();
        self.quote.clear();
    }

    /// Feed a chunk of the file; `each` gets every line the chunk completes.
    pub fn feed(&mut self, chunk: &[u8], each: &mut dyn FnMut(usize, Line, &[u8])) {
        let mut rest = chunk;
        while !rest.is_empty() {
            let (text, nl) = match crate::sys::mem::memchr(b'\n', rest) {
                Some(k) => (&rest[..k], true),
                None => (rest, false),
            };
            // Byte by byte until the line's outcome is decided (or a NUL ends its text); past
            // that only the quote still takes bytes: skip in bulk.
            let mut used = 0;
            for &c in text {
                if self.cut || self.at == At::Done {
                    break;
                }
                self.byte(c);
                used += 1;
            }
            let tail = text.get(used..).unwrap_or_default();
            if !tail.is_empty() && self.quoting() {
                let room = QUOTE.saturating_sub(self.quote.len());
                self.quote
                    .extend_from_slice(tail.get(..room.min(tail.len())).unwrap_or_default());
            }
            rest = &rest[text.len()..];
            if nl {
                self.finish(true, each);
                rest = &rest[1..];
            }
        }
    }

    /// The end of the file: the last line, if it had bytes and no '\n'.
    pub fn end(&mut self, each: &mut dyn FnMut(usize, Line, &[u8])) {
        if self.at != At::Lead || self.cut || !self.quote.is_empty() {
            self.finish(false, each);
        }
    }

    /// Drop the line read so far (a read error: `getline` never returns it).
    pub fn abandon(&mut self) {
        *self = LineScanner {
            line: self.line,
            ..LineScanner::default()
        };
    }
}

/// Classify one line as read by `getline` (its '\n', if any, included): [`LineScanner`] on it.
pub fn parse_line(raw: &[u8]) -> Line {
    let mut s = LineScanner::default();
    let mut out = None;
    let mut each = |_: usize, l: Line, _: &[u8]| {
        out.get_or_insert(l);
    };
    s.feed(raw, &mut each);
    s.end(&mut each);
    out.unwrap_or(Line::Bad(Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Line {
        Line::Driver(s.as_bytes().to_vec())
    }
    fn bad(s: &str) -> Line {
        Line::Bad(s.as_bytes().to_vec())
    }

    #[test]
    fn line_rules() {
        assert_eq!(parse_line(b"driver mlx5\n"), d("mlx5"));
        assert_eq!(parse_line(b"driver mlx5"), d("mlx5"));
        assert_eq!(parse_line(b" \t driver\t \tmlx5  extra words\n"), d("mlx5"));
        assert_eq!(parse_line(b"driver mlx5 # c\n"), d("mlx5"));
        assert_eq!(parse_line(b"driver #x\n"), d("#x"));
        assert_eq!(parse_line(b"driver /opt/p/libfoo\n"), d("/opt/p/libfoo"));
        assert_eq!(parse_line(b"driver mlx5\r\n"), d("mlx5\r"));
        assert_eq!(parse_line(b"driver\n"), d(""));
        assert_eq!(parse_line(b"driver   \n"), d(""));
        assert_eq!(parse_line(b"driver \t"), d(""));
        assert_eq!(parse_line(b"driver"), bad("driver"));
        assert_eq!(parse_line(b"driver\rx\n"), bad("driver\rx"));
        assert_eq!(parse_line(b"Driver mlx5\n"), bad("Driver"));
        assert_eq!(parse_line(b"drivers mlx5\n"), bad("drivers"));
        assert_eq!(parse_line(b"\n"), Line::Blank);
        assert_eq!(parse_line(b"   \t\n"), Line::Blank);
        assert_eq!(parse_line(b"  # driver x\n"), Line::Comment);
        assert_eq!(parse_line(b"#"), Line::Comment);
        assert_eq!(parse_line(b"\r\n"), bad("\r"));
        assert_eq!(parse_line(b"   "), bad(""));
        assert_eq!(parse_line(b"dri\0ver x\n"), bad("dri"));
        assert_eq!(parse_line(b"driver x\0y\n"), d("x"));
        assert_eq!(parse_line(b"\0driver x\n"), bad(""));
        assert_eq!(parse_line(b"foo bar\n"), bad("foo"));
    }

    #[test]
    fn a_line_costs_bounded_memory_whatever_its_length() {
        // Was: each file read whole, the bad-line diagnostic quoting the whole line.
        let mut s = LineScanner::default();
        let mut got = Vec::new();
        let big = vec![b'x'; 1 << 20];
        for _ in 0..16 {
            s.feed(&big, &mut |_, l, _| got.push(l));
        }
        assert!(s.word.capacity() <= 2 * MAX_WORD && s.quote.capacity() <= 2 * QUOTE);
        s.feed(b" tail\n", &mut |_, l, q| {
            assert_eq!(q.len(), QUOTE);
            got.push(l)
        });
        assert_eq!(got, [Line::Bad(vec![b'x'; MAX_WORD])]);
        // A driver name past MAX_WORD keeps its first MAX_WORD bytes.
        let mut line = b"driver ".to_vec();
        line.extend(std::iter::repeat_n(b'n', MAX_WORD + 10));
        assert_eq!(parse_line(&line), Line::Driver(vec![b'n'; MAX_WORD]));
    }
}
