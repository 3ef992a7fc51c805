# bklfree: the one entry point. README.md explains every target.
#
#   make                 deps, tree, apply, build both kernels, boot every
#                        profile on both, print the report, write
#                        results/kcidb.json
#   make check           every test; ends with "N passed, N failed"
#   make check-host      the host tests only, no kernel build
#   make check-llseek    the llseek series against the whole tree
#   make apply SERIES=core          take one series only
#   make apply SUBSYS=media         one subsystem's patches of all three
#                        series (patches/subsystems.tsv); make build and
#                        make boot keep the last apply's selection
#   make boot PROFILES=usb-hid KERNELS=patched
#   make boot SUBSYS=media          the profiles that exercise media's
#                        files (docs/coverage.tsv), then their report
#   make postings        per-subsystem mail series in results/postings/
#   make bench           build and boot figures (not tests)
#   make staging-report  drivers/staging of the patched tree, text and JSON
#   make fuzz-affs       mount and walk FUZZ_COUNT corrupted AFFS images
#   make coverage        the runtime coverage map of the touched files
#   make lava-jobs       a LAVA job per profile and kernel, schema-checked
#   make lava-up         a LAVA instance on 127.0.0.1 (make lava-down ends it)
#   make lava-submit PROFILES=core   its boots, compared with the lab's
#   make kcidb           results/kcidb.json, the boots in KCIDB's schema

SHELL := /bin/sh
TOP := $(CURDIR)
BUILD := $(TOP)/build
RESULTS := $(TOP)/results
export TOP BUILD RESULTS

# SERIES empty: the selection the last apply recorded (every series when
# none is); SERIES=all takes every series. SUBSYS=NAME: one subsystem.
SERIES ?=
SUBSYS ?=
KERNELS ?= baseline patched
# With SUBSYS, scripts/lab/profiles.sh chooses the profiles.
PROFILES ?= $(if $(SUBSYS),,$(sort $(basename $(notdir $(wildcard qemu-devices/*.profile)))))
export SERIES SUBSYS KERNELS PROFILES

HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -Itools
GUEST_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static -s -Itests/guest

# Host tools live by job in tools/<group>/ (lab, affs); every binary lands
# flat in build/tools/<name>, which profiles and scripts call by name.
TOOL_GROUPS := lab affs kcidb
HOST_TOOLS := $(foreach g,$(TOOL_GROUPS),\
	$(patsubst tools/$(g)/%.c,$(BUILD)/tools/%,$(wildcard tools/$(g)/*.c)))
GUEST_TESTS := $(patsubst tests/guest/%.c,$(BUILD)/guest/tests/%,\
	$(wildcard tests/guest/*/*.c))

.PHONY: all deps tree apply config build tools guest kselftests initramfs boot report \
	check check-host check-llseek bench clean llseek-report regen staging-report staging-move-regen \
	fuzz-affs coverage lava-jobs lava-up lava-down lava-submit check-lava kcidb postings

# make alone takes every series, whatever the last apply recorded. The
# KCIDB document reads the boots' results as the report does and writes
# apart from it: it is made beside the report (after the coverage map,
# which may write docs/coverage.tsv, a file kcidb's "dirty" looks at), its
# lines printed after the report's; a failure of either fails make.
all: deps
	@$(MAKE) --no-print-directory boot $(if $(SERIES)$(SUBSYS),,SERIES=all)
	@$(MAKE) --no-print-directory coverage
	@$(MAKE) --no-print-directory tools
	@mkdir -p $(BUILD)/logs && rm -f $(BUILD)/logs/kcidb.log $(BUILD)/logs/kcidb.status
	@{ $(MAKE) --no-print-directory kcidb >$(BUILD)/logs/kcidb.log 2>&1; echo $$? >$(BUILD)/logs/kcidb.status; } & \
	$(MAKE) --no-print-directory report; rc=$$?; wait; \
	if [ "$$(cat $(BUILD)/logs/kcidb.status)" = 0 ]; then cat $(BUILD)/logs/kcidb.log; \
	else cat $(BUILD)/logs/kcidb.log >&2; rc=1; fi; exit $$rc

deps:
	@scripts/lab/deps.sh

tools: $(HOST_TOOLS)

TOOL_HEADERS := tools/usage.h $(wildcard tools/*/*.h) tests/guest/pattern.h \
	tests/guest/affs/tree.h

$(BUILD)/tools/%: tools/lab/%.c $(TOOL_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $<

$(BUILD)/tools/%: tools/affs/%.c $(TOOL_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $<

$(BUILD)/tools/%: tools/kcidb/%.c $(TOOL_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $<

guest: $(GUEST_TESTS)

GUEST_HEADERS := $(wildcard tests/guest/*.h tests/guest/*/*.h)

$(BUILD)/guest/tests/%: tests/guest/%.c $(GUEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

# A test named *-m32.c is a 32-bit program (gcc-multilib): its ioctls take
# the kernel's compat path. Usually it #includes the 64-bit test's source.
$(BUILD)/guest/tests/%-m32: tests/guest/%-m32.c $(GUEST_HEADERS) $(wildcard tests/guest/*/*.c)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -m32 -o $@ $<

# The kernel's own selftests that tests/guest/kselftest/*.c run, built
# static from the extracted tree (tests/guest/kselftest/programs).
kselftests: tree
	@scripts/lab/kselftests.sh

tree:
	@scripts/lab/tree.sh

apply: tree
	@scripts/lab/apply.sh $(if $(SUBSYS),--subsys $(SUBSYS),$(SERIES))

config: apply tools
	@for k in $(KERNELS); do scripts/lab/config.sh $$k || exit 1; done

build: config
	@for k in $(KERNELS); do scripts/lab/build-kernel.sh $$k || exit 1; done

initramfs: tree guest kselftests
	@scripts/lab/initramfs.sh

boot: build initramfs
	@scripts/lab/matrix.sh
	$(if $(SUBSYS),@scripts/lab/report.sh)

# One mail series per subsystem, results/postings/<subsystem>/, signed with
# the user's git identity (docs/postings.md).
postings: tree
	@scripts/postings/postings.sh

report: tools
	@scripts/lab/report.sh

# The last boots as a KCIDB document, checked against its schema
# (docs/kcidb.md); KCIDB_BASE_URL is where results/ is served.
kcidb: tools
	@scripts/kcidb/kcidb.sh
	@scripts/kcidb/validate.sh $(RESULTS)/kcidb.json

# The runtime coverage map of the last boots (docs/coverage.md), made
# before the report, whose front page shows results/coverage.txt; make
# check makes it after the boots. UPDATE_DOCS=1 also writes
# docs/coverage.tsv, the map of the last full run.
coverage: tree
	@scripts/coverage/coverage.sh

llseek-report: deps tree
	@scripts/llseek/llseek-report.sh

regen: deps tree
	@scripts/llseek/llseek-regen.sh

staging-report: apply tools
	@scripts/staging/staging-report.sh

# Rewrites patches/staging-move/*.patch from the pristine tree (a git mv per
# pure move, git am for the rest); CHECK=1 only compares.
staging-move-regen: tree
	@scripts/staging/staging-move-regen.sh $(if $(CHECK),--check)

# Corrupted AFFS images on the built kernels: FUZZ_COUNT (1000) images per
# kernel, seed FUZZ_SEED (else the profile's); see scripts/affs/fuzz-affs.sh.
fuzz-affs: tools guest initramfs
	@scripts/affs/fuzz-affs.sh

# LAVA job definitions of the profiles (docs/lava.md), each checked with
# LAVA's schema; artifacts as URLs under LAVA_ARTIFACTS. No kernel needed.
LAVA_ARTIFACTS ?= file://$(RESULTS)/lava/artifacts
export LAVA_ARTIFACTS
lava-jobs: deps tools
	@scripts/lava/lava-jobs.sh

# A LAVA instance on this machine, on 127.0.0.1 only (docs/lava.md); none
# of these is part of make or make check. lava-submit boots PROFILES on
# KERNELS through it and compares each with the lab's boot in LAB_RESULTS
# (default results/); LAVA_TIMEOUT=SECS shortens every job's timeouts.
lava-up:
	@scripts/lava/lava-up.sh

lava-down:
	@scripts/lava/lava-down.sh

lava-submit: deps tools initramfs
	@scripts/lava/lava-submit.sh

# The instance end to end: core on both kernels and a device profile equal
# to the lab's, a guest that cannot finish ended by LAVA's timeout as a
# hang, a worker restarted mid-job never a pass. Needs make lava-up.
check-lava: deps tools initramfs
	@scripts/lava/check-lava.sh

# Host tests first (a failure stops before any kernel is built), then the
# kernels, the allmodconfig objects and the boots; see scripts/lab/check.sh.
# The tools, the guest tests and the tree are made as many at once as there
# are cores: a fresh clone compiles about 120 static programs (28 s on two
# cores) and extracts the tree (10 s alone; begun first, beside the
# compiles, it took 25 s and the stage 5 s longer).
check: deps
	@$(MAKE) --no-print-directory -j$$(nproc) tools guest tree
	@scripts/lab/check.sh

# The host tests alone: tools, guest tests and the extracted tree, no
# kernel build and no spatch over the whole tree.
check-host: deps
	@$(MAKE) --no-print-directory -j$$(nproc) tools guest tree
	@scripts/lab/check-host.sh

# The llseek series against the whole tree: the llseek report (a minute
# and more of spatch), the regenerated removal series and the decisions
# (the "# needs: llseek-tree" host tests); make check runs them after the
# host tests.
check-llseek: deps
	@$(MAKE) --no-print-directory -j$$(nproc) tools tree
	@scripts/lab/check-host.sh llseek-tree

bench: deps
	@$(MAKE) --no-print-directory build initramfs
	@scripts/lab/bench.sh

clean:
	rm -rf $(RESULTS) $(BUILD)/guest $(BUILD)/tools $(BUILD)/kernel
