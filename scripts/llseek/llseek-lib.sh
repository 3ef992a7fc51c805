# llseek-lib.sh: running the coccinelle/llseek rules over a tree, shared by
# llseek-report.sh and llseek-regen.sh. Sourced after lib.sh, never run.
#
# spatch runs over a directory holding copies of the candidate files
# (`spatch --dir` treats every file on its own, with a per-file --timeout,
# and --jobs spreads them over the cores), a few hundred at a time, not
# once per file: its Python start costs 0.3 to 0.5 s, which over the
# ~1570 candidates is more than the whole run.

COCCI="$TOP/coccinelle/llseek"
: "${LLSEEK_TREE:=$PRISTINE}"
: "${LLSEEK_JOBS:=$(nproc 2>/dev/null || echo 2)}"
: "${LLSEEK_TIMEOUT:=120}"
: "${LLSEEK_CHUNK:=400}"

# Python for spatch's script rules: the system one, not whatever python3
# comes first in PATH (a pyenv shim there doubles spatch's start time).
llseek_python() {
	if [ -x /usr/bin/python3 ]; then
		echo "--python /usr/bin/python3"
	fi
}

# llseek_candidates PATTERN: the .c and .h files of $LLSEEK_TREE matching
# the extended regular expression PATTERN, relative and sorted.
llseek_candidates() {
	(cd "$LLSEEK_TREE" &&
		grep -rlE --include='*.[ch]' "$1" . | sed 's|^\./||' |
		LC_ALL=C sort)
}

# llseek_spatch SPFILE MODE LIST WORK [SPATCH-ARGS...]: run spatch -D MODE
# with coccinelle/llseek/SPFILE on the files named in LIST. WORK/tree holds
# their copies (spatch --in-place edits those, never the tree), WORK/out
# spatch's stdout and WORK/err its stderr. Fails, naming the files, when
# spatch fails or gives up on a file (time-out, exception).
# spatch prints nothing until it is done (its workers' output is gathered
# at the end), so it runs on LLSEEK_CHUNK files at a time, and a progress
# line every 30 s says how many files the finished runs had: the report's
# 1569 files take a minute and more.
llseek_spatch() {
	_sp="$COCCI/$1" _mode=$2 _list=$3 _work=$4
	shift 4
	rm -rf "$_work"
	mkdir -p "$_work/tree"
	: >"$_work/out"
	: >"$_work/err"
	split -a 4 -l "$LLSEEK_CHUNK" "$_list" "$_work/chunk." || return 1
	echo 0 >"$_work/done"
	every_30s llseek $$ llseek_so_far "$_work/done" "$_list" &
	_ticker=$!
	llseek_chunks "$@"
	_rc=$?
	kill "$_ticker" 2>/dev/null
	[ "$_rc" = 0 ] || return 1
	! grep -E '^(EXN|Fatal error|spatch exit)' "$_work/err" >&2
}

# llseek_chunks [SPATCH-ARGS...]: llseek_spatch's runs, one a chunk: its
# files copied to WORK/part, spatch there, the copies then moved to
# WORK/tree and their count added to WORK/done.
llseek_chunks() {
	_done=0
	for _chunk in "$_work"/chunk.*; do
		[ -e "$_chunk" ] || continue
		mkdir "$_work/part" &&
			(cd "$LLSEEK_TREE" && tar -cf - -T -) <"$_chunk" |
			tar -xf - -C "$_work/part" || return 1
		(cd "$_work/part" && spatch $(llseek_python) --very-quiet \
			--no-includes --include-headers --timeout "$LLSEEK_TIMEOUT" \
			--jobs "$LLSEEK_JOBS" -D "$_mode" --sp-file "$_sp" "$@" \
			--dir .) >>"$_work/out" 2>>"$_work/err" ||
			echo "spatch exit $?" >>"$_work/err"
		cp -al "$_work/part/." "$_work/tree/" && rm -rf "$_work/part" ||
			return 1
		_done=$((_done + $(wc -l <"$_chunk")))
		echo "$_done" >"$_work/done.new" && mv "$_work/done.new" "$_work/done"
	done
}

# llseek_so_far DONE LIST: llseek_spatch's progress line: how many files of
# LIST the finished runs had (DONE holds the count).
llseek_so_far() {
	echo "spatch: $(cat "$1") of $(wc -l <"$2") files done"
}
