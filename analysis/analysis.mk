# SPDX-License-Identifier: GPL-2.0-only
# fiotab: fio JSON -> tables (issue 3).
FIOTAB_CORE := analysis/util.c analysis/fiosize.c analysis/jobs.c analysis/input.c analysis/arena.c \
	analysis/strmap.c analysis/samerun.c analysis/identity.c analysis/group.c analysis/partition.c analysis/stats.c analysis/table.c \
	analysis/metrics.c analysis/phase.c analysis/perftest.c analysis/ratio.c analysis/iozone.c \
	analysis/bonnie.c analysis/dd.c analysis/summary.c analysis/text.c \
	analysis/csv.c analysis/json.c analysis/markdown.c analysis/influx.c \
	analysis/prom.c analysis/svg.c
FIOTAB_CORE += analysis/svgutil.c analysis/hist.c analysis/histbucket.c analysis/series.c
PROGS += analysis/fiotab
analysis/fiotab_SRCS := analysis/fiotab.c analysis/outfile.c $(FIOTAB_CORE)
analysis/fiotab_LIBS := $(CJSON_LIBS)
MAN1 += analysis/fiotab.1
# No arrays sized at run time on the stack: here their sizes come from the
# input (jobs per series), and a big enough input overflows any stack.
$(OBJ)/host/analysis/%.o: HOST_CFLAGS += -Wvla
# The README's example pictures (needs fio and rsvg-convert; writes to /dev/shm only).
.PHONY: fiotab-examples
fiotab-examples: all
	FIO=$(FIO) FIOTAB=$(abspath $(B))/analysis/fiotab analysis/examples/make-examples.sh analysis/examples
# fiotab's JSON readers (input.c): jsonread.c, and simdjson's DOM parser
# behind a C++ shim for the fast path (libsimdjson-dev, configure).
FIOTAB_CORE += analysis/jsonread.c
analysis/fiotab_SRCS += analysis/jsonread.c
FIOTAB_CXX := analysis/sjread.cpp
SIMDJSON_CFLAGS ?=
SIMDJSON_LIBS ?= -lsimdjson
CXX ?= g++
FIOTAB_CXX_OBJS := $(patsubst %.cpp,$(OBJ)/host/%.o,$(FIOTAB_CXX))
$(B)/analysis/fiotab: $(FIOTAB_CXX_OBJS)
analysis/fiotab_LIBS += $(SIMDJSON_LIBS) -lstdc++
$(OBJ)/host/analysis/%.o: analysis/%.cpp config.mk
	@mkdir -p $(@D)
	$(CXX) $(CFLAGS) -Wall -Wextra -Werror -std=c++17 $(SANFLAGS) -I. $(CJSON_CFLAGS) \
		$(SIMDJSON_CFLAGS) -MMD -MP -c -o $@ $<
