# checkpatch.sh: the tree's scripts/checkpatch.pl --strict --no-tree -q on
# patches, shared by t8000 (every patch) and the llseek tests (llseek.sh:
# their blocks, again). Sourced after BUILD and TMPDIR are set, never run.
#
# checkpatch_run <LIST
#                    LIST: "IGNORE PATCH" lines; checkpatch --ignore IGNORE
#                    on each PATCH (absolute path), as many at a time as
#                    there are cores, unless $BUILD/checkpatch keeps a clean
#                    result for the same tree, checkpatch.pl, IGNORE, path
#                    and bytes (a patch changed by one byte is checked
#                    again); only clean results are kept, a flagged patch
#                    is checked again every time
# checkpatch_result IGNORE PATCH
#                    what checkpatch said on it, and its exit status (1 when
#                    checkpatch_run left no result)
# checkpatch_one IGNORE PATCH
#                    checks one PATCH (checkpatch_run's worker)
checkpatch_pl="$BUILD/pristine/scripts/checkpatch.pl"
checkpatch_dir="$BUILD/checkpatch"

# checkpatch_key IGNORE PATCH: the name of PATCH's result.
checkpatch_key() {
	{
		cat "$BUILD/pristine/.bklfree-extracted"
		sha1sum <"$checkpatch_pl"
		printf '%s %s\n' "$1" "$2"
		cat "$2"
	} | sha1sum | cut -c1-40
}

checkpatch_one() {
	_key=$(checkpatch_key "$1" "$2")
	[ -f "$checkpatch_dir/$_key" ] && return 0
	# From TMPDIR: checkpatch reads a .checkpatch.conf in its directory.
	_out=$(cd "$TMPDIR" && perl "$checkpatch_pl" --strict --no-tree -q \
		--ignore "$1" "$2" 2>&1)
	_rc=$?
	_to="$checkpatch_dir"
	[ "$_rc" = 0 ] && [ -z "$_out" ] || _to="$TMPDIR/checkpatch"
	# Written whole, then renamed: two tests may check the same patch.
	printf '%s\n%s\n' "$_rc" "$_out" >"$_to/$_key.$$" &&
		mv "$_to/$_key.$$" "$_to/$_key"
}

checkpatch_run() {
	rm -rf "$TMPDIR/checkpatch"
	mkdir -p "$checkpatch_dir" "$TMPDIR/checkpatch"
	xargs -n 2 -P "$(nproc 2>/dev/null || echo 1)" sh -c \
		'BUILD=$1 TMPDIR=$2; shift 2; . "$0" && checkpatch_one "$@"' \
		"$TOP/tests/host/checkpatch.sh" "$BUILD" "$TMPDIR"
}

checkpatch_result() {
	_key=$(checkpatch_key "$1" "$2")
	_f="$checkpatch_dir/$_key"
	[ -f "$_f" ] || _f="$TMPDIR/checkpatch/$_key"
	[ -f "$_f" ] || { echo "checkpatch left no result for $2"; return 1; }
	sed 1d "$_f"
	return "$(head -n 1 "$_f")"
}
