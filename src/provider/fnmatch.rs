//! `fnmatch(pattern, string, 0)` as glibc evaluates it in the C/POSIX locale, on bytes.
//!
//! rdma-core (init.c `match_modalias`) matches modalias and `rdma_device:N<name>` strings against
//! provider patterns with flags 0: no FNM_PATHNAME, no FNM_PERIOD, backslash escapes on. Real
//! patterns only use `*` (`pci:v%08Xd%08Xsv*`, `rdma_device:*Nrxe*`, plain strings), but the whole
//! syntax is covered so a provider table cannot surprise us:
//! - `?` one byte; `*` any run; `\c` the byte c (a trailing `\` never matches);
//! - `[...]`: `!` or `^` first negates; the first member is always literal (so `[]a]`); `a-z`
//!   ranges by byte value; `\c` inside; `[:class:]` (the 12 POSIX classes, ASCII); `[=c=]` and
//!   `[.c.]` for one byte. glibc quirks kept: an unknown class name, a malformed `[.x.]`, or a
//!   bracket that matched but is not closed fail the whole match; a bracket that did not match and
//!   is not closed is a literal `[`; a class name may only use the letters a..y.
//! - A NUL byte ends pattern and string, as in C.
//!
//! Differences from glibc, by design: glibc switches to wide characters and the locale's collation
//! when the application has set a multibyte locale (MB_CUR_MAX > 1); we always use C-locale byte
//! semantics. We also ignore POSIXLY_CORRECT (which makes glibc treat a leading `^` literally).
//! Neither matters for ASCII patterns without brackets, i.e. every pattern rdma-core ships.
#![forbid(unsafe_code)]

/// glibc's limit on a `[:name:]` length.
const CLASS_MAX: usize = 256;

fn cut(b: &[u8]) -> &[u8] {
    &b[..b.iter().position(|c| *c == 0).unwrap_or(b.len())]
}

/// Whether `string` matches `pattern` (glibc `fnmatch(pattern, string, 0) == 0`, C locale).
pub fn fnmatch(pattern: &[u8], string: &[u8]) -> bool {
    matches(cut(pattern), cut(string))
}

fn matches(p: &[u8], s: &[u8]) -> bool {
    let (mut pi, mut si) = (0usize, 0usize);
    while pi < p.len() {
        match p[pi] {
            b'?' => {
                if si == s.len() {
                    return false;
                }
                pi += 1;
                si += 1;
            }
            b'\\' => {
                let Some(&lit) = p.get(pi + 1) else {
                    return false;
                };
                if s.get(si) != Some(&lit) {
                    return false;
                }
                pi += 2;
                si += 1;
            }
            b'*' => {
                pi += 1;
                while pi < p.len() && (p[pi] == b'*' || p[pi] == b'?') {
                    if p[pi] == b'?' {
                        if si == s.len() {
                            return false;
                        }
                        si += 1;
                    }
                    pi += 1;
                }
                if pi == p.len() {
                    return true;
                }
                // The rest starts with something that consumes a byte, so the empty tail is no use.
                return (si..s.len()).any(|k| matches(&p[pi..], &s[k..]));
            }
            b'[' => {
                let Some(&ch) = s.get(si) else { return false };
                match bracket(p, pi + 1, ch) {
                    Bracket::Match(next) => {
                        pi = next;
                        si += 1;
                    }
                    Bracket::NoMatch => return false,
                    Bracket::Literal => {
                        if ch != b'[' {
                            return false;
                        }
                        pi += 1;
                        si += 1;
                    }
                }
            }
            c => {
                if s.get(si) != Some(&c) {
                    return false;
                }
                pi += 1;
                si += 1;
            }
        }
    }
    si == s.len()
}

enum Bracket {
    /// Consumed the byte; pattern continues at the index.
    Match(usize),
    /// This byte does not match (or the pattern is ill-formed): the whole match fails.
    NoMatch,
    /// Not a bracket expression after all: '[' is an ordinary byte.
    Literal,
}

fn class(name: &[u8], c: u8) -> Option<bool> {
    Some(match name {
        b"alnum" => c.is_ascii_alphanumeric(),
        b"alpha" => c.is_ascii_alphabetic(),
        b"blank" => c == b' ' || c == b'\t',
        b"cntrl" => c.is_ascii_control(),
        b"digit" => c.is_ascii_digit(),
        b"graph" => c.is_ascii_graphic(),
        b"lower" => c.is_ascii_lowercase(),
        b"print" => c.is_ascii_graphic() || c == b' ',
        b"punct" => c.is_ascii_punctuation(),
        b"space" => matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
        b"upper" => c.is_ascii_uppercase(),
        b"xdigit" => c.is_ascii_hexdigit(),
        _ => return None,
    })
}

/// Evaluate the bracket expression whose body starts at `i` (just after '[') against `ch`.
fn bracket(p: &[u8], mut i: usize, ch: u8) -> Bracket {
    let at = |k: usize| p.get(k).copied().unwrap_or(0);
    let negate = at(i) == b'!' || at(i) == b'^';
    if negate {
        i += 1;
    }
    // `c` is the element being looked at; `i` is just past it.
    let mut c = at(i);
    i += 1;
    let hit = 'scan: loop {
        // Each arm either jumps to a hit, fails, or leaves the next element in `c`. Ordinary
        // bytes and `[.x.]` symbols set `low` so a following '-' can make a range.
        let low: Option<u8>;
        if c == b'\\' {
            if at(i) == 0 {
                return Bracket::NoMatch;
            }
            c = at(i);
            i += 1;
            low = Some(c);
        } else if c == b'[' && at(i) == b':' {
            let mut k = i;
            let mut name = Vec::new();
            let mut ordinary = false;
            loop {
                if name.len() == CLASS_MAX {
                    return Bracket::NoMatch;
                }
                k += 1;
                let cc = at(k);
                if cc == b':' && at(k + 1) == b']' {
                    k += 2;
                    break;
                }
                if !matches!(cc, b'a'..=b'y') {
                    ordinary = true;
                    break;
                }
                name.push(cc);
            }
            if ordinary {
                low = Some(b'[');
            } else {
                match class(&name, ch) {
                    None => return Bracket::NoMatch,
                    Some(true) => {
                        i = k;
                        break 'scan true;
                    }
                    Some(false) => {
                        i = k;
                        c = at(i);
                        i += 1;
                        if c == b']' {
                            break 'scan false;
                        }
                        continue 'scan;
                    }
                }
            }
        } else if c == b'['
            && at(i) == b'='
            && at(i + 1) != 0
            && at(i + 2) == b'='
            && at(i + 3) == b']'
        {
            let x = at(i + 1);
            i += 4;
            if ch == x {
                break 'scan true;
            }
            c = at(i);
            i += 1;
            if c == b']' {
                break 'scan false;
            }
            continue 'scan;
        } else if c == 0 {
            return Bracket::Literal;
        } else if c == b'[' && at(i) == b'.' {
            let start = i;
            let mut k = i;
            loop {
                k += 1;
                let cc = at(k);
                if cc == b'.' && at(k + 1) == b']' {
                    k += 2;
                    break;
                }
                if cc == 0 {
                    return Bracket::NoMatch;
                }
            }
            if k - start != 4 {
                return Bracket::NoMatch;
            }
            let sym = at(start + 1);
            i = k;
            let is_range = at(i) == b'-' && at(i + 1) != 0;
            if !is_range && ch == sym {
                break 'scan true;
            }
            c = at(i);
            i += 1;
            match range(p, &mut i, &mut c, sym, ch) {
                Some(None) => return Bracket::NoMatch,
                Some(Some(true)) => break 'scan true,
                _ => {}
            }
            if c == b']' {
                break 'scan false;
            }
            continue 'scan;
        } else {
            low = Some(c);
        }
        // An ordinary member `c` (possibly the start of a range).
        let c0 = low.unwrap_or(c);
        let is_range = at(i) == b'-' && at(i + 1) != 0 && at(i + 1) != b']';
        if !is_range && c0 == ch {
            break 'scan true;
        }
        c = at(i);
        i += 1;
        match range(p, &mut i, &mut c, c0, ch) {
            Some(None) => return Bracket::NoMatch,
            Some(Some(true)) => break 'scan true,
            _ => {}
        }
        if c == b']' {
            break 'scan false;
        }
    };
    if !hit {
        return if negate {
            Bracket::Match(i)
        } else {
            Bracket::NoMatch
        };
    }
    // Matched: the rest of the expression must still be well formed and closed.
    loop {
        let c = at(i);
        i += 1;
        match c {
            b']' => break,
            0 => return Bracket::NoMatch,
            b'\\' => {
                if at(i) == 0 {
                    return Bracket::NoMatch;
                }
                i += 1;
            }
            b'[' if at(i) == b':' => {
                let start = i;
                let mut n = 0;
                loop {
                    i += 1;
                    let cc = at(i);
                    n += 1;
                    if n == CLASS_MAX {
                        return Bracket::NoMatch;
                    }
                    if cc == b':' && at(i + 1) == b']' {
                        break;
                    }
                    if !matches!(cc, b'a'..=b'y') {
                        i = start - 2;
                        break;
                    }
                }
                i += 2;
            }
            b'[' if at(i) == b'=' => {
                if at(i + 1) == 0 || at(i + 2) != b'=' || at(i + 3) != b']' {
                    return Bracket::NoMatch;
                }
                i += 4;
            }
            b'[' if at(i) == b'.' => loop {
                i += 1;
                if at(i) == 0 {
                    return Bracket::NoMatch;
                }
                if at(i) == b'.' && at(i + 1) == b']' {
                    i += 2;
                    break;
                }
            },
            _ => {}
        }
    }
    if negate {
        Bracket::NoMatch
    } else {
        Bracket::Match(i)
    }
}

/// If `c` is '-' not followed by ']', read the range end and test `low..=end`; afterwards `c` is
/// the next element. Returns None when there was no range, Some(None) when ill-formed (whole match
/// fails), Some(Some(hit)) otherwise.
fn range(p: &[u8], i: &mut usize, c: &mut u8, low: u8, ch: u8) -> Option<Option<bool>> {
    let at = |k: usize| p.get(k).copied().unwrap_or(0);
    if *c != b'-' || at(*i) == b']' {
        return None;
    }
    let mut end = at(*i);
    *i += 1;
    if end == b'[' && at(*i) == b'.' {
        let start = *i;
        let mut k = *i;
        loop {
            k += 1;
            let cc = at(k);
            if cc == b'.' && at(k + 1) == b']' {
                k += 2;
                break;
            }
            if cc == 0 {
                return Some(None);
            }
        }
        if k - start != 4 {
            return Some(None);
        }
        end = at(start + 1);
        *i = k;
    } else {
        if end == b'\\' {
            end = at(*i);
            *i += 1;
        }
        if end == 0 {
            return Some(None);
        }
    }
    if low <= ch && ch <= end {
        return Some(Some(true));
    }
    *c = at(*i);
    *i += 1;
    Some(Some(false))
}
