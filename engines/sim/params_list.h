/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's numeric parameters, once: X(a, b, field, default, help), a and b
 * being the expander's context.  Expanded into struct sim_params (params.h),
 * the defaults and simrun's name table (params.c) and the fio options
 * sim_<field> (engines/coop/sim_opts.h).  The one-line help names the source
 * file and function each default follows, or says it is not in the sources.
 */
#ifndef PERFPACK_SIM_PARAMS_LIST_H
#define PERFPACK_SIM_PARAMS_LIST_H

#define SIM_UPARAMS(X, a, b)								\
	X(a, b, client_ra_kb, 128, "Initiator read_ahead_kb (2.6.26 mm.h VM_MAX_READAHEAD, set by blk_alloc_queue_node())") \
	X(a, b, client_max_sectors_kb, 512, "Initiator max_sectors_kb = largest iSCSI command (2.6.26 blkdev.h BLK_DEF_MAX_SECTORS)") \
	X(a, b, client_qdepth, 32, "iSCSI commands outstanding on the LUN (open-iscsi iscsid.conf node.session.queue_depth)") \
	X(a, b, client_cfq_lone_mult, 4, "Initiator CFQ: a lone queue dispatches up to this x quantum (2.6.26 cfq_dispatch_requests()); 0 = no cap") \
	X(a, b, client_cfq_idle_in_flight, 1, "Initiator CFQ idles on dd's empty queue with commands outstanding (2.6.26 cfq_arm_slice_timer() has no rq_in_driver check; 2.6.29's has); 0 = as 2.6.29") \
	X(a, b, client_host_blocked, 7, "Closed CmdSN window blocks the host for N zero-depth runs (2.6.26 iscsi_queuecommand() HOST_BUSY, scsi_host_queue_ready(), SCSI_DEFAULT_HOST_BLOCKED); 0 = wait for the window") \
	X(a, b, client_hz, 250, "Initiator CONFIG_HZ: jiffy of the unplug timer (Debian lenny config; not in the sources)") \
	X(a, b, client_unplug_ms, 3, "Initiator queue unplug_delay, ms (2.6.26 blk_queue_make_request(); 1 jiffy at HZ 250)") \
	X(a, b, client_nr_requests, 128, "Initiator queue nr_requests (2.6.26 blkdev.h BLKDEV_MAX_RQ); congested at 7/8 (blk_queue_congestion_threshold())") \
	X(a, b, client_syscall_ns, 1000, "read(2) entry/exit on the initiator, ns (CPU: not in the sources)") \
	X(a, b, client_copy_mbps, 2000, "copy_to_user per page on the initiator, MB/s (file_read_actor(); CPU rate not in the sources)") \
	X(a, b, client_nagle, 0, "0 = the initiator socket has TCP_NODELAY, a command PDU leaves at once, as iscsi-scst sets on its side (conn.c); 1 = Nagle kept, a command PDU waits while one is unacked (2.6.26 iscsi_tcp_conn_bind() keeps the options of the socket iscsid made; iscsid is not in refs: set A, calibration log round 12)") \
	X(a, b, link_delack_ms, 40, "Target's delayed ACK of a command when it sends no data, ms (Linux TCP_DELACK_MIN = HZ/25; net/ipv4 not in refs); read only with sim_client_nagle=1: only a held PDU waits for the ACK") \
	X(a, b, link_mbps, 95, "iSCSI payload ceiling, MB/s (1 GbE line rate allows 117: 1448/1538 TCP payload per frame; what the NIC, its bus and driver carried is not in the sources; set A, round 13)") \
	X(a, b, link_latency_us, 80, "One-way latency per iSCSI PDU, us (NIC/switch: not in the sources; set A, calibration log round 13)") \
	X(a, b, server_ra_kb, 128, "Target read_ahead_kb (2.6.29 mm.h VM_MAX_READAHEAD; the thread's '2MB RA' = 2048); read only with sim_server_file_ra_kb=0: a file's readahead is the read_ahead_kb at its open (file_ra_state_init())") \
	X(a, b, server_file_ra_kb, 128, "read_ahead_kb the SCST files keep: opened at the boot default, read_ahead_kb raised with the session up (2.6.29 file_ra_state_init() at open, vdisk_init_thr_data(); procedure not in the sources); 0 = sim_server_ra_kb") \
	X(a, b, server_max_sectors_kb, 512, "Target disk max_sectors_kb (2.6.29 blkdev.h BLK_DEF_MAX_SECTORS)") \
	X(a, b, server_cfq_lone_mult, 0, "Target CFQ: a lone queue dispatches up to this x quantum; 0 = no cap (2.6.29 cfq_dispatch_requests() breaks at quantum only with busy_queues > 1)") \
	X(a, b, dispatch_list, 1, "Elevator fills the driver's dispatch list only when empty, CFQ a whole round (2.6.26/2.6.29 elevator.c __elv_next_request(), scsi_request_fn()); 0 = pick when a slot frees") \
	X(a, b, server_nr_requests, 128, "Target queue nr_requests (2.6.29 BLKDEV_MAX_RQ); congested at 113 -> page_cache_async_readahead() skips") \
	X(a, b, server_unplug_ms, 3, "Target queue unplug_delay, ms: a request on an empty queue plugs it; run by the 4th queued request, the timer (1 jiffy at HZ 250), a completion, or a thread sleeping on a page (2.6.29 blk-core.c __make_request(), blk-settings.c blk_queue_make_request(), filemap.c sync_page()); 0 = never plugged") \
	X(a, b, server_ra_unplug, 1, "SCST readahead-2.6.29.patch: page_cache_async_readahead() runs the queue (blk_run_backing_dev()) when the marker page is up to date; 0 = 2.6.29 as released (the window waits for the unplug timer)") \
	X(a, b, target_queued_cmds, 32, "iscsi-scst QueuedCommands: MaxCmdSN = ExpCmdSN + N - active - 1 (iscsi_scst.h DEFAULT_NR_QUEUED_CMNDS, iscsi.c cmnd_set_sn()); 0 = no window") \
	X(a, b, sn_at_release, 1, "MaxCmdSN stops counting a command at xmit_response, before its data is sent (iscsi.c iscsi_xmit_response() -> req_cmnd_release(), cmnd_set_sn()); 0 = when its response left") \
	X(a, b, target_cmd_us, 11, "SCST CPU per command before the read (parse, sgv alloc), us (CPU: not in the sources; set A, round 13)") \
	X(a, b, target_rx_serial, 1, "1 = target_cmd_us runs on iscsi-scst's read thread, one command after another per connection, before the vdisk threads get it (iscsi.c scsi_cmnd_start() -> scst_cmd_init_stage1_done(SCST_CONTEXT_DIRECT): scst_targ.c parse .. scst_prepare_space() .. preprocessing_done; then iscsi_restart_cmnd() -> SCST_CONTEXT_THREAD), as the sources have it (round 14); 0 = on the vdisk threads, in parallel (rounds 5-13)") \
	X(a, b, target_iov_kb, 4, "SCST readv() segment, KiB (4: a page per iovec; iscsi.c no_clustering, vdisk_exec_read(), 2.6.29 generic_file_aio_read() per segment); 0 = whole command") \
	X(a, b, target_copy_mbps, 3000, "Target copy page cache -> SCST buffers, MB/s (file_read_actor(); CPU rate not in the sources; set A, round 13)") \
	X(a, b, target_copy_paced, 1, "The vdisk thread copies each page as it reads it (2.6.29 filemap.c do_generic_file_read() calls file_read_actor() per page): it meets a marker or a locked page after copying the pages before it; 0 = the copy after the whole readv()") \
	X(a, b, handoff_us, 100, "Waking a sleeping SCST thread, us (wake_up() in scst_cmd_init_done() path; CPU: not in the sources; set A, round 12)") \
	X(a, b, bind_at_run, 1, "A woken SCST thread takes the oldest queued command when it runs (scst_targ.c scst_do_job_active()); 0 = the one it was woken for") \
	X(a, b, wake_lifo, 1, "A command wakes the SCST thread that slept last (scst_cmd_thread() add_wait_queue_exclusive_head()); 0 = the longest idle") \
	X(a, b, jitter_us, 740, "SCST thread scheduling noise before a read, us: mean N/2, shaped by sim_jitter_exp, seeded (not in the sources; set A, round 13)") \
	X(a, b, jitter_exp, 1, "1 = the noise is exponential with mean N/2 from its own seeded stream: a tail, not uniform 0..N's hard edge, which made set A a knife-edge (not in the sources; calibration log, rounds 11-12); 0 = uniform 0..N") \
	X(a, b, jitter_wake_only, 0, "1 = noise on wake-ups only; 0 = before every command: a thread looping over a non-empty list does not sleep (scst_targ.c scst_cmd_thread()) but can be preempted (the noise is not in the sources; set A, round 14)") \
	X(a, b, seed, 1, "Seed of the noise's and the drive's random streams (same seed, same report)") \
	X(a, b, hz, 250, "Target CONFIG_HZ; CFQ counts in jiffies (the thread: HZ 250)") \
	X(a, b, cfq_slice_idle_ms, 8, "CFQ slice_idle, ms (2.6.29 cfq-iosched.c cfq_slice_idle = HZ/125)") \
	X(a, b, cfq_slice_sync_ms, 100, "CFQ slice_sync, ms (2.6.29 cfq_slice_sync = HZ/10)") \
	X(a, b, cfq_quantum, 4, "CFQ quantum (2.6.29 cfq_quantum)") \
	X(a, b, cfq_fifo_expire_ms, 125, "CFQ fifo_expire_sync, ms (2.6.29 cfq_fifo_expire[1] = HZ/8)") \
	X(a, b, cfq_back_seek_max_kb, 16384, "CFQ back_seek_max, KiB (2.6.29 cfq_back_max)") \
	X(a, b, cfq_back_seek_penalty, 2, "CFQ back_seek_penalty (2.6.29 cfq_back_penalty)") \
	X(a, b, cfq_preempt_close, 1, "CFQ: a request close to the head preempts an idling queue (2.6.29 cfq_should_preempt() -> cfq_rq_close())") \
	X(a, b, cfq_coop, 0, "CFQ close cooperator instead of idling (2.6.31 cfq_close_cooperator(); 2.6.29 has none)") \
	X(a, b, dl_read_expire_ms, 500, "deadline read_expire, ms (2.6.29 deadline-iosched.c read_expire = HZ/2)") \
	X(a, b, dl_fifo_batch, 16, "deadline fifo_batch (2.6.29 deadline-iosched.c fifo_batch)") \
	X(a, b, disk_rpm, 7200, "Disk rotation, rpm (drive not in the sources: a 2009 SATA disk)") \
	X(a, b, disk_media_mbps, 116, "Disk media rate, MB/s (drive not in the sources; set A, round 13)") \
	X(a, b, disk_seek_min_us, 700, "Track-to-track seek, us (drive not in the sources; datasheet class, set A, round 12)") \
	X(a, b, disk_seek_max_us, 13500, "Full-stroke seek, us (drive not in the sources; datasheet class, set A, round 12)") \
	X(a, b, disk_capacity_gb, 500, "Disk capacity, GB: scales the seek curve (drive not in the sources)") \
	X(a, b, disk_cmd_us, 400, "Disk command overhead, us (drive not in the sources; set A, round 13)") \
	X(a, b, disk_iface_mbps, 300, "Transfer from the drive cache, MB/s (SATA II; drive not in the sources)") \
	X(a, b, disk_prefetch_kb, 2048, "Drive read look-ahead after a read, KiB; 0 = off (drive not in the sources; set A, round 12)") \
	X(a, b, disk_cache_kb, 8192, "Drive cache kept behind the head, KiB (drive not in the sources; set A, round 12)") \
	X(a, b, disk_qdepth, 1, "Commands the drive queues: 1 = no NCQ, 31 = NCQ via AHCI (libata); not in the thread") \
	X(a, b, disk_readthrough, 1, "Look-ahead streams on to a request a little ahead (1) or repositions (0) (drive not in the sources)") \
	X(a, b, disk_rot_random, 1, "1 = after a seek or a stop of a turn or more the spindle's phase is drawn anew (drive's own seeded stream): it is a clock of its own, not the host's jiffies (drive not in the sources; calibration log, rounds 11-12); 0 = angle from the layout and model time")

#endif
