#!/bin/sh
# scripts/lab/config.sh on the real 6.1 tree: a profile asking for an option
# whose dependencies nobody enables must stop with an error naming the
# option and the profile it came from; the same profile with the
# dependencies added is accepted.
. "$TOP/tests/host/ktap.sh"
ktap_plan 3

pristine="$BUILD/pristine"
if [ ! -f "$pristine/Makefile" ]; then
	ktap_bail "no kernel tree in '$pristine': run 'make tree'"
fi
w="$TMPDIR/t2001"
rm -rf "$w"
mkdir -p "$w/top/qemu-devices" "$w/build/kernel/baseline"
cp -r "$TOP/kconfig" "$w/top/"
ln -s "$pristine" "$w/build/kernel/baseline/src"
cat >"$w/top/qemu-devices/impossible.profile" <<'EOT'
description=asks for vivid without the media core or a frame buffer
tests=core/chardev
timeout=10
kconfig=CONFIG_VIDEO_VIVID=y
EOT

config() {
	TOP="$w/top" BUILD="$w/build" KTREES="$w/build/kernel" TOOLS="$TOOLS" sh "$TOP/scripts/lab/config.sh" baseline
}

config >/dev/null 2>"$w/err"
ktap_ok $((! $?)) "config with an impossible option fails"
ktap_diag "$(head -n 1 "$w/err")"
grep -q "^error: CONFIG_VIDEO_VIVID=y from qemu-devices/impossible.profile is not set after allnoconfig" "$w/err"
ktap_ok $? "the error names the option and its profile"

cat >>"$w/top/qemu-devices/impossible.profile" <<'EOT'
kconfig=CONFIG_MEDIA_SUPPORT=y
kconfig=CONFIG_MEDIA_TEST_SUPPORT=y
kconfig=CONFIG_VIDEO_DEV=y
kconfig=CONFIG_V4L_TEST_DRIVERS=y
kconfig=CONFIG_FB=y
EOT
config >/dev/null 2>"$w/err" && grep -qx CONFIG_VIDEO_VIVID=y "$w/build/kernel/baseline/obj/.config"
ktap_ok $? "with its dependencies the option is kept"
ktap_done
