# SPDX-License-Identifier: GPL-2.0-only
# blkfile: a file's bytes through the file or through the block device under it.
ENGINES += blkfile
blkfile_SRCS := engines/blkfile/blkfile.c engines/blkfile/fiemap.c \
	engines/blkfile/bdev.c engines/blkfile/submit_sync.c \
	engines/blkfile/submit_uring.c engines/blkfile/btrfs.c \
	engines/blkfile/authority.c engines/blkfile/lease.c \
	engines/common/uring.c
blkfile_LIBS := -luring


PROGS += tests/unit/blkfile-map-test
tests/unit/blkfile-map-test_SRCS := tests/unit/blkfile-map.c tests/unit/check.c engines/blkfile/fiemap.c \
	engines/blkfile/bdev.c engines/blkfile/btrfs.c engines/common/blkdev.c \
	engines/blkfile/authority.c
