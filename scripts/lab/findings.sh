#!/bin/sh
# findings.sh PROFILE: what the series' findings files (patches/SERIES/findings)
# expect the baseline boot of PROFILE to fail in, as sorted lines, counting
# only findings whose fixing patch is applied to the patched tree:
# "TEST<TAB>DESCRIPTION" for a failing guest test case (named as
# tools/lab/verdict names it in its failed_case= lines), "splat" when the bug
# shows as a kernel splat (oops, WARNING, lockdep) in the baseline console,
# and "hostcheck" when it shows in a profile's host check of an image.
#
# A findings line is four tab-separated fields (the format is at the top of
# patches/drivers/findings): PROFILE, TEST, WHAT (a case's KTAP
# description, or the word splat or hostcheck) and the fixing PATCH of the
# series. Every line of every findings file is checked; a malformed one is
# an error naming file and line, and the exit status is then 1.
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: findings.sh PROFILE}
applied="$KTREES/patched/applied"
tab=$(printf '\t')

# check FILE: every line's shape, as "LINE<TAB>PROFILE<TAB>TEST<TAB>WHAT
# <TAB>PATCH" records, or an error for the first bad line.
check() {
	awk -F '\t' -v file="${1#"$TOP"/}" '
	function bad(why) {
		printf "error: cannot parse '\''%s'\'' line %d: %s\n", file, NR,
			why >"/dev/stderr"
		exit 1
	}
	/^#/ || /^[ \t]*$/ { next }
	{
		if (NF != 4)
			bad("expected 4 tab-separated fields (profile, test, " \
			    "failing case or splat or hostcheck, patch), got " NF)
		for (i = 1; i <= 4; i++)
			if ($i == "" || $i ~ /^ / || $i ~ / $/)
				bad("field " i " is empty or has spaces around it")
		if ($1 !~ /^[A-Za-z0-9._-]+$/)
			bad("bad profile '\''" $1 "'\''")
		if ($2 !~ /^[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/)
			bad("bad test '\''" $2 "'\'' (expected AREA/NAME)")
		if ($3 ~ /#/ || $3 ~ /^(not )?ok [0-9]/)
			bad("bad case '\''" $3 "'\'' (expected the KTAP " \
			    "description alone, or splat or hostcheck)")
		if ($4 !~ /^[0-9][0-9][0-9][0-9]-[^\/]*\.patch$/)
			bad("bad patch '\''" $4 "'\'' (expected NNNN-name.patch)")
		print NR "\t" $0
	}' "$1"
}

out=$(for f in "$TOP"/patches/*/findings; do
	[ -f "$f" ] || continue
	series=$(basename "$(dirname "$f")")
	lines=$(check "$f") || exit 1
	[ -n "$lines" ] || continue
	printf '%s\n' "$lines" | while IFS="$tab" read -r n p test what patch; do
		where="'${f#"$TOP"/}' line $n"
		[ -f "$TOP/patches/$series/$patch" ] ||
			die "cannot parse $where: no patch '$patch' in patches/$series"
		[ -f "$TOP/qemu-devices/$p.profile" ] ||
			die "cannot parse $where: no profile '$p'"
		[ "$p" = "$profile" ] || continue
		"$TOOLS/profile" "$TOP/qemu-devices/$p.profile" tests |
			grep -qxF "$test" ||
			die "cannot parse $where: test '$test' is not in the tests= of profile '$p'"
		grep -qx "$series/$patch" "$applied" 2>/dev/null || continue
		case $what in
		splat | hostcheck) echo "$what" ;;
		*) printf '%s\t%s\n' "$test" "$what" ;;
		esac
	done || exit 1
done) || exit 1
[ -z "$out" ] || printf '%s\n' "$out" | sort -u
