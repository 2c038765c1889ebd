# SPDX-License-Identifier: GPL-2.0-only
# fiotab tests (issue 3).
PROGS += tests/analysis/stats-test
tests/analysis/stats-test_SRCS := tests/analysis/stats-test.c analysis/stats.c \
	analysis/fiosize.c analysis/util.c
PROGS += tests/analysis/hist-test
tests/analysis/hist-test_SRCS := tests/analysis/hist-test.c analysis/histbucket.c
# The two JSON readers on the grammar's edges (readers-agree.sh).
PROGS += tests/analysis/readers-agree
tests/analysis/readers-agree_SRCS := tests/analysis/readers-agree.c analysis/jsonread.c \
	analysis/arena.c analysis/util.c
tests/analysis/readers-agree_LIBS := $(CJSON_LIBS) $(SIMDJSON_LIBS) -lstdc++
$(B)/tests/analysis/readers-agree: $(FIOTAB_CXX_OBJS)
