# SPDX-License-Identifier: GPL-2.0-only
# fiotab's libFuzzer target, built with clang (libclang-rt-14-dev) in the
# default build only (it brings its own ASan/UBSan), run by fuzz.sh.
FUZZ_CC ?= clang
ifeq ($(SANITIZE),)
ifneq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
FIOTAB_FUZZ := $(B)/tests/fuzz/fiotab-fuzz
all: $(FIOTAB_FUZZ)
$(FIOTAB_FUZZ): tests/fuzz/fiotab-fuzz.c $(FIOTAB_CORE) $(wildcard analysis/*.h) config.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-std=gnu11 -D_GNU_SOURCE -I. $(CJSON_CFLAGS) -o $@ \
		tests/fuzz/fiotab-fuzz.c $(FIOTAB_CORE) $(CJSON_LIBS) -lm
endif
endif
TESTS += tests/fuzz/fuzz.sh

.PHONY: fiotab-fuzz-clean
clean: fiotab-fuzz-clean
fiotab-fuzz-clean:
	rm -f tests/fuzz/fiotab-fuzz
