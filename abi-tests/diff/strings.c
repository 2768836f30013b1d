/* Diff program: the enum-to-string and rate conversion helpers of libibverbs,
 * over every input from -3 to 300, plus the rate functions around every known
 * rate. Functions missing from older libraries are looked up at run time. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <infiniband/verbs.h>

typedef const char *(*str_fn)(int);

static void show(const char *fn, int i, const char *s)
{
	if (s)
		printf("%s(%d) = \"%s\"\n", fn, i, s);
	else
		printf("%s(%d) = (null)\n", fn, i);
}

static void rates(int i)
{
	printf("ibv_rate_to_mult(%d) = %d\n", i, ibv_rate_to_mult((enum ibv_rate)i));
	printf("mult_to_ibv_rate(%d) = %d\n", i, (int)mult_to_ibv_rate(i));
	printf("ibv_rate_to_mbps(%d) = %d\n", i, ibv_rate_to_mbps((enum ibv_rate)i));
	printf("mbps_to_ibv_rate(%d) = %d\n", i, (int)mbps_to_ibv_rate(i));
}

/* Link rates in Mb/s that rdma-core v65 converts (enum ibv_rate 2..24). */
static const int known_mbps[] = {
	2500, 5000, 10000, 20000, 30000, 40000, 60000, 80000, 120000,
	14062, 56250, 112500, 168750, 25781, 103125, 206250, 309375,
	28125, 53125, 425000, 637500, 850000, 1275000,
};

int main(void)
{
	str_fn wr_opcode_str = (str_fn)dlsym(RTLD_DEFAULT, "ibv_wr_opcode_str");

	for (int i = -3; i <= 300; i++) {
		show("ibv_node_type_str", i, ibv_node_type_str((enum ibv_node_type)i));
		show("ibv_port_state_str", i, ibv_port_state_str((enum ibv_port_state)i));
		show("ibv_event_type_str", i, ibv_event_type_str((enum ibv_event_type)i));
		show("ibv_wc_status_str", i, ibv_wc_status_str((enum ibv_wc_status)i));
		if (wr_opcode_str)
			show("ibv_wr_opcode_str", i, wr_opcode_str(i));
		else
			printf("ibv_wr_opcode_str(%d) = absent\n", i);
		rates(i);
	}
	for (unsigned int k = 0; k < sizeof(known_mbps) / sizeof(known_mbps[0]); k++)
		for (int d = -1; d <= 1; d++)
			printf("mbps_to_ibv_rate(%d) = %d\n", known_mbps[k] + d,
			       (int)mbps_to_ibv_rate(known_mbps[k] + d));
	for (int m = 0; m <= 500; m++)
		printf("mult_to_ibv_rate(%d) = %d\n", m, (int)mult_to_ibv_rate(m));
	rates(INT_MIN);
	rates(INT_MAX);
	return 0;
}
