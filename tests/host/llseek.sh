# llseek.sh: shared by the t4000 llseek tests (the llseek blocks of
# patches/core/series). Sourced after ktap.sh and after BUILD is set, never
# run; sets pristine ($BUILD/pristine), core ($TOP/patches/core), decisions
# (coccinelle/llseek/decisions.tsv), report ($RESULTS/llseek/report.tsv)
# and tab:
#
# llseek_block HEADING
#                    the patches of the series block that starts at HEADING
#                    (up to the next empty line, comments left out)
# llseek_decisions_header DECISIONS
#                    one KTAP case: DECISIONS (coccinelle/llseek/
#                    decisions.tsv) has its header line and five columns a
#                    row
# llseek_not_alone PATCH...
#                    " P" for each PATCH that does not apply alone to the
#                    pristine tree (a dry run)
# llseek_tree TREE PATCH...
#                    the pristine tree with the PATCHes applied in order,
#                    made of the files they touch alone (hard links: patch
#                    writes a file it changes anew, the pristine one keeps
#                    its bytes), listed in TREE/.touched; every other file
#                    of that tree is the pristine one (llseek_of and
#                    llseek_naming read it there). On a failure prints the
#                    patch and the head of its errors as KTAP diagnostics,
#                    returns 1
# llseek_naming TREE WORD
#                    the files of the tree llseek_tree made that name WORD
#                    (grep -w) outside Documentation/: the untouched
#                    pristine ones and the touched ones in TREE
# llseek_checkpatch PATCH...
#                    one KTAP case: checkpatch --strict --no-tree finds
#                    nothing in the PATCHes but UNKNOWN_COMMIT_ID (through
#                    checkpatch.sh, whose results t8000 shares)
# llseek_of TREE FILE NAME
#                    the llseek value of each initialiser NAME in FILE of
#                    TREE, the pristine tree or one llseek_tree made
#                    ("unset" when it sets none; nothing when there is
#                    none); the brace may be on the next line
# llseek_block_mismatch BLOCK OURS
#                    what does not match between a block's patches (file
#                    BLOCK, one a line) and its decision rows (file OURS,
#                    decisions.tsv rows): a fix whose patch is not in the
#                    block, a keep that names a patch, a decision neither
#                    fix nor keep, a listed patch that is missing or that
#                    no fix row names; one line each
: "${RESULTS:=$TOP/results}"
. "$TOP/tests/host/checkpatch.sh"
pristine="$BUILD/pristine"
core="$TOP/patches/core"
decisions="$TOP/coccinelle/llseek/decisions.tsv"
report="$RESULTS/llseek/report.tsv"
tab=$(printf '\t')

llseek_of() {
	_file=$1/$2
	if [ -f "$1/.touched" ] && ! grep -qxF "$2" "$1/.touched"; then
		_file=$pristine/$2
	fi
	awk -v n="$3" '
		$0 ~ "struct (file_operations|proc_ops) " n "( |$)" && !/;/ {
			on = 1; v = "" }
		on && /\.(llseek|proc_lseek)[ \t]*=/ {
			v = $0; sub(/.*=[ \t]*/, "", v); sub(/[ \t]*,?[ \t]*$/, "", v)
		}
		on && /^};/ { on = 0; print (v == "" ? "unset" : v) }
	' "$_file" 2>/dev/null
}

llseek_block_mismatch() {
	awk -F '\t' 'FILENAME == ARGV[1] { inb[$0] = 1; next }
		$3 == "fix" && !($4 in inb) { print $1 " " $2 ": " $4 " is not in the block" }
		$3 == "keep" && $4 != "-" { print $1 " " $2 ": keep names " $4 }
		$3 != "fix" && $3 != "keep" { print $1 " " $2 ": decision " $3 }' \
		"$1" "$2"
	_t=$(printf '\t')
	for _p in $(cat "$1"); do
		[ -f "$core/$_p" ] || echo "$_p: listed but missing"
		grep -q "$_t$_p$_t" "$2" || echo "$_p: no fix row names it"
	done
}

llseek_block() {
	awk -v h="$1" '$0 == h { on = 1; next } on && /^$/ { exit } on && !/^#/' \
		"$core/series"
}

llseek_decisions_header() {
	_t=$(printf '\t')
	[ "$(head -n 1 "$1" 2>/dev/null)" = "file${_t}name${_t}decision${_t}patch${_t}reason" ] &&
		awk -F '\t' 'NR > 1 && NF != 5 { bad = 1 } END { exit bad }' "$1"
	ktap_ok $? "decisions.tsv has the header file, name, decision, patch, reason and five columns a row"
}

llseek_not_alone() {
	for _p; do
		patch -d "$pristine" -p1 -N --dry-run -s -f -i "$core/$_p" \
			>"$TMPDIR/dry.log" 2>&1 || printf ' %s' "$_p"
	done
}

llseek_tree() {
	_tree=$1
	shift
	case $_tree in /*) ;; *) _tree=$PWD/$_tree ;; esac
	rm -rf "$_tree"
	mkdir -p "$_tree" || return 1
	# Both names of every "diff --git a/OLD b/NEW" line (the series has
	# no names with spaces; one would fail to apply, loudly).
	for _p; do
		awk '/^diff --git a\// { print substr($3, 3); print substr($4, 3) }' \
			"$core/$_p"
	done | LC_ALL=C sort -u >"$_tree/.touched" || return 1
	(cd "$pristine" && while IFS= read -r _f; do
		[ ! -e "$_f" ] || printf '%s\n' "$_f"
	done <"$_tree/.touched" | xargs -r -d '\n' cp -l --parents -t "$_tree") ||
		return 1
	for _p; do
		patch -d "$_tree" -p1 -N -s --no-backup-if-mismatch -i "$core/$_p" \
			>"$TMPDIR/apply.log" 2>&1 && continue
		ktap_diag "$_p: $(head -n 3 "$TMPDIR/apply.log")"
		return 1
	done
}

llseek_naming() {
	[ -f "$1/.touched" ] || return 2
	_touched=$(cd "$1" && pwd)/.touched
	(cd "$pristine" && grep -rlw "$2" --exclude-dir=Documentation . |
		sed 's|^\./||' | grep -vxF -f "$_touched")
	(cd "$1" && grep -rlw "$2" --exclude-dir=Documentation --exclude=.touched . |
		sed 's|^\./||')
}

llseek_checkpatch() {
	_bad=
	for _p; do
		echo "UNKNOWN_COMMIT_ID $core/$_p"
	done | checkpatch_run
	for _p; do
		_out=$(checkpatch_result UNKNOWN_COMMIT_ID "$core/$_p") &&
			[ -z "$_out" ] && continue
		_bad="$_bad $_p"
		ktap_diag "$_out"
	done
	[ -z "$_bad" ]
	ktap_ok $? "checkpatch --strict --no-tree is clean but for UNKNOWN_COMMIT_ID" ||
		ktap_diag "flagged:$_bad"
}
