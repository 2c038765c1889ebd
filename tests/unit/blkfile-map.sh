#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Unit test of the blkfile extent map and its refusals (tests/unit/blkfile-map.c).
: "${B:?run tests through make check}"
exec "$B/tests/unit/blkfile-map-test"
