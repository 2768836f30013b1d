/* uvemu: which kernel driver answers for which provider. */
#define _GNU_SOURCE
#include "uvemu.h"

#include <string.h>

extern const struct emu_drv emu_drv_rxe, emu_drv_siw, emu_drv_mlx5, emu_drv_mlx4, emu_drv_efa, emu_drv_irdma,
	emu_drv_bnxt_re, emu_drv_hns, emu_drv_erdma, emu_drv_mana, emu_drv_cxgb4, emu_drv_qedr, emu_drv_ocrdma,
	emu_drv_vmw_pvrdma;

static const struct emu_drv *const drivers[] = {
	&emu_drv_rxe,   &emu_drv_siw,     &emu_drv_mlx5, &emu_drv_mlx4,  &emu_drv_efa,
	&emu_drv_irdma, &emu_drv_bnxt_re, &emu_drv_hns,  &emu_drv_erdma, &emu_drv_mana,
	&emu_drv_cxgb4, &emu_drv_qedr,    &emu_drv_ocrdma, &emu_drv_vmw_pvrdma,
};

const struct emu_drv *emu_drv_find(const char *provider)
{
	static const struct emu_drv none = { .name = "none" };

	for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
		if (!strcmp(drivers[i]->name, provider))
			return drivers[i];
	return &none;
}

const struct emu_drv *emu_req_drv(const struct emu_req *r)
{
	return emu_drv_find(r->dev->provider);
}
