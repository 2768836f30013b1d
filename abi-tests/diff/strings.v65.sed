# Expected differences between rdma-core v44 (the system library) and v65 for strings.c.
# Applied to the system library's output before it is compared with ours.

# IBV_EVENT_DEVICE_SPEED_CHANGE (20) got a name: rdma-core 5083d3af8
# "verbs: Add IBV_EVENT_DEVICE_SPEED_CHANGE to async events" (v62.0).
s/^ibv_event_type_str(20) = "unknown"$/ibv_event_type_str(20) = "Device link speed change"/

# ibv_wr_opcode_str does not exist before rdma-core 26d999bda
# "libibverbs: Introduce ibv_wr_opcode_str" (v49.0). Its v65 table, by enum ibv_wr_opcode value:
s/^ibv_wr_opcode_str(0) = absent$/ibv_wr_opcode_str(0) = "rdma-write"/
s/^ibv_wr_opcode_str(1) = absent$/ibv_wr_opcode_str(1) = "rdma-write-with-imm"/
s/^ibv_wr_opcode_str(2) = absent$/ibv_wr_opcode_str(2) = "send"/
s/^ibv_wr_opcode_str(3) = absent$/ibv_wr_opcode_str(3) = "send-with-imm"/
s/^ibv_wr_opcode_str(4) = absent$/ibv_wr_opcode_str(4) = "rdma-read"/
s/^ibv_wr_opcode_str(5) = absent$/ibv_wr_opcode_str(5) = "atomic-cmp-and-swp"/
s/^ibv_wr_opcode_str(6) = absent$/ibv_wr_opcode_str(6) = "atomic-fetch-and-add"/
s/^ibv_wr_opcode_str(7) = absent$/ibv_wr_opcode_str(7) = "local-inv"/
s/^ibv_wr_opcode_str(8) = absent$/ibv_wr_opcode_str(8) = "bind-mw"/
s/^ibv_wr_opcode_str(9) = absent$/ibv_wr_opcode_str(9) = "send-with-inv"/
s/^ibv_wr_opcode_str(10) = absent$/ibv_wr_opcode_str(10) = "tso"/
s/^ibv_wr_opcode_str(11) = absent$/ibv_wr_opcode_str(11) = "driver1"/
# 12 and 13 are holes in the enum (IBV_WR_FLUSH = 14): v65's table has NULL there and returns it.
s/^ibv_wr_opcode_str(\(1[23]\)) = absent$/ibv_wr_opcode_str(\1) = (null)/
s/^ibv_wr_opcode_str(14) = absent$/ibv_wr_opcode_str(14) = "flush"/
s/^ibv_wr_opcode_str(15) = absent$/ibv_wr_opcode_str(15) = "atomic-write"/
# Anything else, negative or above IBV_WR_ATOMIC_WRITE (15), is "unknown".
s/^ibv_wr_opcode_str(\(-\{0,1\}[0-9]*\)) = absent$/ibv_wr_opcode_str(\1) = "unknown"/
