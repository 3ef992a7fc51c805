# bklfree: the one entry point. README.md explains every target.
#
#   make                 deps, tree, apply, build both kernels, boot every
#                        profile on both, print the report
#   make check           every test; ends with "N passed, N failed"
#   make apply SERIES=core          take one subsystem's series only
#   make boot PROFILES=usb-hid KERNELS=patched
#   make bench           build and boot figures (not tests)
#   make staging-report  drivers/staging of the patched tree, text and JSON
#   make fuzz-affs       mount and walk FUZZ_COUNT corrupted AFFS images

SHELL := /bin/sh
TOP := $(CURDIR)
BUILD := $(TOP)/build
RESULTS := $(TOP)/results
export TOP BUILD RESULTS

SERIES ?= core staging-move drivers
KERNELS ?= baseline patched
PROFILES ?= $(sort $(basename $(notdir $(wildcard qemu-devices/*.profile))))
export SERIES KERNELS PROFILES

HOST_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2
GUEST_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2 -static -s -Itests/guest

HOST_TOOLS := $(patsubst tools/%.c,$(BUILD)/tools/%,$(wildcard tools/*.c))
GUEST_TESTS := $(patsubst tests/guest/%.c,$(BUILD)/guest/tests/%,\
	$(wildcard tests/guest/*/*.c))

.PHONY: all deps tree apply config build tools guest initramfs boot report \
	check bench clean llseek-report regen staging-report staging-move-regen \
	fuzz-affs

all: deps
	@$(MAKE) --no-print-directory boot
	@$(MAKE) --no-print-directory report

deps:
	@scripts/deps.sh

tools: $(HOST_TOOLS)

$(BUILD)/tools/%: tools/%.c tools/affs.h tools/usage.h tests/guest/pattern.h tests/guest/affs/tree.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $<

guest: $(GUEST_TESTS)

GUEST_HEADERS := $(wildcard tests/guest/*.h tests/guest/*/*.h)

$(BUILD)/guest/tests/%: tests/guest/%.c $(GUEST_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

tree:
	@scripts/tree.sh

apply: tree
	@scripts/apply.sh $(SERIES)

config: apply tools
	@for k in $(KERNELS); do scripts/config.sh $$k || exit 1; done

build: config
	@for k in $(KERNELS); do scripts/build-kernel.sh $$k || exit 1; done

initramfs: tree guest
	@scripts/initramfs.sh

boot: build initramfs
	@scripts/matrix.sh

report: tools
	@scripts/report.sh

llseek-report: deps tree
	@scripts/llseek-report.sh

regen: deps tree
	@scripts/llseek-regen.sh

staging-report: apply tools
	@scripts/staging-report.sh

# Rewrites patches/staging-move/*.patch from the pristine tree (a git mv per
# pure move, git am for the rest); CHECK=1 only compares.
staging-move-regen: tree
	@scripts/staging-move-regen.sh $(if $(CHECK),--check)

# Corrupted AFFS images on the built kernels: FUZZ_COUNT (1000) images per
# kernel, seed FUZZ_SEED (else the profile's); see scripts/fuzz-affs.sh.
fuzz-affs: tools guest initramfs
	@scripts/fuzz-affs.sh

check: deps
	@$(MAKE) --no-print-directory tools guest
	@scripts/check.sh

bench: deps
	@$(MAKE) --no-print-directory build initramfs
	@scripts/bench.sh

clean:
	rm -rf $(RESULTS) $(BUILD)/guest $(BUILD)/tools $(BUILD)/kernel
