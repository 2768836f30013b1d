/* Diff program: the kernel-struct copy helpers of infiniband/marshall.h
 * (ibv_copy_ah_attr_from_kern, ibv_copy_qp_attr_from_kern, ibv_copy_path_rec_from_kern,
 * ibv_copy_path_rec_to_kern). Pure functions, no device: each source struct is filled with a byte
 * pattern, each destination pre-filled with another, and the whole destination is printed in hex
 * after the copy, so every field copied, converted or left alone shows. marshall.h itself is not
 * installed by Debian's libibverbs-dev; the prototypes are declared here. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>
#include <infiniband/sa.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_sa.h>

void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst, struct ib_uverbs_ah_attr *src);
void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst, struct ib_uverbs_qp_attr *src);
void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst, struct ib_user_path_rec *src);
void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst, struct ibv_sa_path_rec *src);

static void fill(void *p, size_t n, int pattern)
{
	uint8_t *b = p;

	for (size_t i = 0; i < n; i++) {
		switch (pattern) {
		case 0: b[i] = (uint8_t)(i + 1); break;            /* every byte distinct */
		case 1: b[i] = 0xff; break;                         /* all ones */
		case 2: b[i] = 0; break;                            /* all zeros */
		default: b[i] = (uint8_t)(i * 37 + 0x80); break;    /* scrambled */
		}
	}
}

static void dump(const char *name, int pattern, const void *p, size_t n)
{
	const uint8_t *b = p;

	printf("%s pattern %d (%zu bytes):", name, pattern, n);
	for (size_t i = 0; i < n; i++)
		printf("%s%02x", i % 16 ? " " : "\n  ", b[i]);
	printf("\n");
}

int main(void)
{
	for (int pat = 0; pat < 4; pat++) {
		struct ib_uverbs_ah_attr kah;
		struct ibv_ah_attr ah;
		struct ib_uverbs_qp_attr kqp;
		struct ibv_qp_attr qp;
		struct ib_user_path_rec kpr;
		struct ibv_sa_path_rec pr;

		fill(&kah, sizeof(kah), pat);
		memset(&ah, 0xee, sizeof(ah));
		ibv_copy_ah_attr_from_kern(&ah, &kah);
		dump("ah_attr_from_kern", pat, &ah, sizeof(ah));

		fill(&kqp, sizeof(kqp), pat);
		memset(&qp, 0xee, sizeof(qp));
		ibv_copy_qp_attr_from_kern(&qp, &kqp);
		dump("qp_attr_from_kern", pat, &qp, sizeof(qp));

		fill(&kpr, sizeof(kpr), pat);
		memset(&pr, 0xee, sizeof(pr));
		ibv_copy_path_rec_from_kern(&pr, &kpr);
		dump("path_rec_from_kern", pat, &pr, sizeof(pr));

		fill(&pr, sizeof(pr), pat);
		memset(&kpr, 0xee, sizeof(kpr));
		ibv_copy_path_rec_to_kern(&kpr, &pr);
		dump("path_rec_to_kern", pat, &kpr, sizeof(kpr));
	}
	return 0;
}
