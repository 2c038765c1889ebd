/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The arena each parsed document is allocated from (arena.c): freeing a
 * document is one reset, and memory stays bounded by the largest document.
 */
#ifndef FIOTAB_ARENA_H
#define FIOTAB_ARENA_H

#include <stddef.h>

/* Route cJSON's allocations to the arena (until arena_end()). */
void arena_begin(void);
/* @n bytes (aligned for any type) until the next reset; never NULL. */
void *arena_alloc(size_t n);
/* Forget every allocation since arena_begin()/the last reset. */
void arena_reset(void);
/* Back to malloc/free for cJSON; releases the arena. */
void arena_end(void);

#endif
