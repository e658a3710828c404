# SPDX-License-Identifier: GPL-2.0
#
# maple - top-level Makefile (GNU make).
#
#   make              build/libmaple.a, build/libmaple-debug.a, their .pc files,
#                     build/maple-test and build/runner-selftest
#   make check        check the Debian packages, build, run every test suite;
#                     the last line printed is "N passed, M failed"
#   make check-asan   the same with AddressSanitizer + UBSan (in build/asan)
#   make check-tsan   the same with ThreadSanitizer (in build/tsan)
#   make check-32     the same built for 32-bit x86 (-m32, in build/m32)
#   make install      PREFIX=/usr/local DESTDIR= : libraries, .pc files and
#                     headers (under $PREFIX/include/maple, never over the
#                     system's <linux/...>)
#   make modules      build/kmod/test_maple_tree_api.ko (the tree and its self-test
#                     in one module) against Debian's installed kernel headers,
#                     or KDIR=<any 6.1 build tree>
#   make check-kernel the kernel side: the module in a qemu-booted Debian
#                     kernel, the KUnit suites on UML, sparse and checkpatch,
#                     Linux 6.1 patched with our tree booted on UML with a
#                     VMA workload and the kernel's own self-test; FULL=1
#                     adds the same boot for x86_64 under qemu
#                     (see Documentation/dev-tools/testing.rst)
#   make series       build/series/*.patch: the patch series that puts our tree
#                     (in steps, every one linking), KUnit suites, doc and
#                     fork change into Debian's linux-source-6.1, with a
#                     cover letter; KVER=6.12: build/series-6.12/ for
#                     linux-source-6.12, without the fork change
#                     (scripts/make-series.sh; scripts/apply-series.sh DEST
#                     applies it to a fresh copy of that source, --prefixes
#                     DEST builds and links every prefix of it)
#   make clean
#
# Knobs: V=1 shows commands, WERROR=1 makes warnings errors, CC=clang,
# CFLAGS= replaces -O2 -g, MIGHT_SLEEP=0 drops the sleeping-in-atomic check,
# EXCLUDE="lib/maple_tree.c" leaves sources out (for example while a file
# does not compile).  Objects are rebuilt when any of these change.
# Test selection at run time: KTEST_FILTER=suite[.case] make check.

VERSION		:= 0.1.0
BUILD		?= build
PREFIX		?= /usr/local
CC		?= cc
AR		?= ar

# ---- flags -----------------------------------------------------------------

CFLAGS		?= -O2 -g
WARNINGS	:= -Wall -Wextra
ifeq ($(WERROR),1)
WARNINGS	+= -Werror
endif
# Which kernel's maple tree interface the userspace build speaks
# (MT_API_612 in include/linux/maple_tree.h): KVER=6.1, the default, or
# KVER=6.12.  "make check" also builds and runs the tree's suites for the
# other one (in $(BUILD)/api-6.12).
KVER		?= 6.1
ifeq ($(KVER),6.12)
API_DEFS	:= -DMT_API_612=1
else ifeq ($(KVER),6.1)
API_DEFS	:= -DMT_API_612=0
else
$(error KVER=$(KVER): the tree speaks Linux 6.1's or 6.12's interface)
endif
# Kernel headers first (include/), then the userspace stand-ins.
INCLUDES	:= -Iinclude -Itools/include $(API_DEFS)
BASE_CFLAGS	:= -std=gnu11 -fno-strict-aliasing $(WARNINGS)
DEPFLAGS	= -MMD -MP
# Extra flags of a sanitizer build (set by check-asan/check-tsan).
SANFLAGS	?=
ALL_CFLAGS	= $(BASE_CFLAGS) $(CFLAGS) $(SANFLAGS)
LDLIBS		:= -lurcu-memb -lpthread

# The debug variant: the tree's own checks and RCU/lock usage checks
# (rcu_dereference_check() conditions).  Tests always link against it.
# With it goes the "sleeping function called from invalid context" check:
# a blocking (GFP_KERNEL) allocation, mutex or rwsem while holding a
# spinlock or inside rcu_read_lock() is a WARNING, as in a kernel built with
# CONFIG_DEBUG_ATOMIC_SLEEP.  MIGHT_SLEEP=0 leaves that check out.
MIGHT_SLEEP	?= 1
DEBUG_DEFS	:= -DCONFIG_DEBUG_MAPLE_TREE -DCONFIG_PROVE_RCU
ifeq ($(MIGHT_SLEEP),1)
DEBUG_DEFS	+= -DCONFIG_DEBUG_ATOMIC_SLEEP
endif

ASAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		   -fno-omit-frame-pointer
TSAN_FLAGS	:= -fsanitize=thread -fno-omit-frame-pointer
# gcc warns that TSan ignores standalone fences (smp_rmb() and friends); we
# know, and the accesses they order are atomics TSan does see.
ifeq ($(shell $(CC) -Werror -Wtsan -E -x c /dev/null -o /dev/null 2>/dev/null && echo y),y)
TSAN_FLAGS	+= -Wno-tsan
endif

# ---- sources ---------------------------------------------------------------

# The tree itself (may not exist yet, or may be split into lib/maple_tree/).
MAPLE_SRCS	:= $(sort $(wildcard lib/maple_tree.c lib/maple_tree/*.c))
# Userspace implementations behind tools/include (slab, RCU glue, locks...).
SHIM_SRCS	:= $(sort $(wildcard tools/lib/*.c))
LIB_SRCS	:= $(filter-out $(EXCLUDE),$(MAPLE_SRCS) $(SHIM_SRCS))
# KUnit-style suites: userspace ones and kernel-buildable lib/*_kunit.c.
# libFuzzer targets (fuzz_*.c not ending in _test.c) have no suite and are
# built by "make fuzz" instead (tools/testing/maple/rules.mk).
FUZZ_TARGETS	:= $(filter-out %_test.c,$(wildcard tools/testing/maple/fuzz_*.c))
TEST_SRCS	:= $(filter-out $(EXCLUDE) $(FUZZ_TARGETS),\
		   $(sort $(wildcard tools/testing/maple/*.c lib/*_kunit.c \
		   lib/test_*.c)))
# Where fuzz_regress_test.c finds its inputs, wherever the binary runs from.
TEST_DEFS	:= -DFUZZ_REGRESS_DIR='"$(CURDIR)/tools/testing/maple/fuzz-regressions"'
HARNESS_SRCS	:= tools/testing/harness/runner.c tools/testing/harness/kunit.c
SELFTEST_SRCS	:= tools/testing/harness/selftest_cases.c

OBJ		:= $(BUILD)/obj
DOBJ		:= $(BUILD)/obj-debug
LIB_OBJS	:= $(LIB_SRCS:%.c=$(OBJ)/%.o)
LIB_DEBUG_OBJS	:= $(LIB_SRCS:%.c=$(DOBJ)/%.o)
TEST_OBJS	:= $(TEST_SRCS:%.c=$(DOBJ)/%.o)
HARNESS_OBJS	:= $(HARNESS_SRCS:%.c=$(DOBJ)/%.o)
SELFTEST_OBJS	:= $(SELFTEST_SRCS:%.c=$(DOBJ)/%.o)
ALL_OBJS	:= $(LIB_OBJS) $(LIB_DEBUG_OBJS) $(TEST_OBJS) $(HARNESS_OBJS) \
		   $(SELFTEST_OBJS)

LIBS		:= $(BUILD)/libmaple.a $(BUILD)/libmaple-debug.a
PCS		:= $(BUILD)/maple.pc $(BUILD)/maple-debug.pc
TEST_BINS	:= $(BUILD)/maple-test $(BUILD)/runner-selftest

# ---- hooks for the lead ----------------------------------------------------

# Commands run by "make check" after building and before the test suites.
# Intended use: run the benchmarks of tools/testing/bench/ once at tiny size
# (QUICK=1) to prove they work - never to assert a speed.
CHECK_PRE	:= @$(MAKE) --no-print-directory -s bench-check

# Debian packages make and make check need (pkg-config for the outside
# program check); the fuzzer's and callgrind's come with those targets.
DEPS_PKGS	:= liburcu-dev pkg-config
FUZZ_DEPS_PKGS	:= clang libclang-rt-14-dev
CALLGRIND_PKGS	:= valgrind
# make bench's chart of the mm/ ratios (scripts/bench-chart.sh).
CHART_PKGS	:= gnuplot-nox

# ---- output ----------------------------------------------------------------

# Kernel style: "  CC  file" lines; V=1 prints whole commands, -s nothing.
ifeq ($(V),1)
Q		:=
msg		=
else ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
Q		:= @
msg		=
else
Q		:= @
msg		= @printf '  %-8s %s\n' '$(1)' '$(2)';
endif

# ---- rebuild when the flags change -----------------------------------------

# Objects depend on a file holding the flags they were built with, rewritten
# only when the flags differ (e.g. MIGHT_SLEEP=0 or CFLAGS=-O0 after a build).
FLAGS_FILE	:= $(BUILD)/.flags
FLAGS_NOW	:= $(CC) $(INCLUDES) $(ALL_CFLAGS) $(DEBUG_DEFS) $(TEST_DEFS)
ifeq ($(filter clean,$(MAKECMDGOALS)),)
ifneq ($(file <$(FLAGS_FILE)),$(FLAGS_NOW))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_FILE),$(FLAGS_NOW))
endif
endif

# ---- targets ---------------------------------------------------------------

.PHONY: all check check-asan check-tsan check-32 deps deps-32 deps-fuzz \
	deps-callgrind deps-chart install clean tests outside-check kernel-deps modules \
	check-kernel series fork-bench help FORCE
.DEFAULT_GOAL	:= all

# The README's table of targets, so that the two cannot disagree.
help:
	@awk -F'|' '/^<!-- make help prints this table -->/ { on = 1; next } \
		on && /^\|---/ { next } \
		on && /^\|/ { for (i = 2; i <= 5; i++) { \
				gsub(/`/, "", $$i); gsub(/^ +| +$$/, "", $$i) } \
			if ($$2 == "target") next; \
			printf "  %-29s %s\n  %-29s   needs: %s; %s\n", \
				$$2, $$3, "", ($$4 == "" ? "-" : $$4), $$5; next } \
		on { exit }' README.md
	@echo "  (README.md, \"Targets\"; Documentation/index.rst lists the documents)"

all: $(LIBS) $(PCS) $(TEST_BINS)

tests: $(TEST_BINS)
	@:

$(OBJ)/%.o: %.c $(FLAGS_FILE)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(INCLUDES) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(DOBJ)/%.o: %.c $(FLAGS_FILE)
	$(call msg,CC [dbg],$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(INCLUDES) -Itools/testing/harness $(DEBUG_DEFS) \
		$(TEST_DEFS) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/libmaple.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/libmaple-debug.a: $(LIB_DEBUG_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/maple-test: $(HARNESS_OBJS) $(TEST_OBJS) $(BUILD)/libmaple-debug.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(HARNESS_OBJS) $(TEST_OBJS) \
		$(VMA_TEST_BLOBS) $(BUILD)/libmaple-debug.a $(LDLIBS)

$(BUILD)/runner-selftest: $(HARNESS_OBJS) $(SELFTEST_OBJS) \
			  $(BUILD)/libmaple-debug.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(HARNESS_OBJS) \
		$(SELFTEST_OBJS) $(BUILD)/libmaple-debug.a $(LDLIBS)

# pkg-config files.  pc_file(prefix, includedir, libdir, suffix, cflags)
define pc_file
prefix=$(1)
includedir=$(2)
libdir=$(3)

Name: maple$(4)
Description: Userspace build of the Linux maple tree$(if $(4), (debug checks))
Version: $(VERSION)
Cflags: $(5)
Libs: $${libdir}/libmaple$(4).a -lurcu-memb -lpthread
endef

TREE_CFLAGS	:= -I$${prefix}/include -I$${prefix}/tools/include $(API_DEFS)

$(BUILD)/maple.pc: Makefile
	$(call msg,GEN,$@)
	$(shell mkdir -p $(@D))$(file >$@,$(call pc_file,$(CURDIR),$${prefix}/include,$(CURDIR)/$(BUILD),,$(TREE_CFLAGS)))

$(BUILD)/maple-debug.pc: Makefile
	$(call msg,GEN,$@)
	$(shell mkdir -p $(@D))$(file >$@,$(call pc_file,$(CURDIR),$${prefix}/include,$(CURDIR)/$(BUILD),-debug,$(TREE_CFLAGS) $(DEBUG_DEFS)))

# The installed flavour points into $(PREFIX); regenerated on every install.
$(BUILD)/install/maple.pc: FORCE
	$(shell mkdir -p $(@D))$(file >$@,$(call pc_file,$(PREFIX),$${prefix}/include/maple,$${prefix}/lib,,-I$${includedir} $(API_DEFS)))

$(BUILD)/install/maple-debug.pc: FORCE
	$(shell mkdir -p $(@D))$(file >$@,$(call pc_file,$(PREFIX),$${prefix}/include/maple,$${prefix}/lib,-debug,-I$${includedir} $(API_DEFS) $(DEBUG_DEFS)))

install: $(LIBS) $(BUILD)/install/maple.pc $(BUILD)/install/maple-debug.pc
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/maple
	install -m 644 $(LIBS) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(BUILD)/install/maple.pc $(BUILD)/install/maple-debug.pc \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/
	cd tools/include && find . -name '*.h' -exec \
		install -D -m 644 {} $(DESTDIR)$(PREFIX)/include/maple/{} \;
	if [ -d include ]; then cd include && find . -name '*.h' -exec \
		install -D -m 644 {} $(DESTDIR)$(PREFIX)/include/maple/{} \; ; fi

# ---- kernel side -----------------------------------------------------------

# The module is built in $(KMOD), a folder of symbolic links to the sources,
# so kbuild's objects and .cmd files stay out of the source tree and apart
# from the userspace objects of the same files.
KMOD		:= $(abspath $(BUILD))/kmod
KMOD_FILES	:= Kbuild include/linux/maple_tree.h lib/maple_tree.c \
		   lib/test_maple_tree_api.c scripts/kbuild/bundled.h
# KDIR= a kernel build tree or headers; default: Debian's installed kernel.
KDIR		?=
# Extra kbuild arguments, e.g. KBUILD_ARGS="C=2" for sparse.
KBUILD_ARGS	?=

kernel-deps:
	@scripts/kernel-deps.sh

modules: kernel-deps
	@for f in $(KMOD_FILES); do \
		mkdir -p $(KMOD)/$$(dirname $$f); \
		ln -sfn $(CURDIR)/$$f $(KMOD)/$$f; \
	done
	@kdir="$(KDIR)"; \
	[ -n "$$kdir" ] || kdir=/lib/modules/$$(scripts/debian-kernel.sh)/build; \
	$(MAKE) -C "$$kdir" M=$(KMOD) $(KBUILD_ARGS) modules

check-kernel: kernel-deps
	@FULL=$(FULL) BOOT=$(BOOT) KVER=$(KVER) scripts/check-kernel.sh

# Needs only git and the source package (installed as root).
series:
	@KVER=$(KVER) SIGNOFF=$(SIGNOFF) scripts/make-series.sh

# fork() timed in Linux 6.1 with and without the series' fork patch,
# alternating boots (UML; ARCH=x86_64 for qemu).
fork-bench: kernel-deps
	@scripts/fork-bench.sh --arch $(or $(ARCH),um)

# ---- checks ----------------------------------------------------------------

# Install the missing Debian packages of $(1) (scripts/apt-install.sh: as
# root it installs them, retrying a mirror caught mid-sync; otherwise it
# says what to run); $(2) are its options (--arch i386).  Where there is
# no dpkg there is nothing to check.
define install_pkgs
	@command -v dpkg-query >/dev/null 2>&1 || exit 0; \
	scripts/apt-install.sh $(2) $(1)
endef

deps:
	$(call install_pkgs,$(DEPS_PKGS),)

deps-fuzz:
	$(call install_pkgs,$(FUZZ_DEPS_PKGS),)

deps-callgrind:
	$(call install_pkgs,$(CALLGRIND_PKGS),)

deps-chart:
	$(call install_pkgs,$(CHART_PKGS),)

# The README's recipe for a program outside the tree, followed to the
# letter: the C block after the README's "outside-prog" marker, built
# with pkg-config against build/maple.pc and run, so the README's program
# and command cannot drift from what works.  Silent unless it fails.
OUTSIDE_PROG	:= $(BUILD)/outside/prog
$(BUILD)/outside/prog.c: README.md
	$(Q)mkdir -p $(@D)
	$(Q)awk '/^<!-- outside-prog:/ { on = 1; next } \
		on && /^```c$$/ { code = 1; next } \
		code && /^```$$/ { exit } code' $< > $@
	$(Q)grep -q 'main(' $@ || \
		{ echo "outside-check: no outside-prog block in README.md"; \
		  rm -f $@; exit 1; }

$(OUTSIDE_PROG): $(BUILD)/outside/prog.c $(BUILD)/maple.pc \
		 $(BUILD)/libmaple.a
	$(Q)$(CC) $(SANFLAGS) -Wall -Wextra -Werror -o $@ $< \
		$$(PKG_CONFIG_PATH=$(BUILD) pkg-config --cflags --libs maple)

outside-check: $(OUTSIDE_PROG)
	@$(OUTSIDE_PROG) > $(BUILD)/outside/prog.log 2>&1 || \
		{ cat $(BUILD)/outside/prog.log; \
		  echo "outside-check: the README's outside program failed"; \
		  exit 1; }
	@grep -qx '2 ranges, then erased' $(BUILD)/outside/prog.log || \
		{ cat $(BUILD)/outside/prog.log; \
		  echo "outside-check: the README's program printed something else"; \
		  exit 1; }

# Build in a sub-make so the package check really comes first, then run.
# Every line is silent so the runner's summary is the last line on stdout
# (when a test fails, GNU make still adds its "*** Error" line on stderr).
# With API612=1 (the default of a plain make check) the tree's suites also
# run built for Linux 6.12's interface, first; the last line then counts
# both runs (tools/testing/harness/both.sh).  The sanitizer and 32-bit
# runs leave that second interface to make check.
API612		?= 1
API612_BUILD	:= $(BUILD)/api-6.12
check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory -s outside-check
	$(CHECK_PRE)
ifeq ($(API612)$(KVER),16.1)
	@$(MAKE) --no-print-directory -s BUILD=$(API612_BUILD) KVER=6.12 \
		VMA_TEST_BLOBS= tests
	@tools/testing/harness/both.sh "Linux 6.12 interface" \
		$(API612_BUILD)/maple-test -- $(BUILD)/maple-test
else
	@$(BUILD)/maple-test
endif

check-asan:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan API612=0 \
		SANFLAGS="$(ASAN_FLAGS)" check

# The same suites built for 32-bit x86 (-m32): unsigned long of 32 bits,
# leaves of 32 slots, as on every 32-bit architecture Linux runs on.  Needs
# Debian's gcc-multilib and the i386 liburcu (multiarch), installed when
# run as root, and a kernel that runs 32-bit programs: where it does not,
# scripts/run32-setup.sh runs them under qemu-user instead.
DEPS_32_PKGS	:= gcc-multilib liburcu-dev:i386
deps-32:
	$(call install_pkgs,$(DEPS_32_PKGS),--arch i386)
	@scripts/run32-setup.sh

# 64-bit file offsets: a directory on a 64-bit host's file system may hand
# out entry offsets beyond 32 bits, which 32-bit readdir() cannot return.
check-32: deps-32
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/m32 API612=0 \
		SANFLAGS="-m32 -D_FILE_OFFSET_BITS=64" check

# tsan.supp names the one race TSan sees inside liburcu itself (see there).
check-tsan:
	@TSAN_OPTIONS="suppressions=$(CURDIR)/tools/testing/maple/tsan.supp $$TSAN_OPTIONS" \
		$(MAKE) --no-print-directory BUILD=$(BUILD)/tsan API612=0 \
		SANFLAGS="$(TSAN_FLAGS)" check

clean:
	rm -rf $(BUILD)

FORCE:

# Rules owned by the test and benchmark authors: "make fuzz" (libFuzzer
# target) and "make bench" / bench-quick / bench-smoke.
-include tools/testing/maple/rules.mk
-include tools/testing/maple/rcu_stress_rules.mk
# mm/ on both backends and its suites (tools/testing/vma/), "make vma-bench".
-include tools/testing/vma/rules.mk
# make bench KERNEL=1: the kernel level instead (scripts/kernel-bench.sh,
# Documentation/bench.rst): will-it-scale loops in Linux 6.1 (KVER=6.12:
# 6.12) x86_64 under qemu, our tree against the pristine kernel; QUICK=1,
# ROUNDS=N, KERNEL_BASE=<rev> pass through.  It runs alone: the userspace
# bench's rules are left out then.
KBENCH_ALONE	:= $(and $(filter 1 y yes true,$(KERNEL)),$(filter bench,$(MAKECMDGOALS)))
ifneq ($(KBENCH_ALONE),)
ifneq ($(filter-out bench,$(MAKECMDGOALS)),)
$(error make bench KERNEL=1 runs alone, without other goals)
endif
.PHONY: bench
bench: kernel-deps
	@KVER=$(KVER) QUICK=$(QUICK) ROUNDS=$(ROUNDS) KERNEL_BASE=$(KERNEL_BASE) \
		scripts/kernel-bench.sh
else ifneq ($(wildcard tools/testing/bench/rules.mk),)
include tools/testing/bench/rules.mk
else
.PHONY: bench
bench:
	@echo "make bench: the benchmarks arrive with the core tree (tools/testing/bench/)."
	@exit 1
endif

-include $(ALL_OBJS:.o=.d)
