//! Which providers to load, and in what order (rdma-core: dynamic_driver.c, `read_config`,
//! `read_config_file`, the name handling of `load_drivers`; unchanged from v44 to v65).
//!
//! Rules, as rdma-core applies them:
//! - Directory: IBV_CONFIG_DIR, compiled in (Debian: /etc/libibverbs.d). rdma-core has no variable to
//!   change it; we add [`crate::env::IBVERBS_RS_CONFIG_DIR`]. Unopenable directory: one warning,
//!   no names from files.
//! - Entries are taken in `readdir` order (not sorted). Each entry is `stat`ed through symlinks:
//!   failure (e.g. a dangling link) warns; anything but a regular file is skipped silently. There is
//!   no name filter: dotfiles, `README`, `x.driver.dpkg-old` are all read. A regular file that
//!   cannot be opened warns.
//! - Lines: leading spaces/tabs skipped; then a line that starts with '\n' or '#' is ignored (so a
//!   last line of only blanks without '\n' is *not*, and becomes a bad directive ''). The first
//!   word (ended by '\n', '\t' or ' ') must be `driver` *followed by one of those*; then blanks are
//!   skipped and the next word is the name — which may be empty ("driver\n") and may contain '\r'
//!   or '#'. Anything after the name is ignored. Other lines warn "bad config directive" with the
//!   first word. C strings: a NUL byte ends the line's text.
//! - Names are kept as bytes; duplicates are kept (rdma-core `dlopen`s them again, which is a no-op
//!   for a loaded object); [`ProviderName::first`] points at the first copy.
//! - Files are read as a stream, one bounded line state at a time ([`LineScanner`]): memory does
//!   not grow with a file's size or a line's length. Divergence: of a word longer than
//!   [`MAX_WORD`] bytes (a name no `dlopen` could take, or a bad directive's first word), only its
//!   first `MAX_WORD` bytes are kept and quoted (rdma-core's `getline` holds the whole line).
//! - Order: `RDMAV_DRIVERS` (else `IBV_DRIVERS`) names first, in their order, honoured only when
//!   outside secure execution ([`crate::env::trusted`]); then the config names in *reverse* of reading order (rdma-core prepends each to
//!   its list). With Debian's one-name-per-file set this is reverse `readdir` order.
#![forbid(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

mod line;
pub use line::{Line, LineScanner, MAX_WORD, parse_line};

/// Built-in config directory; set `IBVERBS_CONFIG_DIR` at build time to change it.
pub const DEFAULT_CONFIG_DIR: &str = match option_env!("IBVERBS_CONFIG_DIR") {
    Some(d) => d,
    None => "/etc/libibverbs.d",
};

/// The config directory to use: our override variable (not in secure execution), else the
/// built-in one.
pub fn config_dir(get: impl Fn(&str) -> Option<OsString>, trusted: bool) -> PathBuf {
    crate::env::config_dir_override(get, trusted)
        .map_or_else(|| PathBuf::from(DEFAULT_CONFIG_DIR), PathBuf::from)
}

/// Which rdma-core warning a [`Diagnostic`] corresponds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagKind {
    OpenDir,
    Stat,
    ReadFile,
    BadDirective,
}

/// A problem found while reading the configuration. rdma-core prints each of these to stderr
/// (unconditionally) as "libibverbs: " + [`Diagnostic::text`] + "\n".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: DiagKind,
    /// rdma-core's wording, without the "libibverbs: " prefix and the newline.
    pub text: String,
    /// Our explanation: line number, OS error.
    pub detail: String,
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Collects one file's names and bad-directive warnings as its lines are scanned.
struct FileParse<'p> {
    path: &'p Path,
    names: Vec<(usize, OsString)>,
    diags: Vec<Diagnostic>,
}

impl FileParse<'_> {
    fn line(&mut self, n: usize, l: Line, quote: &[u8]) {
        match l {
            Line::Blank | Line::Comment => {}
            Line::Driver(name) => self.names.push((n, OsString::from_vec(name))),
            Line::Bad(w) => self.diags.push(Diagnostic {
                kind: DiagKind::BadDirective,
                text: format!(
                    "Warning: ignoring bad config directive '{}' in file '{}'.",
                    lossy(&w),
                    self.path.display()
                ),
                detail: format!(
                    "{}:{n}: expected 'driver NAME', '#comment' or a blank line, got \"{}\"",
                    self.path.display(),
                    quote.escape_ascii()
                ),
            }),
        }
    }
}

/// A file's `driver` names with their 1-based line numbers, and its bad-directive warnings.
pub type Parsed = (Vec<(usize, OsString)>, Vec<Diagnostic>);

/// Names found in a file's bytes, with 1-based line numbers, plus its bad-directive warnings.
pub fn parse_file(path: &Path, bytes: &[u8]) -> Parsed {
    let mut f = FileParse {
        path,
        names: Vec::new(),
        diags: Vec::new(),
    };
    let mut s = LineScanner::default();
    s.feed(bytes, &mut |n, l, q| f.line(n, l, q));
    s.end(&mut |n, l, q| f.line(n, l, q));
    (f.names, f.diags)
}

/// [`parse_file`] on an open file, read as a stream through a fixed buffer: open failure is an
/// error; a read error part way keeps the lines completed before it (`getline` stops there).
fn read_file(path: &Path, chunk: &mut Vec<u8>) -> std::io::Result<Parsed> {
    let file = std::fs::File::open(path)?;
    let mut f = FileParse {
        path,
        names: Vec::new(),
        diags: Vec::new(),
    };
    let mut s = LineScanner::default();
    loop {
        match crate::sys::file::read_reuse(&file, chunk) {
            Ok([]) => break,
            Ok(bytes) => s.feed(bytes, &mut |n, l, q| f.line(n, l, q)),
            Err(e) if e.0 == libc::EINTR => {}
            Err(_) => {
                s.abandon();
                break;
            }
        }
    }
    s.end(&mut |n, l, q| f.line(n, l, q));
    Ok((f.names, f.diags))
}

/// One config file that was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigFile {
    pub path: PathBuf,
    /// (line number, name) in file order.
    pub names: Vec<(usize, OsString)>,
}

/// Bytes asked of each `read` of a config file.
const READ_CHUNK: usize = 8192;

/// The directory as read: files in `readdir` order, and every warning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigScan {
    pub files: Vec<ConfigFile>,
    pub diagnostics: Vec<Diagnostic>,
}

/// `dir` + "/" + `name`, byte for byte as rdma-core's "%s/%s" builds it.
fn join(dir: &Path, name: &OsStr) -> PathBuf {
    let mut b = dir.as_os_str().as_bytes().to_vec();
    b.push(b'/');
    b.extend_from_slice(name.as_bytes());
    PathBuf::from(OsString::from_vec(b))
}

/// Read every regular file of `dir` (see the module rules).
pub fn scan_dir(dir: &Path) -> ConfigScan {
    let mut scan = ConfigScan::default();
    // One read buffer for every file, never zeroed (a zeroed one per file cost more than the
    // parsing: config files are a line or two).
    let mut chunk = Vec::with_capacity(READ_CHUNK);
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            scan.diagnostics.push(Diagnostic {
                kind: DiagKind::OpenDir,
                text: format!(
                    "Warning: couldn't open config directory '{}'.",
                    dir.display()
                ),
                detail: format!("{}: {e}", dir.display()),
            });
            return scan;
        }
    };
    // readdir stops at its first error, as the C loop does.
    for ent in rd.map_while(Result::ok) {
        let path = join(dir, &ent.file_name());
        // readdir's d_type answers for plain files and directories without a stat; symlinks and
        // unknown types are stat'ed (following links), as rdma-core stats every entry.
        let md = match ent.file_type() {
            Ok(t) if t.is_file() || t.is_dir() => Ok(t),
            _ => std::fs::metadata(&path).map(|m| m.file_type()),
        };
        let md = match md {
            Ok(md) => md,
            Err(e) => {
                scan.diagnostics.push(Diagnostic {
                    kind: DiagKind::Stat,
                    text: format!("Warning: couldn't stat config file '{}'.", path.display()),
                    detail: format!("{}: {e}", path.display()),
                });
                continue;
            }
        };
        if !md.is_file() {
            continue;
        }
        let (names, diags) = match read_file(&path, &mut chunk) {
            Ok(r) => r,
            Err(e) => {
                scan.diagnostics.push(Diagnostic {
                    kind: DiagKind::ReadFile,
                    text: format!("Warning: couldn't read config file {}.", path.display()),
                    detail: format!("{}: {e}", path.display()),
                });
                continue;
            }
        };
        scan.diagnostics.extend(diags);
        scan.files.push(ConfigFile { path, names });
    }
    scan
}

/// Where a provider name came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `var` is RDMAV_DRIVERS or IBV_DRIVERS; `index` is the 0-based piece.
    Env { var: &'static str, index: usize },
    /// A `driver` line.
    File { path: PathBuf, line: usize },
}

/// One name in load order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderName {
    pub name: OsString,
    pub origin: Origin,
    /// Index (in the same list) of the first entry with the same name, when this one repeats it.
    pub first: Option<usize>,
}

/// The names to load, in rdma-core's order, and the warnings met on the way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProviderList {
    pub names: Vec<ProviderName>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Set `first` on every name that repeats an earlier one: the positions sorted by name (then
/// position), each run of one name pointing at its first. No name is copied.
fn mark_repeats(names: &mut [ProviderName]) {
    let mut order: Vec<usize> = Vec::new();
    if order.try_reserve_exact(names.len()).is_err() {
        // Without room for the index: one comparison per earlier name (no allocation).
        for i in 0..names.len() {
            let (before, rest) = names.split_at_mut(i);
            if let Some(n) = rest.first_mut() {
                n.first = before.iter().position(|b| b.name == n.name);
            }
        }
        return;
    }
    order.extend(0..names.len());
    order.sort_unstable_by(|&a, &b| names[a].name.cmp(&names[b].name).then(a.cmp(&b)));
    let mut run_first: Option<usize> = None;
    for (k, &i) in order.iter().enumerate() {
        let same = k > 0
            && order
                .get(k - 1)
                .is_some_and(|&p| names[p].name == names[i].name);
        if same {
            names[i].first = run_first;
        } else {
            run_first = Some(i);
        }
    }
}

/// Environment names first, then the config names in reverse reading order.
pub fn load_order(env: Option<(&'static str, Vec<OsString>)>, scan: ConfigScan) -> ProviderList {
    let mut names: Vec<ProviderName> = Vec::new();
    if let Some((var, list)) = env {
        for (index, name) in list.into_iter().enumerate() {
            names.push(ProviderName {
                name,
                origin: Origin::Env { var, index },
                first: None,
            });
        }
    }
    let read: Vec<ProviderName> = scan
        .files
        .into_iter()
        .flat_map(|f| {
            let path = f.path;
            f.names.into_iter().map(move |(line, name)| ProviderName {
                name,
                origin: Origin::File {
                    path: path.clone(),
                    line,
                },
                first: None,
            })
        })
        .collect();
    names.extend(read.into_iter().rev());
    mark_repeats(&mut names);
    ProviderList {
        names,
        diagnostics: scan.diagnostics,
    }
}

/// Everything `load_drivers` decides before its first `dlopen`: scan `dir`, read the environment.
pub fn discover(dir: &Path, get: impl Fn(&str) -> Option<OsString>, trusted: bool) -> ProviderList {
    let scan = scan_dir(dir);
    load_order(crate::env::driver_names(get, trusted), scan)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_chunking_gives_the_same_lines() {
        let text: &[u8] = b"# hi\n\ndriver a\nbogus line\n \tdriver\t b c\n\0x\ndriver \0z\ndri\0ver q\n  driver\n  ";
        let whole = parse_file(Path::new("/c/f"), text);
        for size in 1..text.len() {
            let mut f = FileParse {
                path: Path::new("/c/f"),
                names: Vec::new(),
                diags: Vec::new(),
            };
            let mut s = LineScanner::default();
            for c in text.chunks(size) {
                s.feed(c, &mut |n, l, q| f.line(n, l, q));
            }
            s.end(&mut |n, l, q| f.line(n, l, q));
            assert_eq!((f.names, f.diags), whole, "chunks of {size}");
        }
    }

    #[test]
    fn file_lines() {
        let (names, diags) = parse_file(
            Path::new("/c/f"),
            b"# hi\n\ndriver a\nbogus line\ndriver b\n  ",
        );
        assert_eq!(names, vec![(3, "a".into()), (5, "b".into())]);
        assert_eq!(diags.len(), 2);
        assert_eq!(
            diags[0].text,
            "Warning: ignoring bad config directive 'bogus' in file '/c/f'."
        );
        assert!(diags[0].detail.starts_with("/c/f:4:"));
        assert_eq!(
            diags[1].text,
            "Warning: ignoring bad config directive '' in file '/c/f'."
        );
    }

    #[test]
    fn order_and_duplicates() {
        let scan = ConfigScan {
            files: vec![
                ConfigFile {
                    path: "/c/1".into(),
                    names: vec![(1, "a".into()), (2, "b".into())],
                },
                ConfigFile {
                    path: "/c/2".into(),
                    names: vec![(1, "a".into())],
                },
            ],
            diagnostics: vec![],
        };
        let l = load_order(Some(("RDMAV_DRIVERS", vec!["x".into(), "b".into()])), scan);
        let got: Vec<_> = l.names.iter().map(|n| n.name.to_str().unwrap()).collect();
        assert_eq!(got, ["x", "b", "a", "b", "a"]);
        let firsts: Vec<_> = l.names.iter().map(|n| n.first).collect();
        assert_eq!(firsts, [None, None, None, Some(1), Some(2)]);
        assert_eq!(
            l.names[2].origin,
            Origin::File {
                path: "/c/2".into(),
                line: 1
            }
        );
        assert_eq!(
            l.names[0].origin,
            Origin::Env {
                var: "RDMAV_DRIVERS",
                index: 0
            }
        );
    }

    #[test]
    fn repeats_point_at_the_first() {
        let mut names: Vec<ProviderName> =
            ["b", "a", "b", "c", "a", "b", "abcdefghij", "abcdefghij"]
                .iter()
                .map(|n| ProviderName {
                    name: OsString::from(n),
                    origin: Origin::Env {
                        var: "RDMAV_DRIVERS",
                        index: 0,
                    },
                    first: None,
                })
                .collect();
        mark_repeats(&mut names);
        let firsts: Vec<_> = names.iter().map(|n| n.first).collect();
        assert_eq!(
            firsts,
            [None, None, Some(0), None, Some(1), Some(0), None, Some(6)]
        );
        mark_repeats(&mut []);
    }

    #[test]
    fn join_is_textual() {
        assert_eq!(
            join(Path::new("/a/"), OsStr::new("b")),
            PathBuf::from("/a//b")
        );
    }
}
