#!/bin/sh
# t5001-folder-readmes: every tracked file is named in the README.md of its
# folder, so a newcomer finds any piece from the READMEs alone.
#
# The rule: a tracked file belongs to the nearest folder above it (its own
# folder first, the top last) that has a tracked README.md, and that README
# names it, by its path from the README's folder or by its file name, as a
# whole word (`report.sh` does not name `report`). A README excuses a data
# folder below it with a line starting "Not listed here:" that names the
# folder in backquotes with a trailing slash (`host/fixtures/`); nothing
# below an excused folder is checked.
#
# The negative cases run the same check on a copy of the READMEs with a
# file added, and with an excusing line taken away.
. "$TOP/tests/host/ktap.sh"

# unlisted ROOT: reads tracked paths (relative to ROOT) on stdin, prints
# "README: FILE" for each file its README does not name.
unlisted() {
	awk -v root="$1" '
	function dirof(p) { return p ~ /\// ? substr(p, 1, match(p, /\/[^\/]*$/) - 1) : "" }
	function readme(d) { return (d == "" ? "" : d "/") "README.md" }
	function load(r,   f, line, rest, x) {
		if (r in loaded)
			return
		loaded[r] = 1
		f = root "/" r
		text[r] = ""
		while ((getline line < f) > 0) {
			text[r] = text[r] "\n" line
			if (line !~ /^Not listed here:/)
				continue
			rest = line
			while (match(rest, /`[^`]*\/`/)) {
				x = substr(rest, RSTART + 1, RLENGTH - 2)
				excused[r, x] = 1
				rest = substr(rest, RSTART + RLENGTH)
			}
		}
		close(f)
		text[r] = text[r] "\n"
	}
	# named(TEXT, NAME): NAME stands in TEXT as a whole word.
	function named(t, n,   i, s, before, after, after2) {
		s = t
		while ((i = index(s, n)) > 0) {
			before = substr(s, i - 1, 1)
			after = substr(s, i + length(n), 1)
			after2 = substr(s, i + length(n) + 1, 1)
			if (before !~ /[A-Za-z0-9_.-]/ && after !~ /[A-Za-z0-9_\/-]/ &&
			    !(after == "." && after2 ~ /[A-Za-z0-9]/))
				return 1
			s = substr(s, i + length(n))
		}
		return 0
	}
	{ file[NR] = $0; tracked[$0] = 1 }
	END {
		for (i = 1; i <= NR; i++) {
			p = file[i]
			d = dirof(p)
			# the nearest folder with a tracked README.md
			for (;;) {
				if (readme(d) in tracked)
					break
				if (d == "") { d = "-"; break }
				d = dirof(d)
			}
			if (d == "-")
				continue
			r = readme(d)
			if (p == r)
				continue
			rel = d == "" ? p : substr(p, length(d) + 2)
			load(r)
			skip = 0
			sub_ = rel
			while (sub_ ~ /\//) {
				sub_ = dirof(sub_)
				if ((r, sub_ "/") in excused) { skip = 1; break }
			}
			if (skip)
				continue
			base = rel
			sub(/.*\//, "", base)
			if (!named(text[r], rel) && !named(text[r], base))
				print r ": " p
		}
	}'
}

if ! git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	ktap_plan 1
	ktap_skip "not a git checkout" "folder READMEs"
	exit 0
fi

ktap_plan 4
w="$TMPDIR/t5001"
rm -rf "$w"
mkdir -p "$w"

git -C "$TOP" ls-files >"$w/files"
unlisted "$TOP" <"$w/files" >"$w/out"
[ -s "$w/files" ] && [ ! -s "$w/out" ]
ktap_ok $? "every tracked file is named in its folder's README.md" ||
	ktap_diag "not named (README: file):
$(head -n 40 "$w/out")"

# The negative cases: a copy of every README.md.
grep 'README\.md$' "$w/files" | while read -r r; do
	mkdir -p "$w/copy/$(dirname "$r")"
	cp "$TOP/$r" "$w/copy/$r"
done

{ cat "$w/files"; echo scripts/lab/new-stage.sh; echo scripts/lab/deps.s; } |
	unlisted "$w/copy" | sort >"$w/out"
[ "$(cat "$w/out")" = "scripts/README.md: scripts/lab/deps.s
scripts/README.md: scripts/lab/new-stage.sh" ]
ktap_ok $? "a file its README does not name is caught, a longer name is no match" ||
	ktap_diag "got: $(cat "$w/out")"

{ cat "$w/files"; echo docs/new-notes.md; echo .ci/new-job; } |
	unlisted "$w/copy" | sort >"$w/out"
[ "$(cat "$w/out")" = "README.md: .ci/new-job
README.md: docs/new-notes.md" ]
ktap_ok $? "a file in a folder without README.md falls to the README above it" ||
	ktap_diag "got: $(cat "$w/out")"

grep -v '^Not listed here:' "$TOP/tests/README.md" >"$w/copy/tests/README.md"
unlisted "$w/copy" <"$w/files" >"$w/out"
grep -q '^tests/README.md: tests/host/fixtures/' "$w/out"
ktap_ok $? "without its 'Not listed here:' line a data folder's files are caught" ||
	ktap_diag "got: $(head -n 5 "$w/out")"

ktap_done
