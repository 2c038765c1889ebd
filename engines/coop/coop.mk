# SPDX-License-Identifier: GPL-2.0-only
# The coop engine: a pool of cooperating I/O threads serving one stream.
# The model's sources (engines/sim/*.c) build into the same .so.
ENGINES += coop
coop_SRCS := $(filter-out engines/coop/backend_sim.c,$(wildcard engines/coop/*.c)) \
	engines/coop/backend_sim.c $(wildcard engines/sim/*.c)
coop_LIBS := -luring -lpthread
