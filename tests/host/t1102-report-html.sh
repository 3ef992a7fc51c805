#!/bin/sh
# t1102-report-html: scripts/lab/report.sh's HTML on a small fake results
# tree: two kernels, two profiles (core, watchdog), each boot's console a
# log of tests/host/fixtures/verdict judged by tools/lab/verdict as
# boot.sh does, a bench.json, and a patched tree whose applied list holds
# the patch of core's recorded findings.
#
# It checks that the front page links the page of every boot, shows the
# bench figures with their targets and the coverage map (or says it is not
# made); that each boot page lists every test and case of its console with
# its result (against the golden listings NAME.cases), marks the failing
# cases, shows the profile's findings and whether the boot shows them, and
# links its files and the front page; and that text with <script>, & and
# " from a console or a build file is escaped. The last cases run the same
# checks on broken copies of the pages (a link dropped, a case dropped, a
# mark dropped, a raw <script>): each must fail there.
#
# Needs TOP (the repository) and TOOLS (the built host tools).
if [ -z "${TOP:-}" ] || [ -z "${TOOLS:-}" ]; then
	echo "error: TOP and TOOLS must be set (repository, host tools)" >&2
	exit 1
fi
export TOP TOOLS
. "$TOP/tests/host/ktap.sh"

fixtures=$TOP/tests/host/fixtures/verdict
w=${TMPDIR:-/tmp}/t1102
rm -rf "$w"
mkdir -p "$w/build/kernel/patched" "$w/results" || exit 1

# The boots: KERNEL PROFILE FIXTURE (a log with a golden NAME.cases).
boots="baseline core nested-fail
patched core xfail
baseline watchdog markup
patched watchdog panic-unfinished"

# boot KERNEL PROFILE FIXTURE: a boot directory as boot.sh leaves it.
boot() {
	d="$w/results/$1/$2"
	mkdir -p "$d" &&
		cp "$fixtures/$3.log" "$d/console.log" &&
		"$TOOLS/verdict" "$d/console.log" >"$d/verdict" &&
		printf 'kernel=%s\nprofile=%s\naccel=tcg\nwall=1.5\nqemu_status=0\n' \
			"$1" "$2" >>"$d/verdict" &&
		echo "the console without kernel lines" >"$d/ktap.txt"
}

printf '%s\n' "$boots" | while read -r k p fx; do
	boot "$k" "$p" "$fx" || exit 1
done || ktap_bail "cannot make the fake results tree"
echo "\$ fsck.affs ofs.img" >"$w/results/baseline/watchdog/hostcheck.log"
# The lseek records: the same on both core boots, none after the panic.
printf '/dev/null\tchr\t0\t0\t0\t0\n' >"$w/results/baseline/core/lseek.tsv"
cp "$w/results/baseline/core/lseek.tsv" "$w/results/patched/core/lseek.tsv"
cp "$w/results/baseline/core/lseek.tsv" "$w/results/baseline/watchdog/lseek.tsv"
: >"$w/results/patched/watchdog/lseek.tsv"
echo "core/0112-pm-qos-make-lseek-rewind-cpu_dma_latency.patch" \
	>"$w/build/kernel/patched/applied"
echo 'tcg <b>"probe"</b> & more' >"$w/build/accel"
# As bench.sh writes it: one key a line, the targets as "OP LIMIT".
cat >"$w/results/bench.json" <<'EOT'
{
  "cores": 2,
  "cold_build_s": 367.0,
  "lab_tcg_first_ktap_s": [2.40, 2.19, 3.59],
  "lab_kvm_first_ktap_s": [],
  "ratio_lab_to_distro": 0.12,
  "matrix_wall_s": 115.7,
  "matrix_boots_per_s": 0.29,
  "targets": {
    "lab_tcg_first_ktap_s": "<= 1.0",
    "ratio_lab_to_distro": "<= 0.15",
    "matrix_boots_per_s": ">= 1"
  }
}
EOT

report() {
	BUILD=$w/build RESULTS=$w/results \
		sh "$TOP/scripts/lab/report.sh" >"$w/report.out" 2>&1
}

# links_every_boot DIR: DIR/index.html links each boot's page, and each
# page exists and links back to the front page.
links_every_boot() {
	printf '%s\n' "$boots" | while read -r k p fx; do
		grep -q "href=\"$k/$p/index.html\"" "$1/index.html" ||
			{ echo "front page: no link to $k/$p/index.html"; exit 1; }
		grep -q 'href="../../index.html"' "$1/$k/$p/index.html" ||
			{ echo "$k/$p: no link to the front page"; exit 1; }
	done
}

# lists_every_case PAGE GOLDEN: PAGE's rows give each test and case of the
# golden listing, by number and result, in order.
lists_every_case() {
	sed -n -e 's/^<tr class="test"><th>\([0-9]*\)<\/th><th>[^<]*<\/th><th class="\([a-z]*\)">.*/\1\t\2/p' \
		-e 's/^<tr id="c[0-9.]*"[^>]*><td class="num">\([0-9.]*\)<\/td><td>[^<]*<\/td><td class="\([a-z]*\)">.*/\1\t\2/p' \
		"$1" >"$w/rows"
	cut -f2,3 "$2" >"$w/want"
	[ -s "$w/want" ] && cmp -s "$w/want" "$w/rows" ||
		{ echo "$1: rows differ from $2:"; diff "$w/want" "$w/rows" | head -n 5; return 1; }
}

# marks_failing PAGE NUMBER DESCRIPTION: the case's row is marked failing
# and the case is in the page's list of failing cases; an ok case is not
# marked.
marks_failing() {
	grep -q "^<tr id=\"c$2\" class=\"failing\"><td class=\"num\">$2</td><td>$3</td><td class=\"fail\">not ok</td>" "$1" ||
		{ echo "$1: case $2 not marked failing"; return 1; }
	grep -q "^<li><a href=\"#c$2\">$2 [^<]*</a>: $3</li>" "$1" ||
		{ echo "$1: case $2 not in the failing list"; return 1; }
	! grep -q '^<tr id="c[0-9.]*" class="failing"><td class="num">[0-9.]*</td><td>[^<]*</td><td class="pass">' "$1" ||
		{ echo "$1: an ok case is marked failing"; return 1; }
}

# escapes DIR: no page under DIR holds a raw <script> or <b>, and the
# markup console's texts and the accel line are there escaped.
escapes() {
	if grep -ril -e '<script' -e '<b>' "$1" --include=index.html; then
		echo "raw markup in the pages above"
		return 1
	fi
	grep -qF 'WDIOC_KEEPALIVE &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;' \
		"$1/baseline/watchdog/index.html" &&
		grep -qF 'identity &lt;b&gt;i6300ESB&lt;/b&gt; &amp; &quot;timer&quot;' \
			"$1/baseline/watchdog/index.html" &&
		grep -qF 'XFAIL a &amp; b' "$1/baseline/watchdog/index.html" &&
		grep -qF 'tcg &lt;b&gt;&quot;probe&quot;&lt;/b&gt; &amp; more' "$1/index.html" ||
		{ echo "escaped texts missing"; return 1; }
}

ktap_plan 17

report
rc=$?
[ "$rc" = 0 ] && [ -f "$w/results/index.html" ]
ktap_ok $? "report.sh writes the front page" ||
	ktap_diag "exit status $rc: $(tail -n 5 "$w/report.out")"

out=$(links_every_boot "$w/results")
ktap_ok $? "the front page links every boot page, each links back" ||
	ktap_diag "$out"
n=$(grep -o 'href="[a-z]*/[a-z-]*/index.html"' "$w/results/index.html" | sort -u | wc -l)
[ "$n" = 4 ] && [ "$(find "$w/results" -name index.html | wc -l)" = 5 ]
ktap_ok $? "exactly the four boots have a page and a link" ||
	ktap_diag "$n distinct boot links"

ok=0 out=
while read -r k p fx; do
	o=$(lists_every_case "$w/results/$k/$p/index.html" "$fixtures/$fx.cases") ||
		{ ok=1; out="$out$o
"; }
done <<EOT
$boots
EOT
ktap_ok $ok "each boot page lists every test and case with its result" ||
	ktap_diag "$out"

out=$(marks_failing "$w/results/baseline/core/index.html" 1.2 '/dev/zero read gives zeros' &&
	marks_failing "$w/results/patched/watchdog/index.html" 1.8 WDIOC_KEEPALIVE &&
	grep -q '<th class="unfinished">unfinished' "$w/results/patched/watchdog/index.html" &&
	grep -q '<td class="xfail">xfail</td><td>XFAIL CONFIG_STRICT_DEVMEM</td>' "$w/results/patched/core/index.html")
ktap_ok $? "failing cases are marked; xfail and unfinished are shown" ||
	ktap_diag "$out"

out=$(escapes "$w/results")
ktap_ok $? "text with <script>, & and quotes from a console is escaped" ||
	ktap_diag "$out"

b=$w/results/baseline/core/index.html
grep -q "<li><span class=\"fail\">failed case</span> core/chardev: /dev/zero read gives zeros</li>" "$b" &&
	grep -q '<td>lseek/driver-lseek</td><td>lseek /dev/cpu_dma_latency 0 SEEK_SET: 0</td><td class="bad">not seen</td>' "$b" &&
	grep -q '<td>core/chardev</td><td>/dev/zero read gives zeros</td><td class="bad">seen, not recorded</td>' "$b" &&
	grep -q 'does not fail in exactly the recorded findings' "$b" &&
	grep -q 'None of them shows in this boot' "$w/results/patched/core/index.html" &&
	grep -q 'No finding is recorded' "$w/results/baseline/watchdog/index.html"
ktap_ok $? "boot pages show what failed and the findings against the boot" ||
	ktap_diag "$(grep -A8 '<h2>Findings' "$b")"

b=$w/results/baseline/watchdog/index.html
grep -q '<li><a href="console.log">console.log</a></li>' "$b" &&
	grep -q '<li><a href="ktap.txt">ktap.txt</a></li>' "$b" &&
	grep -q '<li><a href="hostcheck.log">hostcheck.log</a></li>' "$b" &&
	! grep -q 'href="hostcheck.log"' "$w/results/patched/watchdog/index.html" &&
	grep -q '<tr><th>wall</th><td>1.5 s</td></tr>' "$b" &&
	grep -q '<tr><th>accel</th><td>tcg</td></tr>' "$b" &&
	grep -q '<h2>lseek ABI, baseline to patched</h2>' "$b" &&
	grep -q 'not compared (a boot panicked before the walk)' "$b" &&
	grep -q '^<p>same</p>' "$w/results/baseline/core/index.html"
ktap_ok $? "boot pages link their logs and show wall time, accel and lseek ABI" ||
	ktap_diag "$(grep -A10 '<h2>Files' "$b")"

f=$w/results/index.html
grep -q '<td class="bad">min 2.19, median 2.40, max 3.59 (3 runs)</td><td>&lt;= 1.0</td>' "$f" &&
	grep -q '<td>ratio lab / distro bzImage (medians)</td><td class="ok">0.12</td><td>&lt;= 0.15</td>' "$f" &&
	grep -q '<td>matrix throughput, boots per second</td><td class="bad">0.29</td><td>&gt;= 1</td>' "$f" &&
	grep -q '<td>lab kernel, QEMU start to first KTAP line, KVM (s)</td><td>not measured</td><td></td>' "$f" &&
	grep -q '<td>cold build of the lab kernel and modules, ccache disabled (s)</td><td>367.0</td><td></td>' "$f" &&
	grep -q 'Not made yet (make coverage)' "$f" &&
	grep -q '<tr><th>series</th><td>1 patches applied: 1 core</td></tr>' "$f"
ktap_ok $? "the front page shows the run facts, bench figures and targets" ||
	ktap_diag "$(sed -n '/<h1>/,/<h2>Matrix/p' "$f" | head -n 20)"

printf 'drivers/<i>x</i>.c\t3 of 4\n' >"$w/results/coverage.txt"
report && grep -qF '<pre>drivers/&lt;i&gt;x&lt;/i&gt;.c	3 of 4</pre>' "$f" &&
	! grep -q 'Not made yet' "$f"
ktap_ok $? "a coverage map present is shown, escaped" ||
	ktap_diag "$(sed -n '/<h2>Coverage/,$p' "$f")"

# A boot boot.sh reused (inputs unchanged): said in the text matrix and
# on its page, with the inputs linked.
echo "2026-12-05T21:00:00Z" >"$w/results/patched/core/reused"
echo "kernel 0123" >"$w/results/patched/core/inputs"
report && grep -q '^core  *fail 1\.5s  *pass 1\.5s (reused)  *fixed' "$w/report.out" &&
	grep -qF 'Reused since the run of 2026-12-05T21:00:00Z' "$w/results/patched/core/index.html" &&
	grep -qF '<a href="inputs">inputs</a>' "$w/results/patched/core/index.html" &&
	! grep -q 'Reused' "$w/results/baseline/core/index.html"
ktap_ok $? "a reused boot is marked in the matrix and on its page" ||
	ktap_diag "$(grep '^core' "$w/report.out")"
rm "$w/results/patched/core/reused" "$w/results/patched/core/inputs"
report

# A page is written again only when what it is made from changed: its
# boot's files, the lseek comparison, the patches applied, the scripts.
# A page marked stale stays while nothing changed and goes once the
# boot's verdict or the applied list changes.
pg=$w/results/patched/watchdog/index.html
stale() { echo "stale page" >"$pg"; }
stale && report && grep -qx 'stale page' "$pg"
ktap_ok $? "a page whose inputs did not change is not written again" ||
	ktap_diag "$(head -n 3 "$pg")"
sed -i 's/^wall=1.5$/wall=1.6/' "$w/results/patched/watchdog/verdict"
report && grep -q '<tr><th>wall</th><td>1.6 s</td></tr>' "$pg" &&
	stale && report && grep -qx 'stale page' "$pg" &&
	echo "core/0000-none.patch" >>"$w/build/kernel/patched/applied" &&
	report && ! grep -qx 'stale page' "$pg"
ktap_ok $? "a changed verdict or applied list writes the page again" ||
	ktap_diag "$(head -n 3 "$pg")"
sed -i '$d' "$w/build/kernel/patched/applied"
sed -i 's/^wall=1.6$/wall=1.5/' "$w/results/patched/watchdog/verdict"
report

# The same checks on broken copies: each must fail.
cp -r "$w/results" "$w/broken"
sed -i 's|href="patched/watchdog/index.html"|href="patched/watchdog/console.log"|' "$w/broken/index.html"
! links_every_boot "$w/broken" >/dev/null
ktap_ok $? "a missing boot link is caught"

b=$w/broken/baseline/core/index.html
sed -i '/<td class="num">3.4<\/td>/d' "$b"
! lists_every_case "$b" "$fixtures/nested-fail.cases" >/dev/null
ktap_ok $? "a missing case row is caught"

sed -i 's/<tr id="c1.2" class="failing">/<tr id="c1.2">/' "$b"
! marks_failing "$b" 1.2 '/dev/zero read gives zeros' >/dev/null
ktap_ok $? "an unmarked failing case is caught"

sed -i 's|WDIOC_KEEPALIVE &lt;script&gt;|WDIOC_KEEPALIVE <script>|' "$w/broken/baseline/watchdog/index.html"
! escapes "$w/broken" >/dev/null
ktap_ok $? "raw <script> in a page is caught"

ktap_done
