/* Diff program: rescans while devices come and go. Runs only in the harness's private mount
 * namespace (FAKE_TREE set, /dev/infiniband a mount point of its own), where it changes
 * /dev/infiniband between ibv_get_device_list calls as HOTPLUG_STEPS says:
 *   "scan; rm uverbs0; scan; mknod uverbs0 231 192; scan"
 * Every list is kept until the end, so devices that vanished must stay readable through the
 * lists that still hold them; each scan says which entries are the objects of the previous one. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <infiniband/verbs.h>

#define MAX_SCANS 16

static struct ibv_device **lists[MAX_SCANS];
static int nscans;

static const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";
	return n ? n : "?";
}

static int in_fake_namespace(void)
{
	struct stat dev, ib;

	if (!getenv("FAKE_TREE"))
		return 0;
	if (stat("/dev", &dev) || stat("/dev/infiniband", &ib))
		return 0;
	return dev.st_dev != ib.st_dev;
}

static void scan(void)
{
	int num = -7;
	struct ibv_device **l;
	int s = nscans;

	errno = 0;
	l = ibv_get_device_list(&num);
	if (!l) {
		printf("scan%d: NULL errno=%s num=%d\n", s, ename(errno), num);
		return;
	}
	lists[nscans++] = l;
	printf("scan%d: num=%d\n", s, num);
	for (int i = 0; l[i]; i++) {
		printf("scan%d[%d] %s %s", s, i, l[i]->dev_name, ibv_get_device_name(l[i]));
		int found = 0;

		for (int p = s - 1; p >= 0 && !found; p--)
			for (int j = 0; lists[p] && lists[p][j]; j++)
				if (lists[p][j] == l[i]) {
					printf(" = scan%d[%d]", p, j);
					found = 1;
					break;
				}
		if (!found)
			printf(" new");
		printf("\n");
	}
}

static void step(char *cmd)
{
	char name[64], path[128];
	unsigned int maj, min;

	while (*cmd == ' ')
		cmd++;
	if (!*cmd)
		return;
	if (!strcmp(cmd, "scan")) {
		if (nscans == MAX_SCANS) {
			printf("too many scans\n");
			exit(2);
		}
		scan();
	} else if (sscanf(cmd, "rm %63s", name) == 1) {
		snprintf(path, sizeof(path), "/dev/infiniband/%s", name);
		printf("rm %s = %d\n", name, unlink(path) ? -errno : 0);
	} else if (sscanf(cmd, "mknod %63s %u %u", name, &maj, &min) == 3) {
		snprintf(path, sizeof(path), "/dev/infiniband/%s", name);
		printf("mknod %s %u:%u = %d\n", name, maj, min,
		       mknod(path, S_IFCHR | 0600, makedev(maj, min)) ? -errno : 0);
	} else {
		printf("bad step: %s\n", cmd);
		exit(2);
	}
}

int main(void)
{
	const char *steps = getenv("HOTPLUG_STEPS");

	if (!steps || !in_fake_namespace()) {
		printf("needs HOTPLUG_STEPS and the harness's private /dev/infiniband (FAKE_TREE)\n");
		return 2;
	}
	char *copy = strdup(steps), *save = NULL;

	for (char *cmd = strtok_r(copy, ";", &save); cmd; cmd = strtok_r(NULL, ";", &save))
		step(cmd);
	free(copy);

	for (int s = 0; s < nscans; s++) {
		printf("held scan%d:", s);
		for (int i = 0; lists[s][i]; i++)
			printf(" %s/%s", lists[s][i]->dev_name, lists[s][i]->name);
		printf("\n");
		ibv_free_device_list(lists[s]);
	}
	return 0;
}
