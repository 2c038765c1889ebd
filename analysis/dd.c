// SPDX-License-Identifier: GPL-2.0-only
#include "tables.h"
int dd_tables(const struct jobset *js, struct tablist *out) { (void)js; (void)out; return -1; }
