#!/bin/sh
# lseek-diff.sh PROFILE: compare the lseek ABI records of the baseline and
# patched boots of PROFILE. A path whose record differs must be listed, with
# its new record, in the expected-lseek-changes file of an applied series;
# a path only the baseline has (a file a pristine bug leaves behind) must
# be listed as "-" and its baseline record; anything else is an accident.
# Prints one summary line and writes the details to
# results/lseek-diff/PROFILE.txt. Exit 0 when nothing
# unexpected changed (and every expected change that could show did), 1
# otherwise, 2 when a boot left no records to compare.
. "$(dirname "$0")/lib.sh"

profile=${1:?usage: lseek-diff.sh PROFILE}
a="$RESULTS/baseline/$profile/lseek.tsv"
b="$RESULTS/patched/$profile/lseek.tsv"
out="$RESULTS/lseek-diff/$profile.txt"
mkdir -p "$RESULTS/lseek-diff"
if [ ! -s "$a" ] || [ ! -s "$b" ]; then
	echo "no records (a boot did not reach the lseek walk)" | tee "$out"
	exit 2
fi

# Expected changes of the series that were applied to the patched tree.
expected="$RESULTS/lseek-diff/expected.tsv"
: >"$expected"
for s in $(cut -d/ -f1 "$KTREES/patched/applied" 2>/dev/null | sort -u); do
	f="$TOP/patches/$s/expected-lseek-changes"
	[ -f "$f" ] && sed -e '/^#/d' -e '/^$/d' "$f" >>"$expected"
done

# The records come from the serial console and end in CR; the expected
# file does not: compare without it. xHCI names its debugfs directory of
# a USB device by slot ID (devices/NN), which the order of attaches
# decides: usbip's attach/detach cycles give the same device another slot
# from boot to boot, so NN is compared as SLOT.
awk -F '\t' -v out="$out" '
	function slot(   s) {
		if (match($0, /^\/sys\/kernel\/debug\/usb\/xhci\/[^\/\t]*\/devices\/[0-9]+\//)) {
			s = substr($0, 1, RLENGTH)
			sub(/[0-9]+\/$/, "SLOT/", s)
			$0 = s substr($0, RLENGTH + 1)
		}
	}
	{ sub(/\r$/, ""); slot() }
	FILENAME == ARGV[1] && /^-/ { sub(/^-/, ""); wantgone[$1] = $0; next }
	FILENAME == ARGV[1] { want[$1] = $0; next }
	FILENAME == ARGV[2] { base[$1] = $0; next }
	{ patched[$1] = $0 }
	END {
		for (p in base) {
			if (p in patched) {
				if (p in wantgone) bad[n++] = "stayed:     " base[p] "  (expected gone)"
			} else if (wantgone[p] == base[p]) {
				nexp++; ok[m++] = "gone:       " base[p] "  (expected)"
			} else
				bad[n++] = "gone:       " base[p]
		}
		for (p in patched) {
			if (!(p in base)) {
				if (want[p] == patched[p]) nexp++
				else bad[n++] = "new:        " patched[p]
				continue
			}
			if (base[p] == patched[p]) {
				if (p in want) bad[n++] = "unchanged:  " base[p] "  (expected " want[p] ")"
				continue
			}
			if (want[p] == patched[p]) { nexp++; ok[m++] = "expected:   " base[p] "  ->  " patched[p]; continue }
			bad[n++] = "unexpected: " base[p] "  ->  " patched[p]
		}
		for (i = 0; i < m; i++) print ok[i] > out
		for (i = 0; i < n; i++) print bad[i] > out
		if (n) printf "%d unexpected difference(s), %d expected\n", n, nexp
		else if (nexp) printf "%d expected change(s), nothing else differs\n", nexp
		else print "same"
		exit n > 0
	}' "$expected" "$a" "$b"
rc=$?
[ -f "$out" ] && sort -o "$out" "$out"
exit $rc
