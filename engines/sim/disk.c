// SPDX-License-Identifier: GPL-2.0-only
/*
 * Disk service time (see disk.h).  The platter is laid out so that byte
 * @off sits at angle frac(off / track_bytes): continuous reading advances
 * track_bytes per revolution, i.e. at the media rate, and a request that
 * continues where the head stopped reading must wait for its sector to
 * come round unless the drive kept reading into its cache.
 *
 * The spindle is a clock of its own: with disk_rot_random, a request after
 * a seek, or after the drive stood still for a turn or more, finds the
 * platter at an angle drawn from the drive's stream (its phase against the
 * host's time is not known), instead of one fixed by model time.
 */
#include <math.h>

#include "engines/sim/disk.h"

void disk_init(struct disk *d, const struct sim_params *p)
{
	*d = (struct disk){ 0 };
	d->rot_ns = (sim_ns)(60.0 * SIM_S / p->disk_rpm);
	d->media_bps = p->disk_media_mbps * 1e6;
	d->iface_bps = p->disk_iface_mbps * 1e6;
	d->track_bytes = (uint64_t)(d->media_bps * d->rot_ns / SIM_S);
	d->capacity = (uint64_t)p->disk_capacity_gb * 1000000000ULL;
	d->seek_min = (sim_ns)p->disk_seek_min_us * SIM_US;
	d->seek_max = (sim_ns)p->disk_seek_max_us * SIM_US;
	d->cmd_ns = (sim_ns)p->disk_cmd_us * SIM_US;
	d->prefetch = (uint64_t)p->disk_prefetch_kb * 1024;
	d->cache = (uint64_t)p->disk_cache_kb * 1024;
	d->readthrough = p->disk_readthrough;
	d->rot_random = p->disk_rot_random;
	sim_rng_init(&d->rng, p->seed, SIM_RNG_DISK);
	d->t_end = -1;
}

sim_ns disk_seek_time(const struct disk *d, uint64_t dist)
{
	if (dist < d->track_bytes)
		return 0;
	/* classic square-root seek curve between track-to-track and full stroke */
	return d->seek_min + (sim_ns)((d->seek_max - d->seek_min) *
				      sqrt((double)dist / (double)d->capacity));
}

sim_ns disk_rot_wait(const struct disk *d, sim_ns t, uint64_t off)
{
	sim_ns want = (sim_ns)((double)(off % d->track_bytes) / d->track_bytes * d->rot_ns);
	sim_ns at = t % d->rot_ns;

	return (want - at + d->rot_ns) % d->rot_ns;
}

/*
 * The wait at @t for @off: from the current phase, or (@draw) a new phase
 * such that the wait is uniform in [0, one turn).
 */
static sim_ns rot_wait(struct disk *d, sim_ns t, uint64_t off, bool draw)
{
	sim_ns w;

	if (draw && d->rot_random) {
		sim_ns want = disk_rot_wait(d, 0, off);	/* angle of @off */

		w = sim_rng_below(&d->rng, d->rot_ns);
		d->phase = ((want - (t + w) % d->rot_ns) % d->rot_ns + d->rot_ns) % d->rot_ns;
		d->st.rot_drawn++;
	} else {
		w = disk_rot_wait(d, t + d->phase, off);
	}
	d->st.rot_waits++;
	d->st.rot_ns += w;
	return w;
}

static sim_ns xfer(double bps, uint64_t len)
{
	return (sim_ns)((double)len * SIM_S / bps);
}

sim_ns disk_service(struct disk *d, sim_ns now, uint64_t off, uint64_t len)
{
	sim_ns t = now + d->cmd_ns, done, w;
	uint64_t end = off + len, avail = d->p_end, reach = d->p_end, head;
	bool ahead_active = false;

	d->st.requests++;
	d->st.bytes += len;
	if (d->t_end >= 0 && d->prefetch) {
		uint64_t more = (uint64_t)((double)(t - d->t_end) * d->media_bps / SIM_S);

		reach = d->p_end + d->prefetch;
		ahead_active = more < d->prefetch;
		avail = d->p_end + (ahead_active ? more : d->prefetch);
	}
	if (d->t_end >= 0 && off >= d->seg_lo && end <= avail) {
		d->st.cache_hits++;			/* all in the drive's cache */
		done = t + xfer(d->iface_bps, len);
		goto out_keep;
	}
	if (d->t_end >= 0 && off >= d->seg_lo && ahead_active &&
	    (off <= avail || (d->readthrough && off <= reach))) {
		/*
		 * The look-ahead is still reading towards @off: keep streaming;
		 * everything it passes over stays in the cache.
		 */
		d->st.streamed++;
		done = d->t_end + xfer(d->media_bps, end - d->p_end);
		if (done < t + xfer(d->iface_bps, len))
			done = t + xfer(d->iface_bps, len);
		goto out;
	}
	if (d->t_end >= 0 && off >= d->seg_lo && off <= avail) {
		/*
		 * continue at avail on the same track: wait for that sector,
		 * which passed the head when the look-ahead stopped there
		 */
		sim_ns stopped = d->t_end + xfer(d->media_bps, avail - d->p_end);

		w = rot_wait(d, t, avail, t - stopped >= d->rot_ns);
		done = t + w + xfer(d->media_bps, end - avail);
		goto out;
	}
	head = avail;
	w = disk_seek_time(d, off > head ? off - head : head - off);
	if (w)
		d->st.seeks++;
	d->st.seek_ns += w;
	t += w;
	w = rot_wait(d, t, off, true);
	done = t + w + xfer(d->media_bps, len);
	d->seg_lo = off;
out:
	d->p_end = end;
	d->t_end = done;
	if (d->p_end - d->seg_lo > d->cache)
		d->seg_lo = d->p_end - d->cache;
out_keep:
	d->st.busy_ns += done - now;
	return done;
}

sim_ns disk_probe(const struct disk *d, sim_ns now, uint64_t off, uint64_t len)
{
	struct disk probe = *d;

	return disk_service(&probe, now, off, len);
}
