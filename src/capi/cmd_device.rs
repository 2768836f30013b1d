//! Transitional: the provider helpers the not-yet-declared families import from here (the
//! device commands themselves are declared in `capi::device`).

pub(crate) use crate::verbs::disassoc::allow_disassociate;

pub(crate) use crate::verbs::ctxpriv::with_cmd;

pub(crate) use crate::verbs::buf::{provider_buf, provider_bufs};
