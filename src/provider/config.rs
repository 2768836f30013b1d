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
//! - Order: `RDMAV_DRIVERS` (else `IBV_DRIVERS`) names first, in their order, honoured only when
//!   uid == euid; then the config names in *reverse* of reading order (rdma-core prepends each to
//!   its list). With Debian's one-name-per-file set this is reverse `readdir` order.
#![forbid(unsafe_code)]

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};

/// Built-in config directory; set `IBVERBS_CONFIG_DIR` at build time to change it.
pub const DEFAULT_CONFIG_DIR: &str = match option_env!("IBVERBS_CONFIG_DIR") {
    Some(d) => d,
    None => "/etc/libibverbs.d",
};

/// The config directory to use: our override variable (uid == euid only), else the built-in one.
pub fn config_dir(get: impl Fn(&str) -> Option<OsString>, uid_is_euid: bool) -> PathBuf {
    crate::env::config_dir_override(get, uid_is_euid)
        .map_or_else(|| PathBuf::from(DEFAULT_CONFIG_DIR), PathBuf::from)
}

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

/// Split at the first separator: (word, rest after the separator) — `strsep` on "\n\t ".
fn word(s: &[u8]) -> (&[u8], Option<&[u8]>) {
    match s.iter().position(|c| is_sep(*c)) {
        Some(k) => (&s[..k], Some(&s[k + 1..])),
        None => (s, None),
    }
}

/// Classify one line as read by `getline` (its '\n', if any, included).
pub fn parse_line(raw: &[u8]) -> Line {
    let raw = &raw[..raw.iter().position(|c| *c == 0).unwrap_or(raw.len())];
    let start = raw.iter().position(|c| !is_blank(*c)).unwrap_or(raw.len());
    let text = &raw[start..];
    match text.first() {
        Some(b'\n') => return Line::Blank,
        Some(b'#') => return Line::Comment,
        _ => {}
    }
    let (first, rest) = word(text);
    match rest {
        Some(rest) if first == b"driver" => {
            let skip = rest.iter().position(|c| !is_blank(*c)).unwrap_or(rest.len());
            Line::Driver(word(&rest[skip..]).0.to_vec())
        }
        _ => Line::Bad(first.to_vec()),
    }
}

/// The file's lines as `getline` returns them, each with its '\n' except possibly the last.
pub fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split_inclusive(|c| *c == b'\n')
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

/// Names found in one file, with 1-based line numbers, plus its bad-directive warnings.
pub fn parse_file(path: &Path, bytes: &[u8]) -> (Vec<(usize, OsString)>, Vec<Diagnostic>) {
    let mut names = Vec::new();
    let mut diags = Vec::new();
    for (i, l) in lines(bytes).enumerate() {
        match parse_line(l) {
            Line::Blank | Line::Comment => {}
            Line::Driver(n) => names.push((i + 1, OsString::from_vec(n))),
            Line::Bad(w) => diags.push(Diagnostic {
                kind: DiagKind::BadDirective,
                text: format!(
                    "Warning: ignoring bad config directive '{}' in file '{}'.",
                    lossy(&w),
                    path.display()
                ),
                detail: format!(
                    "{}:{}: expected 'driver NAME', '#comment' or a blank line, got {:?}",
                    path.display(),
                    i + 1,
                    lossy(l.strip_suffix(b"\n").unwrap_or(l))
                ),
            }),
        }
    }
    (names, diags)
}

/// One config file that was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigFile {
    pub path: PathBuf,
    /// (line number, name) in file order.
    pub names: Vec<(usize, OsString)>,
}

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
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            scan.diagnostics.push(Diagnostic {
                kind: DiagKind::OpenDir,
                text: format!("Warning: couldn't open config directory '{}'.", dir.display()),
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
        let bytes = match read_lines_prefix(&path) {
            Ok(b) => b,
            Err(e) => {
                scan.diagnostics.push(Diagnostic {
                    kind: DiagKind::ReadFile,
                    text: format!("Warning: couldn't read config file {}.", path.display()),
                    detail: format!("{}: {e}", path.display()),
                });
                continue;
            }
        };
        let (names, diags) = parse_file(&path, &bytes);
        scan.diagnostics.extend(diags);
        scan.files.push(ConfigFile { path, names });
    }
    scan
}

/// Open and read a file. Open failure is an error; a read error part way keeps the complete lines
/// read so far (getline stops at the error). Plain `read` calls into a page-sized buffer (no size
/// probe: config files are a line or two, so this is open, read, read, close).
fn read_lines_prefix(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match f.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => {
                let keep = buf.iter().rposition(|c| *c == b'\n').map_or(0, |k| k + 1);
                buf.truncate(keep);
                break;
            }
        }
    }
    Ok(buf)
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

/// Environment names first, then the config names in reverse reading order.
pub fn load_order(env: Option<(&'static str, Vec<OsString>)>, scan: ConfigScan) -> ProviderList {
    let mut names: Vec<ProviderName> = Vec::new();
    if let Some((var, list)) = env {
        for (index, name) in list.into_iter().enumerate() {
            names.push(ProviderName { name, origin: Origin::Env { var, index }, first: None });
        }
    }
    let read: Vec<ProviderName> = scan
        .files
        .into_iter()
        .flat_map(|f| {
            let path = f.path;
            f.names.into_iter().map(move |(line, name)| ProviderName {
                name,
                origin: Origin::File { path: path.clone(), line },
                first: None,
            })
        })
        .collect();
    names.extend(read.into_iter().rev());
    for i in 0..names.len() {
        names[i].first = names[..i].iter().position(|p| p.name == names[i].name);
    }
    ProviderList { names, diagnostics: scan.diagnostics }
}

/// Everything `load_drivers` decides before its first `dlopen`: scan `dir`, read the environment.
pub fn discover(
    dir: &Path,
    get: impl Fn(&str) -> Option<OsString>,
    uid_is_euid: bool,
) -> ProviderList {
    let scan = scan_dir(dir);
    load_order(crate::env::driver_names(get, uid_is_euid), scan)
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
    fn file_lines() {
        let (names, diags) =
            parse_file(Path::new("/c/f"), b"# hi\n\ndriver a\nbogus line\ndriver b\n  ");
        assert_eq!(names, vec![(3, "a".into()), (5, "b".into())]);
        assert_eq!(diags.len(), 2);
        assert_eq!(diags[0].text, "Warning: ignoring bad config directive 'bogus' in file '/c/f'.");
        assert!(diags[0].detail.starts_with("/c/f:4:"));
        assert_eq!(diags[1].text, "Warning: ignoring bad config directive '' in file '/c/f'.");
    }

    #[test]
    fn order_and_duplicates() {
        let scan = ConfigScan {
            files: vec![
                ConfigFile { path: "/c/1".into(), names: vec![(1, "a".into()), (2, "b".into())] },
                ConfigFile { path: "/c/2".into(), names: vec![(1, "a".into())] },
            ],
            diagnostics: vec![],
        };
        let l = load_order(Some(("RDMAV_DRIVERS", vec!["x".into(), "b".into()])), scan);
        let got: Vec<_> = l.names.iter().map(|n| n.name.to_str().unwrap()).collect();
        assert_eq!(got, ["x", "b", "a", "b", "a"]);
        let firsts: Vec<_> = l.names.iter().map(|n| n.first).collect();
        assert_eq!(firsts, [None, None, None, Some(1), Some(2)]);
        assert_eq!(l.names[2].origin, Origin::File { path: "/c/2".into(), line: 1 });
        assert_eq!(l.names[0].origin, Origin::Env { var: "RDMAV_DRIVERS", index: 0 });
    }

    #[test]
    fn join_is_textual() {
        assert_eq!(join(Path::new("/a/"), OsStr::new("b")), PathBuf::from("/a//b"));
    }
}
