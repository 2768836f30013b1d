/* uvemu: which kernel driver answers for which provider. */
#define _GNU_SOURCE
#include "uvemu.h"

#include <string.h>

extern const struct emu_drv emu_drv_rxe, emu_drv_siw, emu_drv_mlx5;

static const struct emu_drv *const drivers[] = {
	&emu_drv_rxe, &emu_drv_siw, &emu_drv_mlx5,
};

const struct emu_drv *emu_drv_find(const char *provider)
{
	static const struct emu_drv none = { .name = "none" };

	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (!strcmp(drivers[i]->name, provider))
			return drivers[i];
	return &none;
}
