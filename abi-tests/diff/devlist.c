/* Diff program: the device list, run against each fake sysfs tree (devlist.cases).
 * ibv_get_device_list three times: the first scan, a rescan while the first list is still
 * held (known devices must be the same objects), and one with a NULL count after both lists
 * are freed. For every device, everything the public API and struct ibv_device tell. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

static const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";
	return n ? n : "?";
}

static void show_device(const char *label, int i, struct ibv_device *d)
{
	const char *name = ibv_get_device_name(d);

	printf("%s[%d] ibv_get_device_name = %s\n", label, i, name ? name : "(null)");
	for (int round = 1; round <= 2; round++) {
		errno = 0;
		__be64 guid = ibv_get_device_guid(d);
		int e = errno;

		printf("%s[%d] ibv_get_device_guid #%d = %016llx", label, i, round,
		       (unsigned long long)be64toh(guid));
		if (!guid)
			printf(" errno=%s", ename(e));
		printf("\n");
	}
	printf("%s[%d] ibv_get_device_index = %d\n", label, i, ibv_get_device_index(d));
	printf("%s[%d] node_type = %d (%s)\n", label, i, (int)d->node_type,
	       ibv_node_type_str(d->node_type));
	printf("%s[%d] transport_type = %d\n", label, i, (int)d->transport_type);
	printf("%s[%d] name = %s\n", label, i, d->name);
	printf("%s[%d] dev_name = %s\n", label, i, d->dev_name);
	printf("%s[%d] dev_path = %s\n", label, i, d->dev_path);
	printf("%s[%d] ibdev_path = %s\n", label, i, d->ibdev_path);
}

/* One ibv_get_device_list call; prints the result and returns the list (or NULL). */
static struct ibv_device **scan(const char *label, int with_num)
{
	int num = -7;
	struct ibv_device **l;
	int e;

	errno = 0;
	l = ibv_get_device_list(with_num ? &num : NULL);
	e = errno;
	if (!l) {
		printf("%s: ibv_get_device_list = NULL errno=%s", label, ename(e));
		if (with_num)
			printf(" num=%d", num);
		printf("\n");
		return NULL;
	}
	int n = 0;
	while (l[n])
		n++;
	printf("%s: ibv_get_device_list = %d entries", label, n);
	if (with_num)
		printf(" num=%d", num);
	printf("\n");
	for (int i = 0; i < n; i++)
		show_device(label, i, l[i]);
	return l;
}

int main(void)
{
	struct ibv_device **first = scan("first", 1);
	struct ibv_device **second = scan("rescan", 1);

	if (first && second) {
		for (int i = 0; second[i]; i++) {
			int same = -1;

			for (int j = 0; first[j]; j++)
				if (first[j] == second[i])
					same = j;
			if (same >= 0)
				printf("rescan[%d] is first[%d]\n", i, same);
			else
				printf("rescan[%d] is new\n", i);
		}
	}
	if (first)
		ibv_free_device_list(first);
	if (second)
		ibv_free_device_list(second);

	struct ibv_device **third = scan("third", 0);

	if (third)
		ibv_free_device_list(third);
	return 0;
}
