//! The dynamic loader: `dlopen`, `dlsym`, `dlerror`, `dlclose`, plus the two link-map queries the
//! provider loader uses to tell which loaded object a registered provider lives in.
//!
//! rdma-core's loader (dynamic_driver.c) opens providers with `RTLD_NOW` (and so `RTLD_LOCAL`) and
//! never closes them; [`Library`] therefore does not close on drop.
//!
//! Locking: nothing here takes a lock of ours. A provider's ELF constructor runs inside
//! [`Library::open`] and calls back into the library (`verbs_register_driver_34`), so callers must
//! not hold any lock that the registration path takes.

use core::ffi::{CStr, c_char, c_int, c_void};
use core::ptr::NonNull;
use std::ffi::CString;

/// glibc's `RTLD_DL_LINKMAP` request for `dladdr1` (dlfcn.h).
const RTLD_DL_LINKMAP: c_int = 2;

/// Identity of one loaded object: the address of its `struct link_map`. Stable while it stays loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObjectId(pub usize);

/// A handle from a successful `dlopen`. Dropping it does not `dlclose` (providers stay loaded, as in
/// rdma-core); call [`Library::close`] to release it explicitly.
#[derive(Debug)]
pub struct Library {
    handle: NonNull<c_void>,
}

// SAFETY: the handle is an opaque token that glibc accepts from any thread.
unsafe impl Send for Library {}
// SAFETY: glibc's dlsym and dlclose lock internally, so one handle may be used from several threads.
unsafe impl Sync for Library {}

/// Take (and so clear) this thread's pending `dlerror` text.
fn take_dlerror() -> Option<String> {
    // SAFETY: dlerror returns NULL or a NUL-terminated thread-local string that stays valid until the
    // next dl* call on this thread; we copy it out immediately.
    let p = unsafe { libc::dlerror() };
    if p.is_null() {
        None
    } else {
        // SAFETY: non-NULL, NUL-terminated per dlerror's contract.
        Some(unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
    }
}

impl Library {
    /// `dlopen(path, RTLD_NOW)`. A path without a `/` is looked up on the dynamic loader's search
    /// path (LD_LIBRARY_PATH, ld.so.cache, default dirs); one with a `/` is opened as given.
    /// The error is `dlerror()`'s text.
    pub fn open(path: &[u8]) -> Result<Library, String> {
        let c = CString::new(path).map_err(|_| "path contains a NUL byte".to_string())?;
        // Clear any stale message so the one we report belongs to this call.
        let _ = take_dlerror();
        // SAFETY: `c` is a valid C string for the duration of the call. dlopen runs the object's
        // constructors, which may call back into this library; that is why no lock is held here.
        let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW) };
        match NonNull::new(h) {
            Some(handle) => Ok(Library { handle }),
            None => Err(take_dlerror().unwrap_or_else(|| "dlopen failed".to_string())),
        }
    }

    /// Address of `name` in this object (or its dependencies), as `dlsym` resolves it.
    pub fn symbol(&self, name: &str) -> Result<NonNull<c_void>, String> {
        let c = CString::new(name).map_err(|_| "symbol name contains a NUL byte".to_string())?;
        let _ = take_dlerror();
        // SAFETY: handle came from dlopen and has not been closed (close consumes self).
        let p = unsafe { libc::dlsym(self.handle.as_ptr(), c.as_ptr()) };
        match NonNull::new(p) {
            Some(p) => Ok(p),
            None => Err(take_dlerror().unwrap_or_else(|| format!("{name}: symbol is NULL"))),
        }
    }

    /// The loaded object this handle stands for.
    pub fn object_id(&self) -> Option<ObjectId> {
        let mut lm: *mut c_void = core::ptr::null_mut();
        // SAFETY: RTLD_DI_LINKMAP writes one `struct link_map *` into the pointer we pass.
        let r = unsafe {
            libc::dlinfo(
                self.handle.as_ptr(),
                libc::RTLD_DI_LINKMAP,
                (&raw mut lm).cast::<c_void>(),
            )
        };
        if r != 0 || lm.is_null() {
            let _ = take_dlerror();
            None
        } else {
            Some(ObjectId(lm as usize))
        }
    }

    /// The raw handle, for code that must pass it on.
    pub fn as_ptr(&self) -> *mut c_void {
        self.handle.as_ptr()
    }

    /// `dlclose`. Never do this to a provider: its registered ops would dangle.
    pub fn close(self) -> Result<(), String> {
        let _ = take_dlerror();
        // SAFETY: handle came from dlopen; `self` is consumed so it is not used again.
        let r = unsafe { libc::dlclose(self.handle.as_ptr()) };
        if r == 0 {
            Ok(())
        } else {
            Err(take_dlerror().unwrap_or_else(|| "dlclose failed".to_string()))
        }
    }
}

/// The loaded object containing `addr` (`dladdr1(..., RTLD_DL_LINKMAP)`), if any.
pub fn object_containing(addr: usize) -> Option<ObjectId> {
    let mut info = core::mem::MaybeUninit::<libc::Dl_info>::zeroed();
    let mut lm: *mut c_void = core::ptr::null_mut();
    // SAFETY: dladdr1 only inspects the address (it does not dereference it) and writes `info` and,
    // for RTLD_DL_LINKMAP, one `struct link_map *` into `lm`.
    let r = unsafe {
        libc::dladdr1(
            addr as *const c_void,
            info.as_mut_ptr(),
            &raw mut lm,
            RTLD_DL_LINKMAP,
        )
    };
    if r == 0 || lm.is_null() {
        None
    } else {
        Some(ObjectId(lm as usize))
    }
}

/// File name of the loaded object containing `addr`, as the dynamic loader recorded it.
pub fn object_name_containing(addr: usize) -> Option<String> {
    object_path_containing(addr).map(|p| String::from_utf8_lossy(&p).into_owned())
}

/// [`object_path_containing`] without a copy: `f` gets the loader's bytes of the path for the
/// duration of the call (nothing is allocated).
pub fn with_object_path<R>(addr: usize, f: impl FnOnce(&[u8]) -> R) -> Option<R> {
    let mut info = core::mem::MaybeUninit::<libc::Dl_info>::zeroed();
    // SAFETY: as in `object_containing`; dli_fname points into the loader's link map, valid while
    // the object is loaded (a provider is never unloaded), and is read only during `f`.
    unsafe {
        if libc::dladdr(addr as *const c_void, info.as_mut_ptr()) == 0 {
            return None;
        }
        let p: *const c_char = (*info.as_ptr()).dli_fname;
        if p.is_null() {
            None
        } else {
            Some(f(CStr::from_ptr(p).to_bytes()))
        }
    }
}

/// [`object_name_containing`] as the loader's bytes (a path need not be UTF-8).
pub fn object_path_containing(addr: usize) -> Option<Vec<u8>> {
    with_object_path(addr, <[u8]>::to_vec)
}
