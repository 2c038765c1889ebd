# SPDX-License-Identifier: GPL-2.0-only
# Linked into every engine.
COMMON_SRCS += engines/common/abi.c engines/common/blkdev.c engines/common/opt.c
