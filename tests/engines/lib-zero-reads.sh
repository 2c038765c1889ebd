# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# The zero-byte-read tests' one job (coop-zero-reads.sh, blkfile-zero-reads.sh;
# sourced after tests/lib.sh and san_env): a file $f written to 1 MiB and
# truncated, read by a 1 MiB job of 16 KiB blocks (create_on_open=1: fio
# takes size= as the file's size and does not lay the file out again).
# FIO_MODE (an array, may be empty) goes before fio's other arguments.

zero_n=0

# zero_job SIZE RW DIRECT IODEPTH ENGINE-ARGS...: truncated to SIZE bytes.
# Sets $err (the job's error), $bytes (read), $short (fio's short_ios:
# residuals it requeued) and $out (fio's stderr); fio's exit status must
# agree with $err, and no more bytes may be read than the file holds.
zero_job() {
	local size=$1 rw=$2 direct=$3 depth=$4 json=$T/job$zero_n.json rc
	shift 4
	zero_n=$((zero_n + 1))
	rm -f "$f"
	if ! head -c 1M /dev/urandom >"$f" || ! truncate -s "$size" "$f"; then
		fail "cannot make $f"
	fi
	out=$(timeout -k 5 120 env "${SAN_ENV[@]}" "$FIO" "${FIO_MODE[@]}" \
		--output-format=json --output="$json" --name=zero --filename="$f" \
		--size=1m --rw="$rw" --bs=16k --iodepth="$depth" --direct="$direct" \
		--create_on_open=1 "$@" 2>&1)
	rc=$?
	[ $rc = 124 ] || [ $rc = 137 ] && fail "$*: hung"
	# Error lines may precede the document in the file (thread mode).
	err=$(sed -n '/^{/,$p' "$json" | "$JQ" '.jobs[0].error' 2>/dev/null) ||
		fail "$*: no JSON (exit $rc): $out $(tail -n 5 "$json")"
	bytes=$(sed -n '/^{/,$p' "$json" | "$JQ" '.jobs[0].read.io_bytes')
	short=$(sed -n '/^{/,$p' "$json" | "$JQ" '.jobs[0].read.short_ios')
	if [ "$err" = 0 ]; then
		[ $rc = 0 ] || fail "$*: error 0 but exit $rc"
	else
		[ $rc != 0 ] || fail "$*: error $err but exit 0"
	fi
	[ "$bytes" -le "$size" ] || fail "$*: read $bytes bytes of a $size-byte file"
}
