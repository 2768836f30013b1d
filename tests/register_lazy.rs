//! `verbs_register_driver_34` keeps the ops pointer and reads nothing behind it: rdma-core reads a
//! provider's table only when it matches a device. (Was: the name and the match table were read
//! at registration, so a bad table crashed the process inside the provider's constructor.)
//! Alone in its test binary: the registered garbage stays in this process's provider list.

#[test]
fn registration_reads_nothing_behind_the_ops_pointer() {
    let garbage = [0xa5u8; 1024];
    // SAFETY: the export only records the pointers; nothing in this process matches devices.
    unsafe {
        ibverbs::capi::driver::verbs_register_driver::<34>(garbage.as_ptr().cast());
        // An address no mapping holds.
        ibverbs::capi::driver::verbs_register_driver::<34>(16 as *const _);
    }
}
