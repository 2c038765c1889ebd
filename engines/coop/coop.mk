# SPDX-License-Identifier: GPL-2.0-only
# The coop engine: a pool of cooperating I/O threads serving one stream.
# The model's sources (engines/sim/*.c) build into the same .so.
ENGINES += coop
# Recursive (=): SIM_SRCS is set by engines/sim/sim.mk, included after this.
coop_SRCS = engines/coop/coop.c engines/coop/pool_fio.c engines/coop/backend_sim.c \
	engines/coop/pool.c engines/coop/worker.c engines/coop/thread.c \
	engines/coop/stats.c engines/coop/dispatch.c engines/coop/split.c \
	engines/coop/ctxra.c engines/coop/sync.c engines/common/uring.c \
	$(SIM_SRCS)
coop_LIBS := -luring -lpthread
coop_SRCS += engines/coop/order.c

TESTS += tests/unit/coop-pool.sh tests/engines/coop-verify.sh \
	tests/engines/coop-workers.sh tests/engines/coop-readahead.sh \
	tests/engines/coop-rw.sh tests/engines/coop-errors.sh tests/engines/coop-profile.sh \
	tests/engines/coop-soak.sh
SAN_TESTS += tests/unit/coop-pool.sh tests/engines/coop-verify.sh \
	tests/engines/coop-rw.sh tests/engines/coop-errors.sh tests/engines/coop-profile.sh \
	tests/engines/coop-soak.sh

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

TESTS += tests/engines/coop-cpu.sh

BENCHES += tests/bench/coop-vs-psync.sh
TESTS += tests/engines/coop-sync-errors.sh
SAN_TESTS += tests/engines/coop-sync-errors.sh
TESTS += tests/engines/coop-order.sh
SAN_TESTS += tests/engines/coop-order.sh
