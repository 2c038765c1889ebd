# SPDX-License-Identifier: GPL-2.0-only
# fiotab tests (issue 3).
TESTS += tests/analysis/perftest-golden.sh
SAN_TESTS += tests/analysis/perftest-golden.sh
