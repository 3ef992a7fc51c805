#!/bin/sh
# t5002-readme-profile-example: the examples of README.md work as shown.
# The profile of "Adding a device profile" parses with tools/lab/profile
# (comments on their own lines: an inline '# ...' after a value would be
# part of the value), and every make target README.md names, in a shell
# block or as `make TARGET`, is a target of the Makefile. The V4L2 example
# of docs/v4l2.md is t5000's.
. "$TOP/tests/host/ktap.sh"
ktap_plan 4

w="$TMPDIR/t5002"
rm -rf "$w"
mkdir -p "$w"

awk '/^1\. Create `qemu-devices\/<name>\.profile`:/ { on = 1; next }
	on && /^   ```$/ { if (code) exit; code = 1; next }
	code { sub(/^   /, ""); print }' "$TOP/README.md" >"$w/example.profile"
grep -q '^tests=' "$w/example.profile"
ktap_ok $? "the profile example is found in README.md"

"$TOOLS/profile" "$w/example.profile" >"$w/out" 2>"$w/err"
ktap_ok $? "tools/lab/profile accepts it" || ktap_diag "$(cat "$w/err")"

got=$("$TOOLS/profile" "$w/example.profile" qemu; "$TOOLS/profile" \
	"$w/example.profile" image; "$TOOLS/profile" "$w/example.profile" timeout)
[ "$got" = "-device i6300esb
disk.img 8
ffs.img 16 affs-image ffs
60" ]
ktap_ok $? "its values are the ones the comments describe, with no comment in them" ||
	ktap_diag "got: $got"

# Targets README.md names: `make TARGET` in the text, "make TARGET" at the
# start of a line in a fenced block.
awk '/^ *```/ { code = !code; next }
	code && /^ *make [a-z]/ { sub(/^ *make /, ""); sub(/[^a-z-].*/, ""); print; next }
	{ s = $0
	  while (match(s, /`make [a-z][a-z-]*/)) {
		print substr(s, RSTART + 6, RLENGTH - 6)
		s = substr(s, RSTART + RLENGTH)
	  } }' "$TOP/README.md" | sort -u >"$w/named"
sed -n 's/^\([a-z][a-z-]*\):.*/\1/p' "$TOP/Makefile" | sort -u >"$w/targets"
missing=$(comm -23 "$w/named" "$w/targets")
[ -s "$w/named" ] && [ -z "$missing" ]
ktap_ok $? "every make target README.md names ($(wc -l <"$w/named")) is in the Makefile" ||
	ktap_diag "not in the Makefile: $missing"

ktap_done
