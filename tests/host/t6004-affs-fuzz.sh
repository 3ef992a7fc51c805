#!/bin/sh
# t6004-affs-fuzz: tools/affs/affs-fuzz, the generator of the affs-fuzz profile.
#   - the same seed gives the same image and index, byte for byte; another
#     seed gives other bytes;
#   - the BKLFUZZ1 header holds count, stride, size and offset, the file is
#     exactly offset + count * stride long, every image starts with a DOS
#     boot block at its stride, and the header and the index describe each
#     image (flavours in turn, at least one mutation);
#   - --extract N gives back image N byte for byte;
#   - AFFS_FUZZ_COUNT replaces COUNT, and the images it keeps are the same;
#   - AFFS_FUZZ_SEED replaces SEED;
#   - a failing mkfs.affs (the sibling of the binary) fails the run, with
#     its message, and leaves no image behind;
#   - bad arguments exit 2 with one error line and the usage;
#   - --recipes writes exactly the images of tests/data/affs-crash/recipes,
#     in its order: recipe image i is byte for byte --extract of image N of
#     its seed, the same run twice gives the same bytes, and a relative
#     recipes path is found from the program's place (build/tools/../../)
#     outside the repository;
#   - a bad recipes file (missing, empty, malformed, naming an image the
#     generator does not make) fails with status 1, one clear error line
#     and no image;
#   - crafted recipes (tests/data/affs-crash/recipes-link-leak and
#     recipes-loops): the same bytes
#     each run, one index line "(NAME: crafted)" with the unlink= word per
#     image, and fsck.affs finds each image inconsistent; an unknown
#     crafted mutation or flavour is an error.
# Nothing is printed on stdout.
. "$TOP/tests/host/ktap.sh"

fuzz=$TOOLS/affs-fuzz
w=$TMPDIR/t6004
rm -rf "$w" && mkdir -p "$w/a" "$w/b" "$w/c" "$w/fake" ||
	ktap_bail "cannot make '$w'"
[ -x "$fuzz" ] && [ -x "$TOOLS/mkfs.affs" ] ||
	ktap_bail "build the tools first: make tools"
MIB=1048576

ktap_plan 22

(cd "$w/a" && "$fuzz" fuzz.img 0 12 7) >"$w/out" 2>"$w/err"
rc=$?
[ "$rc" = 0 ] && [ ! -s "$w/out" ] && [ ! -s "$w/err" ]
ktap_ok $? "12 images, seed 7: status 0, nothing printed" ||
	ktap_diag "status $rc: $(cat "$w/out" "$w/err")"

(cd "$w/b" && "$fuzz" fuzz.img 0 12 7) 2>"$w/err"
cmp -s "$w/a/fuzz.img" "$w/b/fuzz.img" &&
	cmp -s "$w/a/fuzz.img.index" "$w/b/fuzz.img.index"
ktap_ok $? "the same seed gives the same image and index"

(cd "$w/c" && "$fuzz" fuzz.img 0 12 8) 2>"$w/err"
n_same=0 i=0
while [ $i -lt 12 ]; do
	"$fuzz" --extract "$w/a/fuzz.img" $i "$w/x7" &&
		"$fuzz" --extract "$w/c/fuzz.img" $i "$w/x8" &&
		cmp -s "$w/x7" "$w/x8" && n_same=$((n_same + 1))
	i=$((i + 1))
done
! cmp -s "$w/a/fuzz.img" "$w/c/fuzz.img" && [ "$n_same" -le 2 ]
ktap_ok $? "another seed gives other images ($n_same of 12 equal)"

head -n 1 "$w/a/fuzz.img" >"$w/head"
printf 'BKLFUZZ1 count=12 stride=%s size=%s offset=%s seed=7\n' \
	$MIB $MIB $MIB | cmp -s - "$w/head"
ktap_ok $? "header: count, stride, size, offset, seed" ||
	ktap_diag "got: $(cat "$w/head")"

size=$(wc -c <"$w/a/fuzz.img")
[ "$size" = $((MIB + 12 * MIB)) ]
ktap_ok $? "the file is offset + count * stride bytes" ||
	ktap_diag "size $size"

bad=
i=0
while [ $i -lt 12 ]; do
	sig=$(dd if="$w/a/fuzz.img" bs=$MIB skip=$((1 + i)) count=1 2>/dev/null |
		head -c 3)
	[ "$sig" = DOS ] || bad="$bad $i"
	i=$((i + 1))
done
[ -z "$bad" ]
ktap_ok $? "every image starts with a DOS boot block at its stride" ||
	ktap_diag "images without:$bad"

# The header region's description lines and the index's agree, name the
# flavours in turn and hold at least one mutation each.
awk 'NR == 1 || !NF { next } /^\0/ { exit } { print }' "$w/a/fuzz.img" |
	tr -d '\000' | grep -v '^$' | head -n 12 >"$w/desc"
sed 1d "$w/a/fuzz.img.index" >"$w/index"
awk 'BEGIN { split("ofs ffs ofs-i ffs-i ofs-d ffs-d", f) }
	$1 != NR - 1 || $2 != f[(NR - 1) % 6 + 1] || NF < 3 { bad = 1 }
	END { exit bad || NR != 12 }' "$w/index" &&
	cmp -s "$w/desc" "$w/index" &&
	head -n 1 "$w/a/fuzz.img.index" | grep -q '^# BKLFUZZ1 count=12 '
ktap_ok $? "index and header lines: image, flavour in turn, mutations" ||
	ktap_diag "$(diff "$w/desc" "$w/index" | head -n 5)"

"$fuzz" --extract "$w/a/fuzz.img" 5 "$w/five.adf" 2>"$w/err" &&
	dd if="$w/a/fuzz.img" bs=$MIB skip=6 count=1 2>/dev/null |
	cmp -s - "$w/five.adf"
ktap_ok $? "--extract 5 gives back image 5 byte for byte" ||
	ktap_diag "$(cat "$w/err")"

"$fuzz" --extract "$w/a/fuzz.img" 12 "$w/none.adf" 2>"$w/err"
rc=$?
[ "$rc" = 1 ] && [ ! -e "$w/none.adf" ] &&
	grep -q "^error: no image 12 in '.*' (it holds 12)" "$w/err"
ktap_ok $? "--extract of an image past the count fails" ||
	ktap_diag "status $rc: $(cat "$w/err")"

rm -rf "$w/b" && mkdir "$w/b"
(cd "$w/b" && AFFS_FUZZ_COUNT=3 "$fuzz" fuzz.img 0 12 7) 2>"$w/err"
ok=$?
head -n 1 "$w/b/fuzz.img" | grep -q '^BKLFUZZ1 count=3 ' &&
	[ "$(wc -c <"$w/b/fuzz.img")" = $((4 * MIB)) ] || ok=1
for i in 0 1 2; do
	"$fuzz" --extract "$w/b/fuzz.img" $i "$w/y" &&
		"$fuzz" --extract "$w/a/fuzz.img" $i "$w/x" &&
		cmp -s "$w/x" "$w/y" || ok=1
done
ktap_ok $ok "AFFS_FUZZ_COUNT=3 replaces the count, same images" ||
	ktap_diag "$(cat "$w/err")"

rm -rf "$w/s" && mkdir "$w/s"
(cd "$w/s" && AFFS_FUZZ_SEED=7 "$fuzz" fuzz.img 0 3 1) 2>"$w/err"
ok=$?
head -n 1 "$w/s/fuzz.img" | grep -q '^BKLFUZZ1 count=3 .* seed=7$' || ok=1
for i in 0 1 2; do
	"$fuzz" --extract "$w/s/fuzz.img" $i "$w/y" &&
		"$fuzz" --extract "$w/a/fuzz.img" $i "$w/x" &&
		cmp -s "$w/x" "$w/y" || ok=1
done
ktap_ok $ok "AFFS_FUZZ_SEED=7 replaces the seed, same images as seed 7" ||
	ktap_diag "$(cat "$w/err"; head -c 80 "$w/s/fuzz.img")"

# A copy of the binary whose sibling mkfs.affs fails.
cp "$fuzz" "$w/fake/affs-fuzz"
printf '#!/bin/sh\necho "error: fake mkfs failure" >&2\nexit 1\n' \
	>"$w/fake/mkfs.affs"
chmod +x "$w/fake/mkfs.affs"
(cd "$w/c" && "$w/fake/affs-fuzz" f.img 0 3 1) >"$w/out" 2>"$w/err"
rc=$?
left=$(cd "$w/c" && ls f.img* 2>/dev/null)
[ "$rc" = 1 ] && [ -z "$left" ] && [ ! -s "$w/out" ] &&
	grep -q '^error: fake mkfs failure$' "$w/err" &&
	grep -q "^error: '.*/fake/mkfs.affs' failed for flavour ofs (status 1)$" \
		"$w/err"
ktap_ok $? "a failing mkfs.affs fails the run and leaves no image" ||
	ktap_diag "status $rc, left '$left': $(cat "$w/err")"

rm "$w/fake/mkfs.affs"
(cd "$w/c" && "$w/fake/affs-fuzz" f.img 0 3 1) >"$w/out" 2>"$w/err"
rc=$?
[ "$rc" = 1 ] && [ -z "$(cd "$w/c" && ls f.img* 2>/dev/null)" ] &&
	grep -q "^error: cannot run '.*/fake/mkfs.affs': " "$w/err"
ktap_ok $? "a missing mkfs.affs fails the run" ||
	ktap_diag "status $rc: $(cat "$w/err")"

# usage STATUS MESSAGE ARGS...: affs-fuzz ARGS exits 2 with MESSAGE and
# the usage lines, and makes nothing.
usage_case() {
	msg=$1
	shift
	(cd "$w/c" && "$fuzz" "$@") >"$w/out" 2>"$w/err"
	rc=$?
	[ "$rc" = 2 ] && [ "$(head -n 1 "$w/err")" = "error: $msg" ] &&
		sed -n 2p "$w/err" | grep -q '^usage: affs-fuzz IMAGE MIB COUNT SEED$' &&
		[ ! -s "$w/out" ] && [ -z "$(cd "$w/c" && ls u.img* 2>/dev/null)" ] &&
		return 0
	ktap_diag "affs-fuzz $*: status $rc: $(cat "$w/err")"
	return 1
}
ok=0
usage_case "expected IMAGE MIB COUNT SEED, got 0 arguments" || ok=1
usage_case "expected IMAGE MIB COUNT SEED, got 3 arguments" u.img 0 5 || ok=1
usage_case "bad count 'x' (expected 0 to 100000)" u.img 0 x 1 || ok=1
usage_case "bad count '0' (expected 1 to 100000)" u.img 0 0 1 || ok=1
usage_case "bad size in MiB '17' (expected 0 to 16)" u.img 17 5 1 || ok=1
usage_case "bad seed '-1' (expected 0 to 18446744073709551615)" \
	u.img 0 5 -1 || ok=1
usage_case "unknown option '-x'" -x || ok=1
usage_case "--extract takes IMAGE N OUT" --extract u.img 1 || ok=1
usage_case "--recipes takes IMAGE MIB --recipes RECIPES" u.img 0 --recipes ||
	ok=1
usage_case "bad size in MiB 'x' (expected 0 to 16)" u.img x --recipes r ||
	ok=1
ktap_ok $ok "bad arguments exit 2 with a message and the usage"

(cd "$w/c" && AFFS_FUZZ_COUNT=lots "$fuzz" u.img 0 5 1) 2>"$w/err"
rc=$?
[ "$rc" = 2 ] && grep -q "^error: bad AFFS_FUZZ_COUNT 'lots' (expected 0 to 100000)$" "$w/err"
ktap_ok $? "a bad AFFS_FUZZ_COUNT exits 2" || ktap_diag "status $rc: $(cat "$w/err")"

# --recipes: the crash recipes of the repository, by absolute path.
recipes=$TOP/tests/data/affs-crash/recipes
rm -rf "$w/r" && mkdir -p "$w/r/x" "$w/r/y"
(cd "$w/r/x" && AFFS_FUZZ_COUNT=2 "$fuzz" crash.img 0 --recipes "$recipes") \
	>"$w/out" 2>"$w/err"
rc=$?
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$recipes" | awk '{ print $1, $2, $3 }' \
	>"$w/r/list"
nr=$(wc -l <"$w/r/list")
head -n 1 "$w/r/x/crash.img" >"$w/r/head"
[ "$rc" = 0 ] && [ ! -s "$w/out" ] && [ ! -s "$w/err" ] && [ "$nr" -ge 5 ] &&
	printf 'BKLFUZZ1 count=%s stride=%s size=%s offset=%s seed=0 recipes\n' \
		"$nr" $MIB $MIB $MIB | cmp -s - "$w/r/head"
ktap_ok $? "--recipes: status 0, nothing printed, a header for every recipe" ||
	ktap_diag "status $rc, $nr recipes: $(cat "$w/out" "$w/err" "$w/r/head")"

# Image i is image N of seed S, byte for byte, and its index line says so.
bad=
# Each seed's images up to the highest one a recipe names.
awk '{ if ($3 + 1 > m[$2]) m[$2] = $3 + 1 } END { for (s in m) print s, m[s] }' \
	"$w/r/list" >"$w/r/seeds"
while read -r seed count; do
	mkdir -p "$w/r/s$seed" &&
		(cd "$w/r/s$seed" && "$fuzz" fuzz.img 0 "$count" "$seed") ||
		bad="$bad seed-$seed"
done <"$w/r/seeds"
i=0
while read -r name seed n; do
	"$fuzz" --extract "$w/r/s$seed/fuzz.img" "$n" "$w/r/want.adf" &&
		"$fuzz" --extract "$w/r/x/crash.img" $i "$w/r/got.adf" &&
		cmp -s "$w/r/want.adf" "$w/r/got.adf" || bad="$bad $name"
	grep -q "^$i .* ($name: seed $seed image $n)\$" "$w/r/x/crash.img.index" ||
		bad="$bad $name(index)"
	i=$((i + 1))
done <"$w/r/list"
[ -z "$bad" ] && [ "$(wc -c <"$w/r/x/crash.img")" = $((MIB + nr * MIB)) ] &&
	[ "$(sed 1d "$w/r/x/crash.img.index" | wc -l)" = "$i" ]
ktap_ok $? "--recipes: image i is --extract of its seed's image N, in order" ||
	ktap_diag "wrong:$bad"

# Deterministic, and the repository's relative path is found from the
# program's place when the current directory is elsewhere (as in a boot's
# results directory).
(cd "$w/r/y" && env -u TOP "$fuzz" crash.img 0 --recipes \
	tests/data/affs-crash/recipes) 2>"$w/err"
cmp -s "$w/r/x/crash.img" "$w/r/y/crash.img" &&
	cmp -s "$w/r/x/crash.img.index" "$w/r/y/crash.img.index"
ktap_ok $? "--recipes: a relative path from elsewhere, the same bytes" ||
	ktap_diag "$(cat "$w/err")"

# recipe_error MESSAGE-RE RECIPES-TEXT: status 1, that one error line, no
# image left.
recipe_error() {
	printf '%s' "$2" >"$w/r/bad"
	(cd "$w/c" && "$fuzz" r.img 0 --recipes "$w/r/bad") >"$w/out" 2>"$w/err"
	rc=$?
	[ "$rc" = 1 ] && [ "$(wc -l <"$w/err")" = 1 ] && [ ! -s "$w/out" ] &&
		grep -q "^error: $1\$" "$w/err" &&
		[ -z "$(cd "$w/c" && ls r.img* 2>/dev/null)" ] && return 0
	ktap_diag "recipes '$2': status $rc: $(cat "$w/err")"
	return 1
}
ok=0
bf="'.*/r/bad'"
recipe_error "$bf line 2: recipe 'x' is image 1 of seed 1, which is 'ffs .*', not 'ofs flip:1'" \
	"# comment
x	1	1	ofs flip:1
" || ok=1
recipe_error "$bf line 1: recipe 'x' is image 37 of seed 1, which is 'ffs link-self:1217@472=0x4c1', not 'ffs link-self:1217@472=0x4c2'" \
	"x 1 37 ffs link-self:1217@472=0x4c2" || ok=1
recipe_error "$bf line 1: expected NAME SEED N FLAVOUR MUTATION..." \
	"x 1 37
" || ok=1
recipe_error "$bf line 2: bad image number 'seven' (expected 0 to 99999)" \
	"x 1 37 ffs link-self:1217@472=0x4c1
y 1 seven ffs x" || ok=1
recipe_error "$bf line 2: recipe 'x' again (first on line 1)" \
	"x 1 37 ffs link-self:1217@472=0x4c1
x 1 37 ffs link-self:1217@472=0x4c1" || ok=1
recipe_error "$bf holds no recipe" "# nothing
" || ok=1
ktap_ok $ok "a bad recipes file fails with one clear error and no image"

(cd "$w/c" && env -u TOP "$fuzz" r.img 0 --recipes no/such/recipes) \
	>"$w/out" 2>"$w/err"
rc=$?
[ "$rc" = 1 ] && grep -q "^error: cannot open recipes 'no/such/recipes': " "$w/err" &&
	[ -z "$(cd "$w/c" && ls r.img* 2>/dev/null)" ]
ktap_ok $? "a missing recipes file fails" || ktap_diag "status $rc: $(cat "$w/err")"

# Crafted recipes: deterministic, described, and corrupted.
rm -rf "$w/l" && mkdir -p "$w/l/x" "$w/l/y"
loops=$w/l/recipes
cat "$TOP/tests/data/affs-crash/recipes-link-leak" \
	"$TOP/tests/data/affs-crash/recipes-loops" >"$loops"
(cd "$w/l/x" && "$fuzz" loops.img 0 --recipes "$loops") >"$w/out" 2>"$w/err"
rc=$?
(cd "$w/l/y" && "$fuzz" loops.img 0 --recipes "$loops") 2>>"$w/err"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$loops" | awk '{ print $1 }' \
	>"$w/l/list"
bad=
i=0
while read -r name; do
	grep -q "^$i .* unlink=[^ ]* .*($name: crafted)\$" \
		"$w/l/x/loops.img.index" || bad="$bad $name(index)"
	"$fuzz" --extract "$w/l/x/loops.img" $i "$w/l/i.adf" || bad="$bad $name"
	"$TOOLS/fsck.affs" "$w/l/i.adf" >/dev/null
	[ $? = 1 ] || bad="$bad $name(fsck)"
	i=$((i + 1))
done <"$w/l/list"
[ "$rc" = 0 ] && [ ! -s "$w/out" ] && [ ! -s "$w/err" ] && [ "$i" -ge 4 ] &&
	[ -z "$bad" ] && cmp -s "$w/l/x/loops.img" "$w/l/y/loops.img" &&
	cmp -s "$w/l/x/loops.img.index" "$w/l/y/loops.img.index"
ktap_ok $? "crafted recipes: the same bytes twice, described, fsck.affs finds each corrupted" ||
	ktap_diag "status $rc, $i images, wrong:$bad: $(cat "$w/out" "$w/err")"
ok=0
recipe_error "$bf line 1: unknown crafted mutation 'no-such'" \
	"x crafted ffs no-such" || ok=1
recipe_error "$bf line 1: unknown flavour 'hfs'" \
	"x crafted hfs ext-self" || ok=1
ktap_ok $ok "a crafted recipe with an unknown mutation or flavour fails"
ktap_done
