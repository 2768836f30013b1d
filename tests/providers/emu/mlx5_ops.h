/* mlx5 command opcodes (the device's command interface, as the PRM and mlx5_ifc.h number them) and
 * mailbox sizes, for the DEVX emulation (drv_mlx5_devx.c) and the family dv (family_dv.c). */
#ifndef MLX5_OPS_H
#define MLX5_OPS_H

#define MLX5_OP_QUERY_HCA_CAP 0x100
#define MLX5_OP_CREATE_CQ 0x400
#define MLX5_OP_DESTROY_CQ 0x401
#define MLX5_OP_QUERY_CQ 0x402
#define MLX5_OP_MODIFY_CQ 0x403
#define MLX5_OP_ALLOC_PD 0x800
#define MLX5_OP_DEALLOC_PD 0x801
#define MLX5_OP_ALLOC_TRANSPORT_DOMAIN 0x816
#define MLX5_OP_DEALLOC_TRANSPORT_DOMAIN 0x817
#define MLX5_OP_CREATE_TIR 0x900
#define MLX5_OP_MODIFY_TIR 0x901
#define MLX5_OP_DESTROY_TIR 0x902
#define MLX5_OP_QUERY_TIR 0x903
#define MLX5_OP_CREATE_TIS 0x912
#define MLX5_OP_MODIFY_TIS 0x913
#define MLX5_OP_DESTROY_TIS 0x914
#define MLX5_OP_QUERY_TIS 0x915

#define MLX5_MBOX_HDR 16          /* a mailbox's header: opcode/uid, op_mod; status, syndrome */
#define MLX5_TIS_IN 0xc0          /* create_tis_in, modify_tis_in, query_tis_out */
#define MLX5_HCA_CAP_OUT 0x1010   /* query_hca_cap_out */

#endif
