/* claims_find.h: the claims tests' lookups (test_claims, test_replay_claims): a claim by id among claims_run's
 * results and a claim's named value, each failing the test when absent. Header-only, included after cmocka.h. */
#ifndef SS_TESTS_CLAIMS_FIND_H
#define SS_TESTS_CLAIMS_FIND_H

#include <string.h>

#include "run/claims.h"

/* claims_find is the claim of id among the n of c; fails the test (returning a blank claim) when absent. */
static inline const struct ss_claim *claims_find(const struct ss_claim *c, int n, const char *id)
{
	static const struct ss_claim none = {.id = "", .document = "", .text = ""};

	for (int i = 0; i < n; i++)
		if (strcmp(c[i].id, id) == 0)
			return &c[i];
	fail_msg("no claim %s among %d", id, n);
	return &none;
}

/* claims_value is the named value of claim c, which must be known; fails the test when it is not. */
static inline double claims_value(const struct ss_claim *c, const char *name)
{
	for (int i = 0; i < c->nvalues; i++)
		if (strcmp(c->value[i].name, name) == 0) {
			assert_true(c->value[i].have);
			return c->value[i].v;
		}
	fail_msg("claim %s has no value %s", c->id, name);
	return 0;
}

#endif
