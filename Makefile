# SPDX-License-Identifier: GPL-2.0-only
#
# perfpack: fio engines, job profiles and the fiotab post-processor.
#
# Each part brings its own fragment (engines/*/*.mk, analysis/*.mk,
# tests/*/*.mk) that only appends to the lists below; the rules that turn
# those lists into files live here, once.
#
#   ENGINES      engine names; NAME_SRCS, NAME_LIBS -> engines/fio-NAME.so
#   PROGS        host programs; PROG_SRCS, PROG_LIBS -> PROG (path relative to top)
#   TESTS        test scripts/programs run by 'make check', in order   } read from
#   SAN_TESTS    the subset run again under ASan/UBSan (and TSan)      } tests/*/tests.list
#   BENCHES      benchmark scripts run by 'make bench'                 } (see below)
#   CHECK_DEPS   extra files the tests need built first
#
# SANITIZE=address,undefined (or thread) builds everything under
# build/san-*/ so a sanitizer build never overwrites the real one.

-include config.mk

ifeq ($(FIO_SRC),)
ifeq ($(filter clean distclean help,$(MAKECMDGOALS)),)
# config.mk is missing: run configure, installing what it needs when root.
config.mk: configure
	@if [ "$$(id -u)" = 0 ]; then ./configure --install-deps; else ./configure; fi
endif
endif

comma := ,
SANITIZE ?=
ifeq ($(SANITIZE),)
B := .
SANFLAGS :=
else
B := build/san-$(subst $(comma),-,$(SANITIZE))
SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
# GCC's "undefined" leaves out float-cast-overflow (a double converted to an
# integer type it does not fit), and fiotab and the model convert doubles.
ifneq ($(filter undefined,$(subst $(comma), ,$(SANITIZE))),)
SANFLAGS += -fsanitize=float-cast-overflow
endif
endif
OBJ := $(B)/obj

PREFIX ?= /usr/local
DESTDIR ?=
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
BASE_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	$(SANFLAGS) -I. $(URING_CFLAGS) $(CJSON_CFLAGS)

# Engines see fio's headers as system headers (their warnings are not ours)
# and config-host.h of the same configured tree that built the binary.
ENGINE_CFLAGS := $(BASE_CFLAGS) -fPIC -fvisibility=hidden -isystem $(FIO_SRC) \
	-include $(FIO_SRC)/config-host.h -DPERFPACK_FIO_VERSION='"$(FIO_VERSION)"'
ENGINE_LDFLAGS := -shared $(SANFLAGS)
# Host objects: the same sources without fio, for fiotab and unit tests.
HOST_CFLAGS := $(BASE_CFLAGS)

ENGINES :=
PROGS :=
TESTS :=
SAN_TESTS :=
BENCHES :=
CHECK_DEPS :=
COMMON_SRCS :=
MAN1 :=

include $(sort $(wildcard engines/*/*.mk)) $(sort $(wildcard analysis/*.mk))
include $(sort $(wildcard tests/*.mk tests/*/*.mk))

# The test registry: tests/DIR/tests.list names each test once, a line each,
# "NAME", "NAME san" (also run under ASan/UBSan and TSan) or "NAME asan"
# (also under ASan/UBSan only: the code it runs starts no threads of its own,
# so TSan has nothing to find there); '#' comments.
# Folders run in this order; TESTS=... on the command line runs just those.
TEST_DIRS := unit engines analysis build fuzz profiles
read_tests = $(shell awk -v d=tests/$(1) -v want='$(2)' '{ sub(/\#.*/, "") } \
	NF > 2 || (NF == 2 && $$2 != "san" && $$2 != "asan") { print "BAD:" FILENAME ":" FNR; next } \
	NF && (want == "" || (NF == 2 && index(" " want " ", " " $$2 " "))) { print d "/" $$1 }' tests/$(1)/tests.list)
TESTS := $(foreach d,$(TEST_DIRS),$(call read_tests,$(d),))
ifneq ($(filter thread,$(subst $(comma), ,$(SANITIZE))),)
SAN_TESTS := $(foreach d,$(TEST_DIRS),$(call read_tests,$(d),san))
else
SAN_TESTS := $(foreach d,$(TEST_DIRS),$(call read_tests,$(d),san asan))
endif
BENCHES := $(call read_tests,bench,)
ifneq ($(filter BAD:%,$(TESTS) $(BENCHES)),)
$(error test registry: a line is neither "NAME", "NAME san" nor "NAME asan": $(patsubst BAD:%,%,$(filter BAD:%,$(TESTS) $(BENCHES))))
endif

ENGINE_SOS := $(foreach e,$(ENGINES),$(B)/engines/fio-$(e).so)
PROG_BINS := $(foreach p,$(PROGS),$(B)/$(p))
# What users run: not the test programs (tests/) nor the developer tools
# (tools/: they read the source tree, see tools/README.md).
INSTALL_BINS := $(foreach p,$(filter-out tests/% tools/%,$(PROGS)),$(B)/$(p))

.PHONY: all check check-default check-san bench demo install uninstall clean distclean help
.DEFAULT_GOAL := all

all: $(ENGINE_SOS) $(PROG_BINS)

$(OBJ)/engines/%.o: engines/%.c config.mk
	@mkdir -p $(@D)
	$(CC) $(ENGINE_CFLAGS) -MMD -MP -c -o $@ $<

$(OBJ)/host/%.o: %.c config.mk
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -MMD -MP -c -o $@ $<

define engine_rule
$(B)/engines/fio-$(1).so: $$(patsubst %.c,$(OBJ)/%.o,$$($(1)_SRCS) $$(COMMON_SRCS))
	@mkdir -p $$(@D)
	$$(CC) $$(ENGINE_LDFLAGS) -o $$@ $$^ $$($(1)_LIBS)
endef
$(foreach e,$(ENGINES),$(eval $(call engine_rule,$(e))))

define prog_rule
$(B)/$(1): $$(patsubst %.c,$(OBJ)/host/%.o,$$($(1)_SRCS))
	@mkdir -p $$(@D)
	$$(CC) $$(SANFLAGS) -o $$@ $$^ $$($(1)_LIBS) -lm
endef
$(foreach p,$(PROGS),$(eval $(call prog_rule,$(p))))

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

# --- tests ------------------------------------------------------------------
# The harness prints one line per test and closes with
# "N passed, N failed, N skipped"; any failure fails make.
TEST_ENV = TOP=$(CURDIR) B=$(abspath $(B)) SANITIZE=$(SANITIZE) \
	FIO=$(FIO) FIO_VERSION=$(FIO_VERSION) JQ=$(JQ) \
	FIOTAB=$(abspath $(B))/analysis/fiotab ENGDIR=$(abspath $(B))/engines \
	CC=$(CC) MISMATCH_VERSION=$(MISMATCH_VERSION) ENGINES="$(ENGINES)"

# The sanitizer builds are made while the default tests run, then the two
# sanitizer passes run side by side (their tests mostly wait for fio and the
# devices; each has its own build and scratch space), each into its own file,
# printed whole when both are done.  A sanitizer build that fails is made
# again, and reported, by its pass.
SAN_PASSES := address,undefined thread
check: all $(CHECK_DEPS)
	@mkdir -p build; rc=0; \
	for s in $(SAN_PASSES); do $(MAKE) --no-print-directory SANITIZE=$$s all; done \
		>build/check-san-build.out 2>&1 & b=$$!; \
	$(MAKE) --no-print-directory check-default || rc=1; \
	wait $$b; \
	pids=; for s in $(SAN_PASSES); do \
		$(MAKE) --no-print-directory SANITIZE=$$s check-san >build/check-$$s.out 2>&1 & \
		pids="$$pids $$!"; \
	done; \
	for p in $$pids; do wait $$p || rc=1; done; \
	for s in $(SAN_PASSES); do cat build/check-$$s.out; done; exit $$rc

check-default: all $(CHECK_DEPS)
	@$(TEST_ENV) tests/harness.sh $(TESTS)

check-san: all $(CHECK_DEPS)
	@$(TEST_ENV) tests/harness.sh $(SAN_TESTS)

bench: all
	@$(TEST_ENV) tests/harness.sh --bench $(BENCHES)

# One command from a fresh clone to a table: the blockdev-perftest profile at
# small scale on a scratch target the runner creates and tears down.
demo: all
	profiles/perfpack run blockdev-perftest --scratch --quick -o demo-out --overwrite

# --- install ----------------------------------------------------------------
LIBDIR := $(DESTDIR)$(PREFIX)/lib/fio
BINDIR := $(DESTDIR)$(PREFIX)/bin
SHAREDIR := $(DESTDIR)$(PREFIX)/share/perfpack
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1

RUNNER_PY := $(wildcard profiles/runner/perfpack_runner/*.py)

install: all
	install -d $(LIBDIR) $(BINDIR) $(SHAREDIR)/profiles $(SHAREDIR)/runner/perfpack_runner $(MANDIR)
	install -m 0755 $(ENGINE_SOS) $(LIBDIR)/
	install -m 0755 $(INSTALL_BINS) $(BINDIR)/
	install -m 0755 profiles/perfpack $(BINDIR)/perfpack
	install -m 0644 $(RUNNER_PY) $(SHAREDIR)/runner/perfpack_runner/
	cp -R profiles/. $(SHAREDIR)/profiles/
	rm -rf $(SHAREDIR)/profiles/perfpack $(SHAREDIR)/profiles/runner
	install -m 0644 profiles/perfpack.1 $(MANDIR)/
	$(if $(MAN1),install -m 0644 $(MAN1) $(MANDIR)/)

uninstall:
	rm -f $(foreach e,$(ENGINES),$(LIBDIR)/fio-$(e).so)
	rm -f $(foreach p,$(INSTALL_BINS),$(BINDIR)/$(notdir $(p))) $(BINDIR)/perfpack
	rm -f $(foreach m,$(MAN1),$(MANDIR)/$(notdir $(m))) $(MANDIR)/perfpack.1
	rm -rf $(SHAREDIR)

clean:
	rm -rf obj build $(foreach e,$(ENGINES),engines/fio-$(e).so) $(PROGS) demo-out

distclean: clean
	rm -rf config.mk .deps

help:
	@echo "targets: all check check-default check-san bench demo fiotab-examples install uninstall clean distclean"
	@echo "variables: SANITIZE=address,undefined|thread PREFIX=$(PREFIX) DESTDIR= TESTS=tests/DIR/NAME.sh... (check-default) SAN_TESTS=... (check-san) BENCHES=tests/bench/NAME.sh... (bench)"
