# SPDX-License-Identifier: GPL-2.0-only
# profiles/: job files, the perfpack runner and their tests.
# the runner's refusals and error paths (fake fio: writes nothing)
TESTS += tests/profiles/runner-errors.sh
TESTS += tests/profiles/parse-only.sh tests/profiles/job-counts.sh \
	tests/profiles/safety.sh tests/profiles/quick-blockdev-perftest.sh \
	tests/profiles/quick-bonnie.sh tests/profiles/quick-iozone.sh \
	tests/profiles/quick-buffered-vs-raw.sh tests/profiles/client-server.sh \
	tests/profiles/quick-same-sectors.sh tests/profiles/install-layout.sh \
	tests/profiles/model-matrix.sh
SAN_TESTS += tests/profiles/parse-only.sh
TESTS += tests/profiles/zero-check.sh
TESTS += tests/profiles/client-unreachable.sh
TESTS += tests/profiles/runner-kill.sh
TESTS += tests/profiles/runner-features.sh
BENCHES += tests/bench/runner-vs-dd.sh
