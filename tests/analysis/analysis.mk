# SPDX-License-Identifier: GPL-2.0-only
# fiotab tests (issue 3).
PROGS += tests/analysis/stats-test
tests/analysis/stats-test_SRCS := tests/analysis/stats-test.c analysis/stats.c \
	analysis/fiosize.c analysis/util.c
PROGS += tests/analysis/hist-test
tests/analysis/hist-test_SRCS := tests/analysis/hist-test.c analysis/histbucket.c
