/*
 * Which layouts this header declares. Programs get rdma-core v65's. A provider built for provider
 * ABI 34 (IBVERBS_PABI_VERSION 34, infiniband/driver.h's default; see driver.h's opening comment)
 * gets rdma-core v44's for the three structs that ABI fixes and that v65 grew: struct verbs_context
 * without the six ops v65 put in front of it, struct ibv_qp_ex without wr_flush (and no
 * ibv_wr_flush), struct ibv_port_attr without active_speed_ex. The members concerned are the ones
 * under `#if IBV_PABI_LAYOUT >= 65`.
 */
#if defined(IBVERBS_PABI_VERSION) && IBVERBS_PABI_VERSION == 34
#define IBV_PABI_LAYOUT 34
#else
#define IBV_PABI_LAYOUT 65
#endif
