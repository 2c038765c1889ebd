#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# fiotab's fast JSON reader accepts nothing the full one refuses, and reads
# what it accepts the same way (tests/analysis/readers-agree.c).
source "$TOP/tests/lib.sh"
"$B/tests/analysis/readers-agree" || fail "the JSON readers differ"
