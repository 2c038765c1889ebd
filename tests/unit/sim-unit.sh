#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The model's mechanisms in isolation (tests/unit/sim-test.c).
source "$TOP/tests/lib.sh"
[ -x "$B/tests/unit/sim-test" ] || fail "$B/tests/unit/sim-test not built"
"$B/tests/unit/sim-test" || fail "sim unit tests"
