//! Transitional: the provider helpers the not-yet-declared families import from here (the
//! device commands themselves are declared in `capi::device`).

pub(crate) use crate::verbs::buf::provider_buf;
