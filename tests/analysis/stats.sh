#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs the arithmetic unit tests of the current build (sanitizer builds too).
source "$TOP/tests/lib.sh"
"$B/tests/analysis/stats-test" || fail "stats-test failed"
