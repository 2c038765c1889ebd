// SPDX-License-Identifier: GPL-2.0-only
/*
 * A bump allocator for cJSON's parse trees.
 *
 * A fio json+ document is tens of thousands of small nodes; allocating and
 * freeing them one by one through malloc was a third of fiotab's time and
 * fragmented the heap between documents (the per-file cost grew with the
 * number of files).  Here a document's nodes come from one chunk that is
 * reset, not freed, after the document; when a document needed more than the
 * chunk, the next chunk is sized to that document, so the arena ends up as
 * big as the largest document and no bigger.
 *
 * jsonread.c and sjread.cpp build their trees here with arena_alloc(), and
 * input.c resets the arena after each document; the chunk is kept from file
 * to file.  cJSON's own allocations come here only between arena_begin()
 * and arena_end() (which also releases the arena); fiotab does not call
 * them, so json.c's output allocates from malloc as usual.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "arena.h"
#include "fiotab.h"

struct chunk {
	struct chunk *next;
	size_t cap, used;
	max_align_t data[];
};

static struct chunk *head;	/* current chunk, older ones behind it */
static size_t total;		/* bytes handed out since the last reset */

static struct chunk *chunk_new(size_t cap, struct chunk *next)
{
	struct chunk *c = xmalloc(sizeof(*c) + cap);

	c->next = next;
	c->cap = cap;
	c->used = 0;
	return c;
}

void *arena_alloc(size_t n)
{
	const size_t align = sizeof(max_align_t);
	void *p;

	n = (n + align - 1) / align * align;
	if (!head || head->cap - head->used < n)
		head = chunk_new(n > (1u << 20) ? n : (1u << 20), head);
	p = (char *)head->data + head->used;
	head->used += n;
	total += n;
	return p;
}

static void arena_free(void *p)
{
	(void)p;	/* everything goes at the next reset */
}

static void release(void)
{
	while (head) {
		struct chunk *next = head->next;

		free(head);
		head = next;
	}
}

void arena_reset(void)
{
	if (head && head->next) {
		/* the document did not fit: one chunk as big as it for the next */
		size_t need = total;

		release();
		head = chunk_new(need, NULL);
	}
	if (head)
		head->used = 0;
	total = 0;
}

void arena_begin(void)
{
	cJSON_Hooks hooks = { .malloc_fn = arena_alloc, .free_fn = arena_free };

	cJSON_InitHooks(&hooks);
}

void arena_end(void)
{
	cJSON_InitHooks(NULL);
	release();
	total = 0;
}
