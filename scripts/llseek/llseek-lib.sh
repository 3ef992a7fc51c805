# llseek-lib.sh: running the coccinelle/llseek rules over a tree, shared by
# llseek-report.sh and llseek-regen.sh. Sourced after lib.sh, never run.
#
# spatch runs once over a directory holding copies of the candidate files
# (`spatch --dir` treats every file on its own, with a per-file --timeout,
# and --jobs spreads them over the cores), not once per file: its Python
# start costs 0.3 to 0.5 s, which over the ~1240 candidates is more than
# the whole run.

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
# with coccinelle/llseek/SPFILE on the files named in LIST. WORK/tree holds
# their copies (spatch --in-place edits those, never the tree), WORK/out
# spatch's stdout and WORK/err its stderr. Fails, naming the files, when
# spatch fails or gives up on a file (time-out, exception).
llseek_spatch() {
	_sp="$COCCI/$1" _mode=$2 _list=$3 _work=$4
	shift 4
	rm -rf "$_work"
	mkdir -p "$_work/tree"
	(cd "$LLSEEK_TREE" && tar -cf - -T -) <"$_list" |
		tar -xf - -C "$_work/tree" || return 1
	(cd "$_work/tree" && spatch $(llseek_python) --very-quiet \
		--no-includes --include-headers --timeout "$LLSEEK_TIMEOUT" \
		--jobs "$LLSEEK_JOBS" -D "$_mode" --sp-file "$_sp" "$@" --dir .) \
		>"$_work/out" 2>"$_work/err" ||
		echo "spatch exit $?" >>"$_work/err"
	! grep -E '^(EXN|Fatal error|spatch exit)' "$_work/err" >&2
}
