//! The C number-scanning rules rdma-core applies to sysfs values, and glibc's `dev_t` encoding.
//!
//! Answers to the `strtoul`/`strtol`/`sscanf` calls in rdma-core's `libibverbs/init.c`
//! (`abi_version`, `node_type`, `dev`) and `libibverbs/device.c` (`node_guid`), and to
//! `makedev` from `<sys/sysmacros.h>`. Values are decided the way glibc decides them, so the
//! glue accepts and rejects exactly what rdma-core does.
#![forbid(unsafe_code)]

/// One unsigned number scanned like `strtoul(s, &end, radix)` on LP64: leading white space, an
/// optional sign, for radix 16 an optional `0x`, then digits. Overflow saturates at `u64::MAX`;
/// a `-` negates (wrapping) as C does. Returns the value and the rest after the digits, or
/// `None` when there are no digits (where `strtoul` returns 0 and consumes nothing).
pub fn scan_ulong(s: &[u8], radix: u32) -> Option<(u64, &[u8])> {
    let mut i = 0;
    while i < s.len() && is_c_space(s[i]) {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    if radix == 16
        && s.len() >= i + 3
        && s[i] == b'0'
        && (s[i + 1] | 0x20) == b'x'
        && (s[i + 2] as char).is_ascii_hexdigit()
    {
        i += 2;
    }
    let start = i;
    let mut v: u64 = 0;
    let mut overflow = false;
    while i < s.len() {
        let Some(d) = (s[i] as char).to_digit(radix) else {
            break;
        };
        match v
            .checked_mul(radix as u64)
            .and_then(|x| x.checked_add(d as u64))
        {
            Some(x) => v = x,
            None => overflow = true,
        }
        i += 1;
    }
    if i == start {
        return None;
    }
    let v = if overflow {
        u64::MAX
    } else if neg {
        v.wrapping_neg()
    } else {
        v
    };
    Some((v, &s[i..]))
}

/// `sscanf(s, "%hx", &v) == 1`: one hex number, truncated to 16 bits, and the rest.
pub fn scan_hx(s: &[u8]) -> Option<(u16, &[u8])> {
    scan_ulong(s, 16).map(|(v, r)| ((v & 0xffff) as u16, r))
}

/// The C string a buffer holds: its bytes up to the first NUL (all of them without one).
pub fn c_str(b: &[u8]) -> &[u8] {
    b.iter()
        .position(|&c| c == 0)
        .and_then(|n| b.get(..n))
        .unwrap_or(b)
}

/// `strtoul(s, NULL, 10)` on the C string in `s` (it ends at a NUL): 0 when there is no number.
/// The flag says whether the whole string was one clean decimal number (for diagnostics; C does
/// not care).
pub fn strtoul10(s: &[u8]) -> (u64, bool) {
    let s = c_str(s);
    match scan_ulong(s, 10) {
        Some((v, rest)) => (
            v,
            rest.is_empty() && s.first().is_some_and(u8::is_ascii_digit),
        ),
        None => (0, false),
    }
}

/// `strtol(s, NULL, 10)` on the C string in `s`, stored into a C `int` (as rdma-core's global
/// `abi_ver` is): saturates at the `long` range, then truncates to 32 bits. Also says whether
/// the string was clean.
pub fn strtol10_int(s: &[u8]) -> (i32, bool) {
    let b = c_str(s);
    let mut i = 0;
    while i < b.len() && is_c_space(b[i]) {
        i += 1;
    }
    let neg = b.get(i) == Some(&b'-');
    if neg || b.get(i) == Some(&b'+') {
        i += 1;
    }
    // Digits only from here: scan_ulong sees no sign and reports the magnitude.
    let Some((mag, rest)) =
        scan_ulong(&b[i..], 10).filter(|_| b.get(i).is_some_and(u8::is_ascii_digit))
    else {
        return (0, false);
    };
    let l: i64 = match (neg, mag) {
        (false, m) if m > i64::MAX as u64 => i64::MAX,
        (false, m) => m as i64,
        (true, m) if m > i64::MAX as u64 => i64::MIN,
        (true, m) => -(m as i64),
    };
    let clean = i == 0 || (i == 1 && neg);
    (l as i32, clean && rest.is_empty())
}

/// `sscanf(s, "%u:%u", &major, &minor) == 2` on the C string in `s`.
pub fn scan_major_minor(s: &[u8]) -> Option<(u32, u32)> {
    let (major, rest) = scan_ulong(c_str(s), 10)?;
    let rest = rest.strip_prefix(b":")?;
    let (minor, _) = scan_ulong(rest, 10)?;
    Some((major as u32, minor as u32))
}

/// `sscanf(s, "%hx:%hx:%hx:%hx", …) == 4` on the C string in `s`, folded into one 64-bit GUID,
/// host order, as `ibv_get_device_guid` does with the sysfs `node_guid` file.
pub fn parse_node_guid(s: &[u8]) -> Option<u64> {
    let mut rest = c_str(s);
    let mut guid: u64 = 0;
    for i in 0..4 {
        if i > 0 {
            rest = rest.strip_prefix(b":")?;
        }
        let (v, r) = scan_ulong(rest, 16)?;
        guid = (guid << 16) | (v & 0xffff);
        rest = r;
    }
    Some(guid)
}

/// Format a GUID the way sysfs and `ibv_devinfo` show it: `xxxx:xxxx:xxxx:xxxx`.
pub fn format_guid(guid: u64) -> String {
    format!(
        "{:04x}:{:04x}:{:04x}:{:04x}",
        (guid >> 48) & 0xffff,
        (guid >> 32) & 0xffff,
        (guid >> 16) & 0xffff,
        guid & 0xffff
    )
}

/// glibc's `makedev`: the 64-bit `dev_t` of a major/minor pair.
pub const fn makedev(major: u32, minor: u32) -> u64 {
    let (ma, mi) = (major as u64, minor as u64);
    ((ma & 0xffff_f000) << 32)
        | ((ma & 0x0000_0fff) << 8)
        | ((mi & 0xffff_ff00) << 12)
        | (mi & 0x0000_00ff)
}

/// glibc's `major` of a `dev_t`.
pub const fn dev_major(dev: u64) -> u32 {
    (((dev >> 32) & 0xffff_f000) | ((dev >> 8) & 0x0000_0fff)) as u32
}

/// glibc's `minor` of a `dev_t`.
pub const fn dev_minor(dev: u64) -> u32 {
    (((dev >> 12) & 0xffff_ff00) | (dev & 0x0000_00ff)) as u32
}

/// The kernel's `huge_decode_dev` of netlink's `RDMA_NLDEV_ATTR_CHARDEV`, as (major, minor).
pub const fn huge_decode_dev(v: u64) -> (u32, u32) {
    (
        ((v & 0xfff00) >> 8) as u32,
        ((v & 0xff) | ((v >> 12) & 0xfff00)) as u32,
    )
}

fn is_c_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strtoul_rules() {
        assert_eq!(strtoul10(b"6"), (6, true));
        assert_eq!(strtoul10(b"1: CA"), (1, false));
        assert_eq!(strtoul10(b"abc"), (0, false));
        assert_eq!(strtoul10(b""), (0, false));
        assert_eq!(strtoul10(b" 7"), (7, false));
        assert_eq!(strtoul10(b"-1").0, u64::MAX);
        assert_eq!(strtoul10(b"99999999999999999999999").0, u64::MAX);
        // Bytes, as C sees them: a bad byte ends the number, a NUL ends the string.
        assert_eq!(strtoul10(b"1: CA\xff"), (1, false));
        assert_eq!(strtoul10(b"2\xff"), (2, false));
        assert_eq!(strtoul10(b"4\0junk"), (4, true));
        assert_eq!(strtoul10(b"\x006"), (0, false));
        assert_eq!(c_str(b"rxe4\0junk"), b"rxe4");
        assert_eq!(c_str(b"rxe4"), b"rxe4");
    }

    #[test]
    fn strtol_int_rules() {
        assert_eq!(strtol10_int(b"6"), (6, true));
        assert_eq!(strtol10_int(b"-3"), (-3, true));
        assert_eq!(strtol10_int(b"x"), (0, false));
        assert_eq!(strtol10_int(b"4294967302"), (6, true)); // 2^32 + 6 truncated, as C does
        assert_eq!(strtol10_int(b"99999999999999999999").0, -1); // LONG_MAX truncated
    }

    #[test]
    fn major_minor() {
        assert_eq!(scan_major_minor(b"231:192"), Some((231, 192)));
        assert_eq!(scan_major_minor(b"231 :192"), None);
        assert_eq!(scan_major_minor(b"231: 192"), Some((231, 192)));
        assert_eq!(scan_major_minor(b"231"), None);
        assert_eq!(scan_major_minor(b"x:1"), None);
        assert_eq!(scan_major_minor(b"231:192\xff"), Some((231, 192)));
        assert_eq!(scan_major_minor(b"231:\x00192"), None);
    }

    #[test]
    fn guid() {
        assert_eq!(
            parse_node_guid(b"7021:abff:fe8a:f353"),
            Some(0x7021_abff_fe8a_f353)
        );
        assert_eq!(
            parse_node_guid(b"0002:c903:0001:2345\n"),
            Some(0x0002_c903_0001_2345)
        );
        assert_eq!(parse_node_guid(b"1:2:3:4"), Some(0x0001_0002_0003_0004));
        assert_eq!(parse_node_guid(b"12345:0:0:0"), Some(0x2345_0000_0000_0000)); // %hx truncates
        assert_eq!(parse_node_guid(b"zzzz:0000:0000:0000"), None);
        assert_eq!(parse_node_guid(b"0000:0000:0000"), None);
        assert_eq!(parse_node_guid(b"00000000000000000"), None);
        assert_eq!(
            parse_node_guid(b"0002:c903:0000:1234\xff"),
            Some(0x0002_c903_0000_1234)
        );
        assert_eq!(parse_node_guid(b"0002:c903:\xff000:1234"), None);
        assert_eq!(format_guid(0x7021_abff_fe8a_f353), "7021:abff:fe8a:f353");
    }

    #[test]
    fn dev_t() {
        let d = makedev(231, 192);
        assert_eq!(d, 0xe7c0);
        assert_eq!((dev_major(d), dev_minor(d)), (231, 192));
        let d = makedev(0x12345, 0x6789a);
        assert_eq!((dev_major(d), dev_minor(d)), (0x12345, 0x6789a));
        assert_eq!(huge_decode_dev(0xe7c0), (231, 192));
        // huge_encode_dev(MKDEV(300, 70000)) = (minor & 0xff) | (major << 8) | ((minor & ~0xff) << 12)
        let enc = (70000u64 & 0xff) | (300u64 << 8) | ((70000u64 & !0xff) << 12);
        assert_eq!(huge_decode_dev(enc), (300, 70000));
    }
}
