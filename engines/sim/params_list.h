/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's numeric parameters, once: X(a, b, field, default, help), a and b
 * being the expander's context.  Expanded
 * into the defaults (params.c), simrun's name table (params.c) and the fio
 * options sim_<field> (sim_opts.h).  The help text says where each default
 * comes from.
 */
#ifndef PERFPACK_SIM_PARAMS_LIST_H
#define PERFPACK_SIM_PARAMS_LIST_H

#define SIM_UPARAMS(X, a, b)								\
	X(a, b, client_ra_kb, 128, "Initiator read_ahead_kb (2.6.26 VM_MAX_READAHEAD = 128)") \
	X(a, b, client_max_sectors_kb, 512, "Initiator max_sectors_kb = largest iSCSI command (BLK_DEF_MAX_SECTORS = 512)") \
	X(a, b, client_qdepth, 32, "iSCSI commands outstanding per session (open-iscsi queue_depth = 32)") \
	X(a, b, client_cfq_lone_mult, 4, "Initiator CFQ: a lone busy queue may have this many x cfq_quantum requests dispatched (4, as cfq_dispatch_requests() of 2.6.29: 16 iSCSI commands); 0 = no cap of its own (the session's queue depth only). Whether 2.6.26 had the cap decides whether case 11 reaches the CmdSN window") \
	X(a, b, client_host_blocked, 7, "Initiator: a command refused because the CmdSN window is closed blocks the host (2.6.26 libiscsi iscsi_queuecommand() returns SCSI_MLQUEUE_HOST_BUSY; scsi_queue_insert() sets host_blocked = max_host_blocked = SCSI_DEFAULT_HOST_BLOCKED 7): nothing is sent until no command is outstanding, then for this many queue runs (scsi_host_queue_ready()); 0 = the command only waits for the window to open, without the stall") \
	X(a, b, client_hz, 250, "Initiator CONFIG_HZ (Debian lenny 2.6.26: 250); the queue's unplug timer fires on jiffy ticks") \
	X(a, b, client_unplug_ms, 3, "Initiator queue unplug_delay, ms (2.6.26 blk_queue_make_request(): 3 ms = 1 jiffy at HZ 250); re-runs a plugged queue, e.g. a blocked host at zero depth") \
	X(a, b, client_nr_requests, 128, "Initiator queue nr_requests (BLKDEV_MAX_RQ = 128); congested at 7/8 (async readahead skipped)") \
	X(a, b, client_syscall_ns, 1000, "read(2) entry/exit cost on the initiator (~1 us, 2009 Xeon)") \
	X(a, b, client_copy_mbps, 2000, "copy_to_user rate on the initiator, MB/s (~2 GB/s memcpy of the era)") \
	X(a, b, link_mbps, 117, "iSCSI payload ceiling, MB/s (1 GbE: 125 MB/s x 1448/1538 TCP payload)") \
	X(a, b, link_latency_us, 50, "One-way latency per iSCSI PDU, us (half a ~100 us GbE round trip)") \
	X(a, b, server_ra_kb, 128, "Target read_ahead_kb (2.6.29 VM_MAX_READAHEAD = 128; the thread's '2MB RA' = 2048)") \
	X(a, b, server_file_ra_kb, 0, "read_ahead_kb the SCST threads' files were opened with (2.6.29 file_ra_state_init() copies it into f_ra once per open; SCST keeps a file per thread open for the session): 0 = sim_server_ra_kb; 128 = opened at the boot default before read_ahead_kb was raised (a test-procedure assumption, off by default)") \
	X(a, b, server_max_sectors_kb, 512, "Target disk max_sectors_kb (BLK_DEF_MAX_SECTORS = 512)") \
	X(a, b, server_nr_requests, 128, "Target disk queue nr_requests (BLKDEV_MAX_RQ = 128); congested at 113, clear below 103: 2.6.29 page_cache_async_readahead() then skips the window") \
	X(a, b, target_queued_cmds, 32, "iscsi-scst QueuedCommands (default 32): each response's MaxCmdSN lets the initiator have at most this many commands active in the session (received and not yet answered); 0 = no CmdSN window") \
	X(a, b, target_cmd_us, 20, "SCST per-command CPU (parse, sg alloc, page lookup), us") \
	X(a, b, target_iov_kb, 4, "SCST readv() segment, KiB (4: a page per iovec; iscsi.c no_clustering, vdisk_exec_read(), 2.6.29 generic_file_aio_read() per segment); 0 = whole command") \
	X(a, b, target_copy_mbps, 2000, "Target copy page cache -> SCST buffers, MB/s") \
	X(a, b, handoff_us, 50, "Waking a sleeping SCST thread for a command (wake_up + switch), us") \
	X(a, b, bind_at_run, 1, "A woken SCST thread takes the oldest queued command when it runs (scst_targ.c scst_do_job_active()); 0 = the one it was woken for") \
	X(a, b, wake_lifo, 1, "A command wakes the SCST thread that slept last (scst_cmd_thread() add_wait_queue_exclusive_head()); 0 = the longest idle") \
	X(a, b, jitter_us, 1000, "Scheduling noise before an SCST thread reads, us, uniform 0..N, seeded (2.6.29 CFS wakeup granularity ~1 ms)") \
	X(a, b, seed, 1, "Seed of the jitter's PRNG (same seed, same numbers)") \
	X(a, b, hz, 250, "Target CONFIG_HZ; CFQ counts think time in jiffies (Vlad: 8 ms = HZ/125)") \
	X(a, b, cfq_slice_idle_ms, 8, "CFQ slice_idle, ms (2.6.29 default HZ/125)") \
	X(a, b, cfq_slice_sync_ms, 100, "CFQ slice_sync, ms (default HZ/10)") \
	X(a, b, cfq_quantum, 4, "CFQ quantum (default 4)") \
	X(a, b, cfq_fifo_expire_ms, 125, "CFQ fifo_expire_sync, ms (default HZ/8)") \
	X(a, b, cfq_back_seek_max_kb, 16384, "CFQ back_seek_max, KiB (default 16384)") \
	X(a, b, cfq_back_seek_penalty, 2, "CFQ back_seek_penalty (default 2)") \
	X(a, b, cfq_preempt_close, 1, "CFQ preempts an idling queue for a request near the head (2.6.29: yes)") \
	X(a, b, cfq_coop, 0, "CFQ close cooperator: switch instead of idling (2.6.30+; 2.6.29: no)") \
	X(a, b, dl_read_expire_ms, 500, "deadline read_expire, ms (default HZ/2)") \
	X(a, b, dl_fifo_batch, 16, "deadline fifo_batch (default 16)") \
	X(a, b, disk_rpm, 7200, "Disk rotation speed (a 2008/2009 SATA desktop/nearline disk)") \
	X(a, b, disk_media_mbps, 90, "Disk outer-zone media rate, MB/s (500 GB 7200 rpm datasheets: ~90)") \
	X(a, b, disk_seek_min_us, 800, "Track-to-track seek, us (datasheets ~0.8 ms)") \
	X(a, b, disk_seek_max_us, 16000, "Full-stroke seek, us (datasheets ~16 ms; average ~8.5 ms)") \
	X(a, b, disk_capacity_gb, 500, "Disk capacity, GB (scales the seek curve)") \
	X(a, b, disk_cmd_us, 100, "Disk command overhead, us (SATA ~0.1 ms)") \
	X(a, b, disk_iface_mbps, 300, "Transfer from the drive cache, MB/s (SATA II)") \
	X(a, b, disk_prefetch_kb, 1024, "Drive read look-ahead after a read, KiB (0 = off; 1 MiB of a 16-32 MB cache, calibrated)") \
	X(a, b, disk_cache_kb, 2048, "Drive cache segment kept behind the head, KiB (of a 16 MB cache)") \
	X(a, b, disk_qdepth, 1, "Commands the target disk queues (1 = no NCQ; 31 = SATA NCQ via AHCI): CFQ then dispatches up to 4 x quantum, the drive picks the one it can finish first; a hardware assumption, off by default") \
	X(a, b, disk_readthrough, 1, "Look-ahead keeps streaming to a request a little ahead (1) or repositions (0)")

#endif
