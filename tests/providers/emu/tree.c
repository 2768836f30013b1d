/* uvemu-tree PROVIDER DIR [UVERBS-NAME]: write the sysfs tree of the provider's fake device under
 * DIR/sys (the node is uverbs0 unless named).
 * uvemu-tree --families PROVIDER: the lifecycle families (lifecycle FAMILY) its kernel driver
 * supports, one a line. */
#define _GNU_SOURCE
#include "uvemu.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	const struct emu_dev *d = argc >= 3 ? emu_dev_find(argv[1]) : NULL;

	if (argc == 3 && !strcmp(argv[1], "--families")) {
		d = emu_dev_find(argv[2]);
		if (d && d->xrc)
			printf("xrc\n");
		if (d && d->dm)
			printf("dm\n");
		if (d && (d->odp || d->dmabuf))
			printf("mr\n");
		if (d && d->mcast)
			printf("mcast\n");
		if (d && d->cq_max_period)
			printf("cqmod\n");
		if (d && d->wq)
			printf("wq\nflow\n");
		if (d && d->cq_flags)
			printf("ex\n");
		if (d && d->kpost)
			printf("kpost\n");
		if (d && d->import)
			printf("import\n");
		if (d && d->devx)
			printf("dv\n");
		return d ? 0 : 2;
	}
	if (!d) {
		fprintf(stderr, "usage: uvemu-tree PROVIDER DIR [UVERBS-NAME]\n");
		return 2;
	}
	mkdir(argv[2], 0755);
	if (emu_dev_write_tree(d, argv[2], argc > 3 ? argv[3] : "uverbs0")) {
		perror("uvemu-tree");
		return 1;
	}
	return 0;
}
