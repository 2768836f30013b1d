/* The set-uid / set-gid test's program (tests/secure/run): list the devices and say where sysfs
 * is, through whichever libibverbs it was linked with. */
#include <stdio.h>
#include <infiniband/verbs.h>

const char *ibv_get_sysfs_path(void);

int main(void)
{
	int n = -1;
	struct ibv_device **l = ibv_get_device_list(&n);

	printf("sysfs %s\n", ibv_get_sysfs_path());
	printf("devices %d\n", l ? n : -1);
	for (int i = 0; l && l[i]; i++)
		printf("device %s\n", ibv_get_device_name(l[i]));
	if (l)
		ibv_free_device_list(l);
	return 0;
}
