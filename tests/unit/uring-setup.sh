#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# io_uring setup flags (fio's) and their fallback, engines/common/uring.c:
# see tests/unit/uring-setup.c.
source "$TOP/tests/lib.sh"
bin=$B/tests/unit/uring-setup-test
[ -x "$bin" ] || fail "$bin not built"
"$bin"
rc=$?
[ $rc = 77 ] && exit 77
[ $rc = 0 ] || fail "uring-setup-test failed"
exit 0
