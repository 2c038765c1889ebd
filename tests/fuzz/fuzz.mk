# SPDX-License-Identifier: GPL-2.0-only
# fiotab's libFuzzer target, built with clang (libclang-rt-14-dev) in the
# default build only (it brings its own ASan/UBSan), run by fuzz.sh.
FUZZ_CC ?= clang
ifeq ($(SANITIZE),)
ifneq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
FIOTAB_FUZZ := $(B)/tests/fuzz/fiotab-fuzz
all: $(FIOTAB_FUZZ)
FUZZ_CXX ?= clang++
# (vptr checks need the C++ runtime of UBSan, which linking with clang leaves out)
FUZZ_SAN := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize=vptr -fno-sanitize-recover=all
# simdjson's shim (the fast path of input.c) is C++: built apart, linked in
$(B)/tests/fuzz/sjread.o: $(FIOTAB_CXX) analysis/sjread.h analysis/arena.h config.mk tests/fuzz/fuzz.mk
	@mkdir -p $(@D)
	$(FUZZ_CXX) -g -O1 $(FUZZ_SAN) -std=c++17 -I. $(CJSON_CFLAGS) $(SIMDJSON_CFLAGS) \
		-c -o $@ $(FIOTAB_CXX)
$(FIOTAB_FUZZ): tests/fuzz/fiotab-fuzz.c $(FIOTAB_CORE) $(B)/tests/fuzz/sjread.o \
		$(wildcard analysis/*.h) config.mk
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-std=gnu11 -D_GNU_SOURCE -I. $(CJSON_CFLAGS) -o $@ \
		tests/fuzz/fiotab-fuzz.c $(FIOTAB_CORE) $(B)/tests/fuzz/sjread.o \
		$(CJSON_LIBS) $(SIMDJSON_LIBS) -lstdc++ -lm
endif
endif

.PHONY: fiotab-fuzz-clean
clean: fiotab-fuzz-clean
fiotab-fuzz-clean:
	rm -f tests/fuzz/fiotab-fuzz tests/fuzz/sjread.o
