# SPDX-License-Identifier: GPL-2.0-only
# blkfile: a file's bytes through the file or through the block device under it.
ENGINES += blkfile
blkfile_SRCS := engines/blkfile/blkfile.c engines/blkfile/fiemap.c \
	engines/blkfile/bdev.c engines/blkfile/submit_sync.c \
	engines/blkfile/submit_uring.c engines/blkfile/btrfs.c \
	engines/blkfile/authority.c engines/blkfile/lease.c \
	engines/common/uring.c
blkfile_LIBS := -luring

TESTS += tests/engines/blkfile-verify.sh tests/engines/blkfile-bdev-write.sh \
	tests/engines/blkfile-refuse.sh tests/engines/blkfile-devices.sh \
	tests/engines/blkfile-partition.sh tests/engines/blkfile-dm.sh \
	tests/engines/blkfile-btrfs.sh

PROGS += tests/unit/blkfile-map-test
tests/unit/blkfile-map-test_SRCS := tests/unit/blkfile-map.c tests/unit/check.c engines/blkfile/fiemap.c \
	engines/blkfile/bdev.c engines/blkfile/btrfs.c engines/common/blkdev.c \
	engines/blkfile/authority.c
TESTS += tests/unit/blkfile-map.sh
SAN_TESTS += tests/unit/blkfile-map.sh tests/engines/blkfile-verify.sh \
	tests/engines/blkfile-bdev-write.sh tests/engines/blkfile-btrfs.sh
BENCHES += tests/bench/blkfile-parity.sh tests/bench/blkfile-sweep.sh
TESTS += tests/engines/blkfile-overrun.sh
TESTS += tests/engines/blkfile-dev-proof.sh
TESTS += tests/engines/blkfile-readonly.sh
TESTS += tests/engines/blkfile-stale-map.sh
SAN_TESTS += tests/engines/blkfile-overrun.sh
SAN_TESTS += tests/engines/blkfile-stale-map.sh
TESTS += tests/engines/blkfile-flags.sh
