#!/bin/sh
# The V4L2_EVENT_DISCONNECT example in docs/v4l2.md compiles as shown, so the
# documentation application writers copy from stays true.
. "$TOP/tests/host/ktap.sh"
ktap_plan 2

w="$TMPDIR/t5000"
rm -rf "$w"
mkdir -p "$w"
awk '/^# V4L2: learning/ { in_sec = 1 } in_sec && /^```c$/ { code = 1; next }
	code && /^```$/ { exit } code { print }' "$TOP/docs/v4l2.md" >"$w/example.c"
grep -q 'V4L2_EVENT_DISCONNECT' "$w/example.c" && grep -q 'VIDIOC_DQEVENT' "$w/example.c"
ktap_ok $? "the example is found in docs/v4l2.md"
cc -std=gnu11 -Wall -Wextra -Werror -Wno-missing-prototypes -c "$w/example.c" \
	-o "$w/example.o" 2>"$w/err"
ktap_ok $? "it compiles with -Wall -Wextra -Werror" || ktap_diag "$(cat "$w/err")"
ktap_done
