# SPDX-License-Identifier: GPL-2.0-only
# fiotab tests (issue 3).
TESTS += tests/analysis/perftest-golden.sh tests/analysis/layouts-golden.sh
SAN_TESTS += tests/analysis/perftest-golden.sh tests/analysis/layouts-golden.sh
PROGS += tests/analysis/stats-test
tests/analysis/stats-test_SRCS := tests/analysis/stats-test.c analysis/stats.c \
	analysis/fiosize.c analysis/util.c
TESTS += tests/analysis/stats.sh tests/analysis/errors.sh tests/analysis/real-fio.sh \
	tests/analysis/dashboards.sh tests/analysis/limits.sh tests/analysis/outfile.sh
SAN_TESTS += tests/analysis/stats.sh tests/analysis/errors.sh tests/analysis/real-fio.sh \
	tests/analysis/limits.sh tests/analysis/outfile.sh
BENCHES += tests/bench/fiotab-vs-jq.sh
PROGS += tests/analysis/hist-test
tests/analysis/hist-test_SRCS := tests/analysis/hist-test.c analysis/histbucket.c
TESTS += tests/analysis/hist.sh
SAN_TESTS += tests/analysis/hist.sh
TESTS += tests/analysis/series.sh
SAN_TESTS += tests/analysis/series.sh
TESTS += tests/analysis/plots.sh
TESTS += tests/analysis/scrape.sh
TESTS += tests/analysis/sweep.sh
SAN_TESTS += tests/analysis/sweep.sh
TESTS += tests/analysis/client-server.sh
TESTS += tests/analysis/mixed.sh
SAN_TESTS += tests/analysis/mixed.sh
TESTS += tests/analysis/ratio-repeat.sh
TESTS += tests/analysis/input.sh
SAN_TESTS += tests/analysis/input.sh
