# SPDX-License-Identifier: GPL-2.0-only
# Linked into every engine.
COMMON_SRCS += engines/common/abi.c engines/common/blkdev.c engines/common/opt.c

# io_uring setup with fio's flags (engines/common/uring.c): linked by the
# engines that use io_uring (coop, blkfile), not by every engine.
PROGS += tests/unit/uring-setup-test
tests/unit/uring-setup-test_SRCS := tests/unit/uring-setup.c tests/unit/check.c engines/common/uring.c
tests/unit/uring-setup-test_LIBS := -luring -lpthread
