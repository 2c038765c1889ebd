# SPDX-License-Identifier: GPL-2.0-only
# profiles/: job files, the perfpack runner and their tests.
# the runner's refusals and error paths (fake fio: writes nothing)
