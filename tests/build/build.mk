# SPDX-License-Identifier: GPL-2.0-only
#
# Tests of the build itself: every engine loads, lists its options and runs;
# a build for another fio version is refused cleanly; configure refuses a
# source tree of the wrong version; install/uninstall lay out what they say.

# For each engine, the same objects linked with an ABI guard that claims
# another fio version: what a user gets after upgrading fio without
# rebuilding.
MISMATCH_VERSION := fio-0.0-perfpack-mismatch
$(OBJ)/tests/build/abi-mismatch.o: engines/common/abi.c config.mk
	@mkdir -p $(@D)
	$(CC) $(ENGINE_CFLAGS) -UPERFPACK_FIO_VERSION \
		-DPERFPACK_FIO_VERSION='"$(MISMATCH_VERSION)"' -c -o $@ $<

define mismatch_rule
$(OBJ)/mismatch/fio-$(1)-mismatch.so: $$(patsubst %.c,$(OBJ)/%.o,$$($(1)_SRCS) $$(filter-out engines/common/abi.c,$$(COMMON_SRCS))) $(OBJ)/tests/build/abi-mismatch.o
	@mkdir -p $$(@D)
	$$(CC) $$(ENGINE_LDFLAGS) -o $$@ $$^ $$($(1)_LIBS)
endef
$(foreach e,$(ENGINES),$(eval $(call mismatch_rule,$(e))))

CHECK_DEPS += $(foreach e,$(ENGINES),$(OBJ)/mismatch/fio-$(e)-mismatch.so)
