#!/bin/sh
# The committed staging-move patches are exactly what
# scripts/staging/staging-move-regen.sh produces from the pristine tree: the pure
# moves stay pure renames and nobody hand-edits a generated patch.
. "$TOP/tests/host/ktap.sh"
ktap_plan 1

[ -f "$BUILD/pristine/Makefile" ] || ktap_bail "no kernel tree: run 'make tree'"
out=$(BUILD="$BUILD" sh "$TOP/scripts/staging/staging-move-regen.sh" --check 2>&1)
ktap_ok $? "patches/staging-move matches its regeneration" || ktap_diag "$out"
ktap_done
