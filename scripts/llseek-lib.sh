# llseek-lib.sh: running the coccinelle/llseek rules over a tree, shared by
# llseek-report.sh and llseek-regen.sh. Sourced after lib.sh, never run.
#
# spatch runs once per chunk of files, not once per file: its Python start
# costs about 0.3 s, which over the ~1240 candidate files is most of the
# budget. A chunk is a copy of its files under a directory, given to
# `spatch --dir`, which handles every file on its own (no cross-file
# matching) with a per-file --timeout. `spatch --jobs 2 --dir` was slower
# than one process here (README "llseek report"), so the chunks run in
# $LLSEEK_JOBS background workers instead.

COCCI="$TOP/coccinelle/llseek"
: "${LLSEEK_TREE:=$PRISTINE}"
: "${LLSEEK_JOBS:=$(nproc 2>/dev/null || echo 2)}"
: "${LLSEEK_TIMEOUT:=120}"

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
# with coccinelle/llseek/SPFILE on the files named in LIST. WORK/<n>/ holds
# chunk n's copies (spatch --in-place edits those, never the tree),
# WORK/<n>.out its stdout and WORK/<n>.err its stderr. Fails when spatch
# fails or gives up on a file (time-out, exception): the files are named.
llseek_spatch() {
	_sp="$COCCI/$1" _mode=$2 _list=$3 _work=$4
	shift 4
	rm -rf "$_work"
	mkdir -p "$_work"
	_chunks=$((LLSEEK_JOBS * 8))
	_n=0
	while [ "$_n" -lt "$_chunks" ]; do
		mkdir -p "$_work/$_n"
		awk -v n="$_n" -v c="$_chunks" '(NR - 1) % c == n' "$_list" |
			(cd "$LLSEEK_TREE" && tar -cf - -T -) |
			tar -xf - -C "$_work/$_n" || return 1
		_n=$((_n + 1))
	done
	_w=0
	while [ "$_w" -lt "$LLSEEK_JOBS" ]; do
		(
			_n=$_w
			while [ "$_n" -lt "$_chunks" ]; do
				(cd "$_work/$_n" && spatch $(llseek_python) \
					--very-quiet --no-includes --include-headers \
					--timeout "$LLSEEK_TIMEOUT" -D "$_mode" \
					--sp-file "$_sp" "$@" --dir .) \
					>"$_work/$_n.out" 2>"$_work/$_n.err" ||
					echo "spatch exit $? in chunk $_n" >>"$_work/$_n.err"
				_n=$((_n + LLSEEK_JOBS))
			done
		) &
		_w=$((_w + 1))
	done
	wait
	cat "$_work"/*.err >"$_work/spatch.err"
	! grep -E '^(EXN|Fatal error|spatch exit)' "$_work/spatch.err" >&2
}
