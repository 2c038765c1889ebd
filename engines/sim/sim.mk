# SPDX-License-Identifier: GPL-2.0-only
# The 2009 SCST testbed model: fio-independent library (SIM_SRCS, linked into
# the coop engine by engines/coop/coop.mk) + host tools/tests.
SIM_SRCS := engines/sim/clock.c engines/sim/params.c engines/sim/pagecache.c \
	engines/sim/rqlist.c engines/sim/elevator.c \
	engines/sim/readahead.c engines/sim/blkq.c engines/sim/sched_noop.c \
	engines/sim/sched_deadline.c engines/sim/sched_cfq.c engines/sim/disk.c \
	engines/sim/link.c engines/sim/target.c engines/sim/client.c engines/sim/sim.c

# The model without fio, for calibration from a checkout (tools/README.md).
PROGS += tools/simrun
tools/simrun_SRCS := tools/simrun.c $(SIM_SRCS)

# One program, one file per mechanism group (tests/unit/sim-test.h).
PROGS += tests/unit/sim-test
tests/unit/sim-test_SRCS := $(sort $(wildcard tests/unit/sim-test*.c)) tests/unit/check.c $(SIM_SRCS)

