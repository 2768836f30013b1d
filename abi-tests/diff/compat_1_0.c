/* Diff program: the IBVERBS_1.0 device list on fake sysfs trees (compat_1_0.cases). Binds the
 * old symbols (tests/vm/progs/compat_1_0.h) and compares them with the IBVERBS_1.1 list: count,
 * names, GUIDs, the wrapped device; then a list without a count. Opening is checked in the VM
 * (tests/vm/progs/compat_1_0.c); NULL arguments are not tried (rdma-core crashes on them). */
#include "../../tests/vm/progs/compat_1_0.h"

int main(void)
{
	int on = -7, nn = -7;

	errno = 0;
	struct old_device **ol = old_ibv_get_device_list(&on);
	if (!ol) {
		printf("get_device_list@1.0 = NULL errno=%s num=%d\n", ename(errno), on);
		return 0;
	}
	struct ibv_device **nl = ibv_get_device_list(&nn);
	int n = 0;
	while (ol[n])
		n++;
	printf("get_device_list@1.0: num=%d entries=%d; @1.1 %s num=%d\n", on, n,
	       nl ? "list" : "NULL", nn);
	for (int i = 0; i < n; i++) {
		const char *name = old_ibv_get_device_name(ol[i]);
		errno = 0;
		__be64 guid = old_ibv_get_device_guid(ol[i]);
		int e = errno;

		printf("[%d] name@1.0 = %s guid@1.0 = %016llx%s%s\n", i, name ? name : "(null)",
		       (unsigned long long)be64toh(guid), guid ? "" : " errno=", guid ? "" : ename(e));
		if (nl && i < nn)
			printf("[%d] @1.1: name %s, guid %s, wraps the 1.1 device: %s\n", i,
			       strcmp(name, ibv_get_device_name(nl[i])) ? "differs" : "same",
			       guid == ibv_get_device_guid(nl[i]) ? "same" : "differs",
			       ol[i]->real_device == nl[i] ? "yes" : "no");
	}
	/* The 1.0 list holds its devices: freeing the 1.1 list first leaves them usable. */
	if (nl)
		ibv_free_device_list(nl);
	for (int i = 0; i < n; i++)
		printf("[%d] after freeing the 1.1 list: %s\n", i, old_ibv_get_device_name(ol[i]));
	old_ibv_free_device_list(ol);

	ol = old_ibv_get_device_list(NULL);
	n = 0;
	while (ol && ol[n])
		n++;
	printf("get_device_list@1.0(NULL) = %s entries=%d\n", ol ? "list" : "NULL", n);
	if (ol)
		old_ibv_free_device_list(ol);
	return 0;
}
