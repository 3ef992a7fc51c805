#!/bin/sh
# Extract Debian's linux-source-6.1 into build/pristine, once. Nothing ever
# builds or patches in this tree: the kernel variants are hard-link copies,
# and patch(1) replaces the files it changes instead of writing through the
# shared inode.
. "$(dirname "$0")/lib.sh"

stamp="$PRISTINE/.bklfree-extracted"
version=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null)
[ -f "$TARBALL" ] ||
	die "'$TARBALL' is missing: apt-get install linux-source-6.1 (or run 'make deps')"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ]; then
	exit 0
fi

start=$(now)
tmp="$BUILD/pristine.tmp"
rm -rf "$tmp" "$PRISTINE" "$KTREES"
mkdir -p "$tmp"
tar -xJf "$TARBALL" -C "$tmp" || die "cannot extract '$TARBALL'"
{ mv "$tmp/linux-source-6.1" "$PRISTINE" && rmdir "$tmp"; } ||
	die "unexpected layout in '$TARBALL'"
echo "$version" >"$stamp"
progress tree "linux-source-6.1 $version extracted in $(elapsed "$start") s"
