// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of the blkfile extent map (engines/blkfile/fiemap.c) and the
 * filesystem naming of engines/blkfile/bdev.c: resolving file offsets to
 * device offsets across extents and EOF, and every refusal of
 * bf_map_check(), including the FIEMAP flags ext4 and XFS never report
 * after a sync (delalloc, unknown, encoded, encrypted, tail, not aligned),
 * on synthetic maps.  Last, FIEMAP on a real file in $TMPDIR when its
 * filesystem supports it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sysmacros.h>
#include <linux/fiemap.h>
#include <linux/magic.h>

#include "engines/blkfile/authority.h"
#include "engines/blkfile/bdev.h"
#include "engines/blkfile/fiemap.h"
#include "tests/unit/check.h"


#define K 4096ULL

/* Three extents, 16000-byte file: the last extent runs past EOF. */
static void three(struct bf_map *m, uint32_t flags_mid)
{
	bf_map_init(m);
	bf_map_add(m, 0, 1000 * K, 2 * K, 0);
	bf_map_add(m, 2 * K, 50 * K, K, flags_mid);
	bf_map_add(m, 3 * K, 7 * K, K, FIEMAP_EXTENT_LAST);
	m->file_size = 16000;
}

static void test_resolve(void)
{
	struct bf_map m;
	uint64_t phys = 0, n;

	three(&m, 0);
	n = bf_map_resolve(&m, 0, 20000, &phys);
	CHECK(n == 2 * K && phys == 1000 * K, "n=%llu phys=%llu",
	      (unsigned long long)n, (unsigned long long)phys);
	n = bf_map_resolve(&m, 8000, 1000, &phys);
	CHECK(n == 192 && phys == 1000 * K + 8000, "n=%llu", (unsigned long long)n);
	n = bf_map_resolve(&m, 2 * K + 100, K, &phys);
	CHECK(n == K - 100 && phys == 50 * K + 100, "n=%llu", (unsigned long long)n);
	/* Capped at EOF: the tail of the last block is not the file's. */
	n = bf_map_resolve(&m, 3 * K, 8 * K, &phys);
	CHECK(n == 16000 - 3 * K && phys == 7 * K, "n=%llu", (unsigned long long)n);
	CHECK(bf_map_resolve(&m, 16000, 10, &phys) == 0, "past EOF resolved");
	CHECK(bf_map_bytes(&m) == 16000, "bytes=%llu", (unsigned long long)bf_map_bytes(&m));
	bf_map_free(&m);

	/* A hole between extents resolves to nothing. */
	bf_map_init(&m);
	bf_map_add(&m, 0, 10 * K, K, 0);
	bf_map_add(&m, 2 * K, 20 * K, K, FIEMAP_EXTENT_LAST);
	m.file_size = 3 * K;
	CHECK(bf_map_resolve(&m, K + 5, 10, &phys) == 0, "hole resolved");
	CHECK(bf_map_resolve(&m, 2 * K, K, &phys) == K && phys == 20 * K, "after hole");
	bf_map_free(&m);

	/* A FIEMAP batch restarting inside the last extent is trimmed. */
	bf_map_init(&m);
	bf_map_add(&m, 0, 100 * K, 2 * K, 0);
	CHECK(bf_map_add(&m, K, 101 * K, 2 * K, 0) == 0, "overlap add failed");
	CHECK(bf_map_add(&m, 0, 100 * K, K, 0) == 0, "repeat add failed");
	CHECK(m.n == 2 && m.ext[1].logical == 2 * K && m.ext[1].physical == 102 * K &&
	      m.ext[1].length == K, "n=%zu", m.n);
	bf_map_free(&m);

	/* A whole device: identity. */
	bf_map_init(&m);
	CHECK(bf_map_identity(&m, 1 << 20) == 0, "identity");
	CHECK(bf_map_resolve(&m, 12345, 1 << 20, &phys) == (1 << 20) - 12345 &&
	      phys == 12345, "identity resolve");
	bf_map_free(&m);

	/* Many extents: the binary search finds each. */
	bf_map_init(&m);
	for (n = 0; n < 1000; n++)
		bf_map_add(&m, n * K, (5000 - 3 * n) * K, K, 0);
	m.file_size = 1000 * K;
	for (n = 0; n < 1000; n += 37) {
		CHECK(bf_map_resolve(&m, n * K + 7, 3 * K, &phys) == K - 7 &&
		      phys == (5000 - 3 * n) * K + 7, "extent %llu", (unsigned long long)n);
	}
	bf_map_free(&m);
}

/* bf_map_check on the middle extent with @flags: expect @ret and @msg. */
static void expect(uint32_t flags, enum bf_use use, int ret, const char *msg)
{
	struct bf_map m;
	char why[512] = "";
	int r;

	three(&m, flags);
	r = bf_map_check(&m, 0, 16000, use, 512, 1ULL << 30, why, sizeof(why));
	CHECK(r == ret, "flags %#x use %d: ret %d, want %d (%s)", flags, use, r, ret, why);
	CHECK(!msg || strstr(why, msg), "flags %#x: '%s' not in '%s'", flags, msg, why);
	if (ret)
		CHECK(strstr(why, "file offset 8192"), "offender not named: %s", why);
	bf_map_free(&m);
}

static void test_check(void)
{
	struct bf_map m;
	char why[512];

	expect(0, BF_USE_READ, 0, NULL);
	expect(0, BF_USE_WRITE, 0, NULL);
	expect(FIEMAP_EXTENT_MERGED, BF_USE_READ, 0, NULL);
	expect(FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_UNKNOWN, BF_USE_READ, -EOPNOTSUPP, "delayed-allocated");
	expect(FIEMAP_EXTENT_UNKNOWN, BF_USE_READ, -EOPNOTSUPP, "unknown device location");
	expect(FIEMAP_EXTENT_ENCODED, BF_USE_READ, -EOPNOTSUPP, "compressed");
	expect(FIEMAP_EXTENT_DATA_ENCRYPTED, BF_USE_READ, -EOPNOTSUPP, "encrypted");
	expect(FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED, BF_USE_READ, -EOPNOTSUPP, "inline");
	expect(FIEMAP_EXTENT_DATA_TAIL | FIEMAP_EXTENT_NOT_ALIGNED, BF_USE_READ, -EOPNOTSUPP, "packed tail");
	expect(FIEMAP_EXTENT_NOT_ALIGNED, BF_USE_READ, -EOPNOTSUPP, "not block-aligned");
	expect(FIEMAP_EXTENT_UNWRITTEN, BF_USE_READ, -EOPNOTSUPP, "unwritten");
	expect(FIEMAP_EXTENT_UNWRITTEN, BF_USE_WRITE, -EOPNOTSUPP, "unwritten");
	/* Reading shared blocks is harmless; writing them changes another file. */
	expect(FIEMAP_EXTENT_SHARED, BF_USE_READ, 0, NULL);
	expect(FIEMAP_EXTENT_SHARED, BF_USE_WRITE, -EOPNOTSUPP, "shared with another file");

	/* Only the job's range counts: a bad extent outside it is fine. */
	three(&m, FIEMAP_EXTENT_UNWRITTEN);
	CHECK(bf_map_check(&m, 0, 2 * K, BF_USE_READ, 512, 0, why, sizeof(why)) == 0, "%s", why);
	CHECK(bf_map_check(&m, 3 * K, 16000 - 3 * K, BF_USE_READ, 512, 0, why, sizeof(why)) == 0,
	      "%s", why);
	/* Past EOF. */
	CHECK(bf_map_check(&m, 3 * K, 2 * K, BF_USE_READ, 512, 0, why, sizeof(why)) == -ERANGE &&
	      strstr(why, "past the end of the file"), "%s", why);
	/* Past the device's end (a wrong blkfile_dev). */
	CHECK(bf_map_check(&m, 0, 2 * K, BF_USE_READ, 512, 1000 * K, why, sizeof(why)) == -ERANGE &&
	      strstr(why, "past the device's end"), "%s", why);
	/* Device block alignment (O_DIRECT on a 4 KiB-sector device). */
	bf_map_free(&m);
	bf_map_init(&m);
	bf_map_add(&m, 0, 1000 * K + 512, K, FIEMAP_EXTENT_LAST);
	m.file_size = K;
	CHECK(bf_map_check(&m, 0, K, BF_USE_READ, 512, 0, why, sizeof(why)) == 0, "%s", why);
	CHECK(bf_map_check(&m, 0, K, BF_USE_READ, 4096, 0, why, sizeof(why)) == -EOPNOTSUPP &&
	      strstr(why, "4096-byte blocks"), "%s", why);
	bf_map_free(&m);

	/* Holes: leading, middle, trailing. */
	bf_map_init(&m);
	bf_map_add(&m, K, 10 * K, K, 0);
	bf_map_add(&m, 3 * K, 20 * K, K, FIEMAP_EXTENT_LAST);
	m.file_size = 5 * K;
	CHECK(bf_map_check(&m, 0, K, BF_USE_READ, 512, 0, why, sizeof(why)) == -EOPNOTSUPP &&
	      strstr(why, "file offsets 0..4096 are a hole"), "%s", why);
	CHECK(bf_map_check(&m, K, 2 * K, BF_USE_READ, 512, 0, why, sizeof(why)) == -EOPNOTSUPP &&
	      strstr(why, "file offsets 8192..12288 are a hole"), "%s", why);
	CHECK(bf_map_check(&m, 3 * K, 2 * K, BF_USE_READ, 512, 0, why, sizeof(why)) == -EOPNOTSUPP &&
	      strstr(why, "file offsets 16384..20480 are a hole"), "%s", why);
	CHECK(bf_map_check(&m, 3 * K, K, BF_USE_READ, 512, 0, why, sizeof(why)) == 0, "%s", why);
	bf_map_free(&m);

	/* An empty range of an empty file is fine; any byte of it is not. */
	bf_map_init(&m);
	CHECK(bf_map_check(&m, 0, 0, BF_USE_READ, 512, 0, why, sizeof(why)) == 0, "%s", why);
	CHECK(bf_map_check(&m, 0, 1, BF_USE_READ, 512, 0, why, sizeof(why)) == -ERANGE, "%s", why);
}

static void test_fs_names(void)
{
	CHECK(bf_fs_without_bdev(TMPFS_MAGIC) && strstr(bf_fs_without_bdev(TMPFS_MAGIC), "tmpfs"),
	      "tmpfs");
	CHECK(strstr(bf_fs_without_bdev(NFS_SUPER_MAGIC), "NFS"), "nfs");
	CHECK(strstr(bf_fs_without_bdev(0x65735546), "FUSE"), "fuse");
	CHECK(bf_fs_without_bdev(BTRFS_SUPER_MAGIC) == NULL, "btrfs is handled, not refused");
	CHECK(bf_fs_without_bdev(EXT4_SUPER_MAGIC) == NULL, "ext4 has a device");
	CHECK(bf_fs_without_bdev(XFS_SUPER_MAGIC) == NULL, "xfs has a device");
}

/* A block major no driver registered (/proc/devices), from the local/experimental range. */
static unsigned int unused_block_major(void)
{
	char line[128];
	int used[256] = { 0 }, block = 0;
	unsigned int m;
	FILE *pd = fopen("/proc/devices", "re");

	if (!pd)
		return 0;
	while (fgets(line, sizeof(line), pd)) {
		if (!strncmp(line, "Block devices", 13))
			block = 1;
		else if (block && sscanf(line, "%u", &m) == 1 && m < 256)
			used[m] = 1;
	}
	fclose(pd);
	for (m = 240; m <= 254; m++)
		if (!used[m])
			return m;
	return 0;
}

/*
 * A device with no node anywhere in /dev (as in a container without udev):
 * bf_dev_open falls back to a private mknod'ed node.  For a device number
 * no driver has (not loop's: opening a loop minor creates it) the open
 * fails, and the message says so.
 */
static void test_private_node(void)
{
	char path[256] = "", why[512] = "";
	unsigned int major_nr = unused_block_major();
	int fd;

	if (geteuid() || !major_nr) {
		printf("# not root or no free block major: private device node not tested\n");
		return;
	}
	fd = bf_dev_open(makedev(major_nr, 0), O_RDONLY, path, sizeof(path), why, sizeof(why));
	CHECK(fd < 0, "opened a device that does not exist");
	CHECK(strstr(why, "has no node in /dev and making one failed"), "%s", why);
	if (fd >= 0)
		close(fd);
}

/* FIEMAP of a real file: written half, sparse half. */
static void test_load(void)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[4096], why[512] = "", buf[8192];
	struct bf_map m;
	int fd, r;

	snprintf(path, sizeof(path), "%s/blkfile-map.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0) {
		printf("# no scratch file in %s: FIEMAP load not tested\n", dir);
		return;
	}
	unlink(path);
	memset(buf, 0xab, sizeof(buf));
	CHECK(pwrite(fd, buf, sizeof(buf), 0) == (ssize_t)sizeof(buf), "write");
	CHECK(ftruncate(fd, 4 * sizeof(buf)) == 0, "truncate");
	bf_map_init(&m);
	r = bf_map_load(&m, fd, why, sizeof(why));
	if (r == -EOPNOTSUPP || r == -ENOTTY) {
		CHECK(strstr(why, "FIEMAP"), "%s", why);
		printf("# %s has no FIEMAP: %s\n", dir, why);
	} else {
		CHECK(r == 0, "load: %d %s", r, why);
		CHECK(m.file_size == 4 * sizeof(buf), "size %llu", (unsigned long long)m.file_size);
		CHECK(m.n >= 1 && m.ext[0].logical == 0, "n=%zu", m.n);
		CHECK(bf_map_check(&m, 0, sizeof(buf), BF_USE_READ, 512, 0, why, sizeof(why)) == 0,
		      "written part: %s", why);
		CHECK(bf_map_check(&m, 0, 4 * sizeof(buf), BF_USE_READ, 512, 0, why, sizeof(why)) ==
		      -EOPNOTSUPP && strstr(why, "hole"), "sparse part: %s", why);
		printf("# FIEMAP in %s: %zu extent(s), first at device byte %llu\n", dir, m.n,
		       (unsigned long long)m.ext[0].physical);
	}
	bf_map_free(&m);
	close(fd);
}

/*
 * The write authority: the tail fio's last sequential I/O may reach is
 * permitted only when it passes the same checks as the job's range, and
 * no I/O may leave [lo, hi) or touch a refused extent.
 */
static void test_authority(void)
{
	struct bf_authority a;
	char why[512];
	int fd, ret;

	/* fio's reach: the last I/O may start one byte before the end. */
	CHECK(bf_auth_reach(0, 1052672, 65536, 2 << 20) == 1052672 + 65535, "reach %llu",
	      (unsigned long long)bf_auth_reach(0, 1052672, 65536, 2 << 20));
	CHECK(bf_auth_reach(0, 1052672, 65536, 1060000) == 1060000, "reach not capped at the file's size");
	CHECK(bf_auth_reach(4096, 8192, 4096, 1 << 20) == 4096 + 8192 + 4095, "reach with offset");
	CHECK(bf_auth_reach(0, 1 << 20, 4096, 1 << 20) == 1 << 20, "reach past EOF");

	fd = open("/proc/self/exe", O_RDONLY);
	CHECK(fd >= 0, "open /proc/self/exe");
	if (fd < 0)
		return;

	/* Own extent 0..64K, shared 64K..128K: a write job of 64K+4K... */
	memset(&a, 0, sizeof(a));
	a.use = BF_USE_WRITE;
	bf_map_add(&a.map, 0, 100 * K, 16 * K, 0);
	bf_map_add(&a.map, 16 * K, 200 * K, 16 * K, FIEMAP_EXTENT_SHARED | FIEMAP_EXTENT_LAST);
	a.map.file_size = 32 * K;
	ret = bf_auth_take(&a, fd, 0, 16 * K, bf_auth_reach(0, 16 * K, 16 * K, 32 * K),
			   512, 0, why, sizeof(why));
	CHECK(ret == 0, "take: %s", why);
	CHECK(a.lo == 0 && a.hi == 16 * K, "shared tail permitted: hi=%llu", (unsigned long long)a.hi);
	CHECK(strstr(a.tail_why, "shared"), "tail reason: %s", a.tail_why);
	CHECK(bf_auth_io(&a, 0, 16 * K, why, sizeof(why)) == 0, "in range refused: %s", why);
	ret = bf_auth_io(&a, 15 * K, 4 * K, why, sizeof(why));
	CHECK(ret == -EPERM && strstr(why, "outside the range checked at open") && strstr(why, "shared"),
	      "overrun: %d %s", ret, why);
	/* ...while a read job may go on into the shared tail. */
	a.use = BF_USE_READ;
	ret = bf_auth_take(&a, fd, 0, 16 * K, bf_auth_reach(0, 16 * K, 16 * K, 32 * K),
			   512, 0, why, sizeof(why));
	CHECK(ret == 0, "read take: %s", why);
	CHECK(a.hi == 32 * K - 1, "read tail: hi=%llu", (unsigned long long)a.hi);
	CHECK(bf_auth_io(&a, 15 * K, 4 * K, why, sizeof(why)) == 0, "read overrun refused: %s", why);
	CHECK(bf_auth_io(&a, 31 * K, 2 * K, why, sizeof(why)) == -EPERM, "past EOF permitted");
	/* The job's own range is strict: a shared extent in it refuses the write job. */
	a.use = BF_USE_WRITE;
	ret = bf_auth_take(&a, fd, 0, 20 * K, 20 * K, 512, 0, why, sizeof(why));
	CHECK(ret == -EOPNOTSUPP && strstr(why, "shared"), "shared in range: %d %s", ret, why);
	bf_auth_free(&a);
	close(fd);
}

/* Re-verification compares what each byte maps to, not how FIEMAP splits it. */
static void test_same(void)
{
	struct bf_map a, b;
	char why[256];

	bf_map_init(&a);
	bf_map_init(&b);
	bf_map_add(&a, 0, 100 * K, 8 * K, 0);
	bf_map_add(&a, 10 * K, 300 * K, 2 * K, FIEMAP_EXTENT_LAST);
	/* The same bytes, split differently, LAST/MERGED flags aside. */
	bf_map_add(&b, 0, 100 * K, 3 * K, FIEMAP_EXTENT_MERGED);
	bf_map_add(&b, 3 * K, 103 * K, 5 * K, 0);
	bf_map_add(&b, 10 * K, 300 * K, 2 * K, 0);
	CHECK(bf_map_same(&a, &b, 0, 12 * K, why, sizeof(why)) == 0, "same map differs: %s", why);
	bf_map_free(&b);
	/* Moved, flagged, filled hole, new hole: each is a change. */
	bf_map_add(&b, 0, 100 * K, 4 * K, 0);
	bf_map_add(&b, 4 * K, 500 * K, 4 * K, 0);
	bf_map_add(&b, 10 * K, 300 * K, 2 * K, 0);
	CHECK(bf_map_same(&a, &b, 0, 12 * K, why, sizeof(why)) == -ESTALE && strstr(why, "16384"),
	      "moved: %s", why);
	CHECK(bf_map_same(&a, &b, 0, 4 * K, why, sizeof(why)) == 0, "outside the range compared: %s", why);
	bf_map_free(&b);
	bf_map_add(&b, 0, 100 * K, 8 * K, FIEMAP_EXTENT_SHARED);
	bf_map_add(&b, 10 * K, 300 * K, 2 * K, 0);
	CHECK(bf_map_same(&a, &b, 0, 12 * K, why, sizeof(why)) == -ESTALE, "shared flag not seen");
	bf_map_free(&b);
	bf_map_add(&b, 0, 100 * K, 8 * K, 0);
	bf_map_add(&b, 8 * K, 700 * K, 4 * K, 0);
	CHECK(bf_map_same(&a, &b, 0, 12 * K, why, sizeof(why)) == -ESTALE && strstr(why, "was a hole"),
	      "filled hole: %s", why);
	bf_map_free(&b);
	bf_map_add(&b, 0, 100 * K, 8 * K, 0);
	CHECK(bf_map_same(&a, &b, 0, 12 * K, why, sizeof(why)) == -ESTALE && strstr(why, "is now a hole"),
	      "truncated: %s", why);
	bf_map_free(&a);
	bf_map_free(&b);
}

int main(void)
{
	test_resolve();
	test_check();
	test_fs_names();
	test_private_node();
	test_load();
	test_authority();
	test_same();
	if (check_exit("blkfile-map"))
		return 1;
	printf("blkfile-map: all checks passed\n");
	return 0;
}
