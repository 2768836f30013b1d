//! Telling valgrind's memcheck what the kernel wrote (rdma-core: cmd_ioctl.c `finalize_attr`,
//! cmd_fallback.c: `VALGRIND_MAKE_MEM_DEFINED` after each command), and its race checker helgrind
//! which orderings the library's own locks impose ([`sys::sync`](crate::sys::sync)), without a
//! build dependency on valgrind: a client request is a fixed instruction sequence that does nothing
//! on a real CPU and that valgrind's JIT recognises.
//!
//! memcheck cannot see into the RDMA ioctl or a uverbs write: what the kernel stored into a
//! response stays "undefined" to it, and a provider reading its response struct is reported.

/// `VG_USERREQ__MAKE_MEM_DEFINED`: memcheck's tool base `('M' << 24) | ('C' << 16)`, request 2
/// (valgrind's memcheck.h).
const MAKE_MEM_DEFINED: u64 = (0x4d << 24 | 0x43 << 16) + 2;

/// Mark `len` bytes at `addr` as written (defined) for memcheck; nothing outside valgrind.
/// Safe for any range: nothing is read or written there, valgrind only updates its shadow state.
pub fn mark_defined(addr: usize, len: usize) {
    if len == 0 {
        return;
    }
    client_request([MAKE_MEM_DEFINED, addr as u64, len as u64, 0, 0, 0]);
}

/// [`mark_defined`] for a buffer.
pub fn mark_buf_defined(buf: &[u8]) {
    mark_defined(buf.as_ptr() as usize, buf.len());
}

/// helgrind's requests (valgrind's helgrind.h: tool base `('H' << 24) | ('G' << 16)`, the
/// `_VG_USERREQ__HG_*` enumeration from 256 on).
const HG_RWLOCK_DESTROY_PRE: u64 = 0x4847_010f;
const HG_RWLOCK_ACQUIRED: u64 = 0x4847_0111;
const HG_RWLOCK_RELEASED: u64 = 0x4847_0112;
const HG_USERSO_SEND_PRE: u64 = 0x4847_0121;
const HG_USERSO_RECV_POST: u64 = 0x4847_0122;
const HG_ARANGE_MAKE_UNTRACKED: u64 = 0x4847_0127;

/// helgrind's `ANNOTATE_RWLOCK_ACQUIRED(lock, 1)`: this thread now holds the lock at `lock`.
#[inline]
pub fn lock_acquired(lock: usize) {
    client_request([HG_RWLOCK_ACQUIRED, lock as u64, 1, 0, 0, 0]);
}

/// `ANNOTATE_RWLOCK_RELEASED(lock, 1)`: this thread is about to let the lock at `lock` go.
#[inline]
pub fn lock_released(lock: usize) {
    client_request([HG_RWLOCK_RELEASED, lock as u64, 0, 0, 0, 0]);
}

/// `ANNOTATE_RWLOCK_DESTROY(lock)`: the lock at `lock` is gone (its memory may be reused).
#[inline]
pub fn lock_destroyed(lock: usize) {
    client_request([HG_RWLOCK_DESTROY_PRE, lock as u64, 0, 0, 0, 0]);
}

/// `ANNOTATE_HAPPENS_BEFORE(tag)`: everything this thread did so far happens before whatever
/// any thread does after a [`happens_after`] on the same tag.
#[inline]
pub fn happens_before(tag: usize) {
    client_request([HG_USERSO_SEND_PRE, tag as u64, 0, 0, 0, 0]);
}

/// `ANNOTATE_HAPPENS_AFTER(tag)`.
#[inline]
pub fn happens_after(tag: usize) {
    client_request([HG_USERSO_RECV_POST, tag as u64, 0, 0, 0, 0]);
}

/// `ANNOTATE_BENIGN_RACE_SIZED(addr, len)`: accesses to the range are not checked (an atomic
/// the CPU keeps consistent; helgrind does not know atomic instructions).
#[inline]
pub fn untracked(addr: usize, len: usize) {
    client_request([HG_ARANGE_MAKE_UNTRACKED, addr as u64, len as u64, 0, 0, 0]);
}

#[cfg(target_arch = "x86_64")]
fn client_request(args: [u64; 6]) {
    // SAFETY: the amd64 client-request preamble: four rotations of %rdi by 3, 13, 61 and 51 bits
    // (two whole turns: %rdi is unchanged), then `xchg %rbx, %rbx` (a no-op). On a real CPU
    // nothing changes; under valgrind the JIT reads the request from the array %rax points to
    // and leaves its answer in %rdx (declared clobbered; we ignore it). No memory is written.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") args.as_ptr(),
            inout("rdx") 0u64 => _,
            inout("rdi") 0u64 => _,
            options(nostack, preserves_flags, readonly),
        );
    }
}

#[cfg(target_arch = "aarch64")]
fn client_request(args: [u64; 6]) {
    // SAFETY: valgrind.h's arm64 preamble: x12 rotated by 3, 13, 51 and 61 bits (two whole turns:
    // unchanged; no flags), then `orr x10, x10, x10` (a no-op). Under valgrind the request is read
    // from the array x4 points to and the answer left in x3 (declared clobbered; ignored). No
    // memory is written.
    unsafe {
        core::arch::asm!(
            "ror x12, x12, #3",
            "ror x12, x12, #13",
            "ror x12, x12, #51",
            "ror x12, x12, #61",
            "orr x10, x10, x10",
            in("x4") args.as_ptr(),
            inout("x3") 0u64 => _,
            options(nostack, preserves_flags, readonly),
        );
    }
}

#[cfg(all(target_arch = "powerpc64", target_endian = "little"))]
fn client_request(args: [u64; 6]) {
    // SAFETY: valgrind.h's ppc64le preamble: r0 rotated by 3, 13, 61 and 51 bits (two whole
    // turns: unchanged; no condition register), then `or 1,1,1` (a no-op). Under valgrind the
    // request is read from the array r4 points to and the answer left in r3 (declared clobbered;
    // ignored). No memory is written.
    unsafe {
        core::arch::asm!(
            "rotldi 0, 0, 3",
            "rotldi 0, 0, 13",
            "rotldi 0, 0, 61",
            "rotldi 0, 0, 51",
            "or 1, 1, 1",
            in("r4") args.as_ptr(),
            inout("r3") 0u64 => _,
            options(nostack, preserves_flags, readonly),
        );
    }
}

#[cfg(target_arch = "s390x")]
fn client_request(args: [u64; 6]) {
    // SAFETY: valgrind.h's s390x preamble: `lr` of r15, r1, r2 and r3 to themselves, then the
    // request code `lr 2,2` (no-ops; `lr` sets no condition code). Under valgrind the request is
    // read from the array r2 points to and the answer left in r3 (declared clobbered; ignored).
    // No memory is written.
    unsafe {
        core::arch::asm!(
            "lr %r15, %r15",
            "lr %r1, %r1",
            "lr %r2, %r2",
            "lr %r3, %r3",
            "lr %r2, %r2",
            in("r2") args.as_ptr(),
            inout("r3") 0u64 => _,
            options(nostack, preserves_flags, readonly),
        );
    }
}

/// Valgrind has no client requests for the other targets (riscv64) in the versions Debian ships.
#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "powerpc64", target_endian = "little"),
    target_arch = "s390x"
)))]
fn client_request(_args: [u64; 6]) {}

#[cfg(test)]
mod tests {
    #[test]
    fn a_request_outside_valgrind_changes_nothing() {
        let buf = [7u8; 16];
        super::mark_buf_defined(&buf);
        super::mark_defined(0, 1 << 40);
        assert_eq!(buf, [7u8; 16]);
    }
}
