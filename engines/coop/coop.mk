# SPDX-License-Identifier: GPL-2.0-only
# The coop engine: a pool of cooperating I/O threads serving one stream.
# The model's sources (engines/sim/*.c) build into the same .so.
ENGINES += coop
# Recursive (=): SIM_SRCS is set by engines/sim/sim.mk, included after this.
coop_SRCS = engines/coop/coop.c engines/coop/pool_fio.c engines/coop/backend_sim.c \
	engines/coop/pool.c engines/coop/worker.c engines/coop/thread.c \
	engines/coop/stats.c engines/coop/dispatch.c engines/coop/split.c \
	engines/coop/ctxra.c engines/coop/sync.c engines/common/uring.c \
	engines/coop/dioalign.c engines/coop/cgroup.c $(SIM_SRCS)
coop_LIBS := -luring -lpthread
coop_SRCS += engines/coop/order.c


PROGS += tests/unit/coop-probe
tests/unit/coop-probe_SRCS := tests/unit/coop-probe.c

# The pool without fio, for TSan/ASan and the soak.
PROGS += tests/unit/coop-pool-test
tests/unit/coop-pool-test_SRCS := tests/unit/coop-pool-test.c tests/unit/check.c engines/coop/pool.c \
	engines/coop/worker.c engines/coop/thread.c engines/coop/dispatch.c \
	engines/coop/split.c engines/coop/ctxra.c engines/coop/sync.c \
	engines/common/uring.c
tests/unit/coop-pool-test_LIBS := -luring -lpthread
tests/unit/coop-pool-test_SRCS += engines/coop/order.c


