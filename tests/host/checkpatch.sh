# checkpatch.sh: the tree's scripts/checkpatch.pl --strict --no-tree -q on
# patches, shared by t8000 (every patch) and the llseek tests (llseek.sh:
# their blocks, again). Sourced after BUILD and TMPDIR are set, never run.
#
# checkpatch_run <LIST
#                    LIST: "IGNORE PATCH" lines; checkpatch --ignore IGNORE
#                    on each PATCH (absolute path), unless $BUILD/checkpatch
#                    keeps a clean result for the same tree, checkpatch.pl,
#                    IGNORE, path and bytes (a patch changed by one byte is
#                    checked again); only clean results are kept, a flagged
#                    patch is checked again every time. The patches to check
#                    go to checkpatch.pl together, one run a core for each
#                    IGNORE (its start, 0.13 s, was most of the time a
#                    patch took): a run that finds nothing gives every patch
#                    of it a clean result, one that finds anything checks
#                    each of its patches alone for its own result
# checkpatch_result IGNORE PATCH
#                    what checkpatch said on it, and its exit status (1 when
#                    checkpatch_run left no result)
# checkpatch_keys <LIST
#                    "KEY IGNORE PATCH" for each line of LIST: KEY names
#                    PATCH's result (one perl for them all)
# checkpatch_one KEY IGNORE PATCH
#                    checks one PATCH alone and keeps its result
checkpatch_pl="$BUILD/pristine/scripts/checkpatch.pl"
checkpatch_dir="$BUILD/checkpatch"

checkpatch_keys() {
	perl -MDigest::SHA=sha1_hex -e '
		sub slurp { local $/; open(my $fh, "<", $_[0]) or return ""; my $s = <$fh>; $s }
		# As sha1sum would print it, and the patch bytes below it.
		my $head = slurp($ARGV[0]) . sha1_hex(slurp($ARGV[1])) . "  -\n";
		while (<STDIN>) {
			chomp;
			my ($ignore, $patch) = split(/ /, $_, 2);
			print sha1_hex($head . "$ignore $patch\n" . slurp($patch)),
				" $ignore $patch\n";
		}' "$BUILD/pristine/.bklfree-extracted" "$checkpatch_pl"
}

checkpatch_one() {
	# From TMPDIR: checkpatch reads a .checkpatch.conf in its directory.
	_out=$(cd "$TMPDIR" && perl "$checkpatch_pl" --strict --no-tree -q \
		--ignore "$2" "$3" 2>&1)
	_rc=$?
	_to="$checkpatch_dir"
	[ "$_rc" = 0 ] && [ -z "$_out" ] || _to="$TMPDIR/checkpatch"
	# Written whole, then renamed: two tests may check the same patch.
	printf '%s\n%s\n' "$_rc" "$_out" >"$_to/$1.$$" &&
		mv "$_to/$1.$$" "$_to/$1"
}

# checkpatch_batch FILE: the "KEY IGNORE PATCH" lines of FILE, one IGNORE,
# in one checkpatch run; every patch of a clean run gets a clean result
# (renamed into place together), else each is checked alone.
checkpatch_batch() {
	_ig=$(sed -n '1s/^[^ ]* \([^ ]*\) .*/\1/p' "$1")
	# shellcheck disable=SC2046 # patch paths have no spaces
	_out=$(cd "$TMPDIR" && perl "$checkpatch_pl" --strict --no-tree -q \
		--ignore "$_ig" $(cut -d' ' -f3- "$1") 2>&1)
	if [ $? = 0 ] && [ -z "$_out" ]; then
		mkdir -p "$1.clean" &&
			while read -r _key _ _; do
				printf '0\n\n' >"$1.clean/$_key"
			done <"$1" &&
			mv -f "$1.clean"/* "$checkpatch_dir/"
		return
	fi
	while read -r _key _ig _p; do
		checkpatch_one "$_key" "$_ig" "$_p"
	done <"$1"
}

checkpatch_run() {
	rm -rf "$TMPDIR/checkpatch"
	mkdir -p "$checkpatch_dir" "$TMPDIR/checkpatch"
	checkpatch_keys >"$TMPDIR/checkpatch/keys" || return 1
	while read -r _key _ig _p; do
		[ -f "$checkpatch_dir/$_key" ] || echo "$_key $_ig $_p"
	done <"$TMPDIR/checkpatch/keys" >"$TMPDIR/checkpatch/todo"
	# By IGNORE, dealt round the cores: batch.M.N, batch N of the M-th
	# IGNORE; the batches of one IGNORE run together.
	_groups=$(awk -v n="$(nproc 2>/dev/null || echo 1)" -v d="$TMPDIR/checkpatch" '
		!($2 in g) { g[$2] = ++ng }
		{ print > (d "/batch." g[$2] "." (c[$2]++ % n)) }
		END { print ng + 0 }' "$TMPDIR/checkpatch/todo")
	_g=1
	while [ "$_g" -le "$_groups" ]; do
		for _b in "$TMPDIR/checkpatch/batch.$_g".*; do
			checkpatch_batch "$_b" &
		done
		wait
		_g=$((_g + 1))
	done
}

checkpatch_result() {
	_key=$(awk -v i="$1" -v p="$2" '$2 == i && $3 == p { print $1; exit }' \
		"$TMPDIR/checkpatch/keys" 2>/dev/null)
	_f="$checkpatch_dir/$_key"
	[ -n "$_key" ] && [ -f "$_f" ] || _f="$TMPDIR/checkpatch/$_key"
	[ -n "$_key" ] && [ -f "$_f" ] || { echo "checkpatch left no result for $2"; return 1; }
	{
		read -r _rc
		while IFS= read -r _l; do
			printf '%s\n' "$_l"
		done
	} <"$_f"
	return "$_rc"
}
