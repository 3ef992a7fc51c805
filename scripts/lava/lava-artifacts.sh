#!/bin/sh
# lava-artifacts.sh TSV DIR: makes in DIR every file the LAVA jobs
# download, as artifacts.tsv (written by lava-jobs.sh) lists them:
# "kernel K bzImage" (a copy of the built kernel), "initrd K P" (the boot's
# initramfs, made as boot.sh makes it) and "image NAME MIB [MAKER ARG...]"
# (the profile's image=, made as boot.sh makes it). DIR is what the
# artifact server of lava-submit.sh serves. docs/lava.md.
. "$(dirname "$0")/../lab/lib.sh"

tsv=${1:?usage: lava-artifacts.sh ARTIFACTS.tsv DIR}
dir=${2:?usage: lava-artifacts.sh ARTIFACTS.tsv DIR}
need_file "$tsv" "run 'make lava-jobs' first"
rm -rf "$dir"
mkdir -p "$dir"
while IFS='	' read -r path what; do
	mkdir -p "$dir/${path%/*}"
	# shellcheck disable=SC2086 # WHAT is words
	set -- $what
	case $1 in
	kernel)
		need_file "$KTREES/$2/$3" "run 'make build KERNELS=$2' first"
		cp "$KTREES/$2/$3" "$dir/$path"
		;;
	initrd)
		profile_initrd "$2" "$3" "$dir/$path" || exit 1
		rm -f "$dir/$path".*
		;;
	image)
		# From the file's directory: the makers write NAME there.
		(
			cd "$dir/${path%/*}" || exit 1
			if [ -z "${4:-}" ]; then
				"$TOOLS/mkpattern" "$2" "$3"
			else
				_mk=$4
				shift 4
				"$TOOLS/$_mk" "$2" "$3" "$@"
			fi
		) || die "cannot make image '$path' ($what)"
		;;
	*) die "artifacts.tsv: unknown artifact '$what' for '$path'" ;;
	esac
done <"$tsv"
progress lava "$(wc -l <"$tsv") artifact(s) in $dir"
