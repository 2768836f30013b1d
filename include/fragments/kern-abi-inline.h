/*
 * The macros a provider declares its own write commands with. Hand-written in this project's own
 * words; tools/headers appends it to the generated kern-abi.h, followed by the generated
 * typedefs these macros name (one set per write command, by the command's number).
 *
 * A provider's command is the core command (header, then the kernel's request, see the structs
 * above) followed by the provider's own request, and its response the kernel's response followed
 * by the provider's own; the kernel finds the provider's part right after the core part, so the
 * core part must not be padded at its end. The provider's part is reachable by its members (the
 * `_STRUCT_<name>` macro rdma-core's buildlib/make_abi_structs.py makes of a kernel uapi struct:
 * its members in a tagless struct) and as a whole (`drv_payload`).
 */

/* The struct types of write command `cmd` (an IB_USER_VERBS_CMD_* or IB_USER_VERBS_EX_CMD_*
 * name): the whole command, the kernel's request and response, and the size unit (4 bytes for a
 * command with the plain header, 8 for an extended one). */
#define IBV_ABI_REQ(cmd) _ABI_REQ_STRUCT_##cmd
#define IBV_KABI_REQ(cmd) _KABI_REQ_STRUCT_##cmd
#define IBV_KABI_RESP(cmd) _KABI_RESP_STRUCT_##cmd
#define IBV_ABI_ALIGN(cmd) _ABI_ALIGN_##cmd

/* The members of `struct empty` (none), for a provider command without request or response. */
#define _STRUCT_empty struct {}

/* A compile-time check at file scope, in C and C++. */
#ifdef __cplusplus
#define IBV_STATIC_ASSERT_(cond, why) static_assert(cond, why)
#else
#define IBV_STATIC_ASSERT_(cond, why) _Static_assert(cond, why)
#endif

/* The core part ends in the kernel's flexible `driver_data[]` (the provider's part is where it
 * points), which clang reports as a GNU extension in every provider command: not for these. */
#ifdef __clang__
#define IBV_KABI_NESTED_BEGIN_                                                                  \
	_Pragma("clang diagnostic push")                                                        \
	_Pragma("clang diagnostic ignored \"-Wgnu-variable-sized-type-not-at-end\"")
#define IBV_KABI_NESTED_END_ _Pragma("clang diagnostic pop")
#else
#define IBV_KABI_NESTED_BEGIN_
#define IBV_KABI_NESTED_END_
#endif

/*
 * DECLARE_DRV_CMD(name, cmd, drv_req, drv_resp) declares `struct name` (command `cmd` with the
 * provider's request `struct drv_req` after it) and `struct name_resp` (the kernel's response with
 * `struct drv_resp` after it); `empty` stands for "nothing of the provider's". Used as a
 * declaration: `DECLARE_DRV_CMD(...);`. Fails to compile when either half would carry padding
 * between the core part and the provider's, or after the provider's.
 */
#define DECLARE_DRV_CMD(name, cmd, drv_req, drv_resp)                                           \
	IBV_KABI_NESTED_BEGIN_                                                                  \
	struct name {                                                                           \
		IBV_ABI_REQ(cmd) ibv_cmd;                                                       \
		union {                                                                         \
			_STRUCT_##drv_req;                                                      \
			struct drv_req drv_payload;                                             \
		};                                                                              \
	};                                                                                      \
	struct name##_resp {                                                                    \
		IBV_KABI_RESP(cmd) ibv_resp;                                                    \
		union {                                                                         \
			_STRUCT_##drv_resp;                                                     \
			struct drv_resp drv_payload;                                            \
		};                                                                              \
	};                                                                                      \
	IBV_KABI_NESTED_END_                                                                    \
	IBV_STATIC_ASSERT_(sizeof(IBV_KABI_REQ(cmd)) % __alignof__(struct drv_req) == 0,          \
			 #name ": the kernel request ends off the provider request's alignment"); \
	IBV_STATIC_ASSERT_(sizeof(struct name) == sizeof(IBV_ABI_REQ(cmd)) + sizeof(struct drv_req), \
			 #name ": padding around the provider's request");                      \
	IBV_STATIC_ASSERT_(sizeof(struct name) % IBV_ABI_ALIGN(cmd) == 0,                         \
			 #name ": not a whole number of the command's size units");             \
	IBV_STATIC_ASSERT_(sizeof(IBV_KABI_RESP(cmd)) % __alignof__(struct drv_resp) == 0,        \
			 #name ": the kernel response ends off the provider response's alignment"); \
	IBV_STATIC_ASSERT_(sizeof(struct name##_resp) ==                                          \
				 sizeof(IBV_KABI_RESP(cmd)) + sizeof(struct drv_resp),          \
			 #name ": padding around the provider's response");                     \
	IBV_STATIC_ASSERT_(sizeof(struct name##_resp) % IBV_ABI_ALIGN(cmd) == 0,                  \
			 #name ": response not a whole number of the command's size units")

/* The basic create-QP request inside an extended one: both start with `user_handle`, so the
 * extended command's payload read from there is the basic request (its `response` member, before
 * `user_handle`, must not be touched: the extended command has none there). */
static inline struct ib_uverbs_create_qp *ibv_create_qp_ex_to_reg(struct ibv_create_qp_ex *cmd_ex)
{
	return (struct ib_uverbs_create_qp *)((char *)&cmd_ex->user_handle -
					      offsetof(struct ib_uverbs_create_qp, user_handle));
}
