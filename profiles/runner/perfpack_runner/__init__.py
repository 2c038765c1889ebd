# SPDX-License-Identifier: GPL-2.0-only
"""perfpack runner: `perfpack run|tables|list` (entry: profiles/perfpack)."""
