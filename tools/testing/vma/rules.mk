# SPDX-License-Identifier: GPL-2.0
#
# mm/ and its userspace tests; included from the top-level Makefile.
#
# mm/ is built twice, once per backend: the maple tree (default) and the
# pre-6.1 rbtree (-DCONFIG_MM_VMA_RBTREE).  Each build, with the VMA suites
# (tools/testing/vma/*_test.c and the model), is linked into one
# relocatable object whose symbols are then made local (objcopy -G), so
# both backends' find_vma() and friends live side by side in
# build/maple-test; the suites register themselves (constructors) under
# names ending in _maple or _rbtree, and one runner prints the one summary.
#
#   make vma-bench    build/vma_bench (both backends, -O2, no debug checks)
#                     and run it: the kernel test robot's workloads and the
#                     micro-workloads, in the robot's table, plus a JSON
#                     file in bench-results/; VMA_BENCH_ARGS= passes
#                     arguments, e.g. "--quick", "--runs 11", "--filter
#                     mmap1", "--no-json", "--callgrind" (instructions/op),
#                     "--no-cs" (without the mmap_lock critical section)
#
# make bench runs build/vma_bench_upstream instead when Debian's
# linux-source-6.1 or -6.12 is there: the same program with a backend
# per version, mm/ on Linux 6.1's ("upstream") and 6.12's
# ("upstream-6.12") own lib/maple_tree.c (tools/testing/bench/rules.mk).

VMA_DIR		:= tools/testing/vma
MM_SRCS		:= $(sort $(wildcard mm/*.c))
VMA_TEST_SRCS	:= $(sort $(wildcard $(VMA_DIR)/*_test.c $(VMA_DIR)/vma_model.c)) \
		   $(VMA_DIR)/replay_ops.c
VMA_BACKENDS	:= maple rbtree
VMA_DEFS_maple	:=
VMA_DEFS_rbtree	:= -DCONFIG_MM_VMA_RBTREE
VMA_OBJ		:= $(BUILD)/vma
VMA_TEST_BLOBS	:= $(VMA_BACKENDS:%=$(VMA_OBJ)/vma-test-%.o)
VMA_BENCH_BLOBS	:= $(VMA_BACKENDS:%=$(VMA_OBJ)/vma-bench-%.o)
# Symbols that stay global in the partial links: i386's PC thunks are
# COMDAT, one copy kept by the final link for both objects.
VMA_KEEP_GLOBAL	:= --wildcard -G '__x86.get_pc_thunk.*'
# -m32 and the like must reach the partial link too.
VMA_LD_R	= $(CC) $(filter -m%,$(SANFLAGS) $(CFLAGS)) -r -nostdlib

# vma_backend(name): debug objects + test blob, and -O2 objects + bench blob.
define vma_backend
$(VMA_OBJ)/$(1)/%.o: %.c $(FLAGS_FILE)
	$$(call msg,CC [$(1)],$$<)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(CC) $$(INCLUDES) -Itools/testing/harness $$(DEBUG_DEFS) \
		$(VMA_DEFS_$(1)) -DVMA_BACKEND=$(1) $$(ALL_CFLAGS) \
		$$(DEPFLAGS) -c $$< -o $$@

$(VMA_OBJ)/bench-$(1)/%.o: %.c $(FLAGS_FILE)
	$$(call msg,CC [$(1)],$$<)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(CC) $$(INCLUDES) $(VMA_DEFS_$(1)) -DVMA_BACKEND=$(1) \
		$$(ALL_CFLAGS) $$(DEPFLAGS) -c $$< -o $$@

$(VMA_OBJ)/vma-test-$(1).o: $(addprefix $(VMA_OBJ)/$(1)/,$(MM_SRCS:.c=.o) \
			    $(VMA_TEST_SRCS:.c=.o))
	$$(call msg,LD -r,$$@)
	$$(Q)$$(VMA_LD_R) -o $$@.tmp $$^
	$$(Q)objcopy $$(VMA_KEEP_GLOBAL) -G vma_replay_ops_$(1) $$@.tmp $$@ && \
		rm -f $$@.tmp

$(VMA_OBJ)/vma-bench-$(1).o: $(addprefix $(VMA_OBJ)/bench-$(1)/,$(MM_SRCS:.c=.o) \
			     $(VMA_DIR)/bench_ops.o)
	$$(call msg,LD -r,$$@)
	$$(Q)$$(VMA_LD_R) -o $$@.tmp $$^
	$$(Q)objcopy $$(VMA_KEEP_GLOBAL) -G vma_bench_ops_$(1) $$@.tmp $$@ && \
		rm -f $$@.tmp
endef
$(foreach b,$(VMA_BACKENDS),$(eval $(call vma_backend,$(b))))

# The top-level link of build/maple-test adds $(VMA_TEST_BLOBS).
$(BUILD)/maple-test: $(VMA_TEST_BLOBS)

# liburcu statically outside sanitizer builds, as tools/testing/bench/ does
# (its call_rcu() from the shared library costs __tls_get_addr() calls).
VMA_BENCH_LIBS	= $(if $(strip $(SANFLAGS)),-lurcu-memb,\
		  -Wl,-Bstatic -lurcu-memb -lurcu-common -Wl,-Bdynamic) -lpthread -lm

# vma_bench counts the critical section's instructions with callgrind's
# client requests when valgrind's header is there; installing valgrind
# (make deps-callgrind) rebuilds it.
VMA_BENCH_HDRS	:= $(VMA_DIR)/bench_ops.h tools/testing/bench/bench_commit.h \
		   tools/testing/bench/critical.h tools/include/linux/lock_stat.h \
		   $(wildcard /usr/include/valgrind/callgrind.h)

$(BUILD)/vma_bench: $(VMA_DIR)/vma_bench.c $(VMA_BENCH_HDRS) \
		    $(VMA_BENCH_BLOBS) $(BUILD)/libmaple.a
	$(call msg,CC,$@)
	$(Q)$(CC) $(INCLUDES) $(ALL_CFLAGS) -o $@ $< $(VMA_BENCH_BLOBS) \
		$(BUILD)/libmaple.a $(VMA_BENCH_LIBS)

.PHONY: vma-bench
vma-bench: $(BUILD)/vma_bench
	$(BUILD)/vma_bench $(VMA_BENCH_ARGS)

# ---- traces of real programs (Documentation/dev-tools/traces.rst) ----
#
# build/vma_replay replays the traces tools/testing/vma/record writes
# (the shipped ones in $(VMA_DIR)/traces/) on mm/ over each backend:
# replay_ops.c is each backend's entry points, linked with that backend's
# -O2 mm/ into an object exporting only vma_replay_ops_<backend>, as
# vma_bench's are; replay.c and replay_bench.c know no backend.  The
# test blobs above carry replay_ops.c too (debug build), for
# replay_suite.c, which make check runs: every shipped trace replayed
# on both backends, checked against the kernel's answers and against
# each other.  (The Linux 6.12 interface run of make check has no test
# blobs, so no replay suite.)
#
#   make trace PROG="cmd args"   record cmd, then its table (vma_replay
#                                on every backend, with a profile)
#   make vma-replay              the shipped traces' table
REPLAY_TRACES	:= $(sort $(wildcard $(VMA_DIR)/traces/*.gz))
REPLAY_SRCS	:= $(VMA_DIR)/replay_bench.c $(VMA_DIR)/replay.c
REPLAY_DEPS	:= $(REPLAY_SRCS) $(VMA_DIR)/replay.h \
		   tools/testing/bench/bench_commit.h
VMA_REPLAY_BLOBS := $(VMA_BACKENDS:%=$(VMA_OBJ)/vma-replay-%.o)

define vma_replay_backend
$(VMA_OBJ)/vma-replay-$(1).o: $(addprefix $(VMA_OBJ)/bench-$(1)/,$(MM_SRCS:.c=.o) \
			      $(VMA_DIR)/replay_ops.o)
	$$(call msg,LD -r,$$@)
	$$(Q)$$(VMA_LD_R) -o $$@.tmp $$^
	$$(Q)objcopy $$(VMA_KEEP_GLOBAL) -G vma_replay_ops_$(1) $$@.tmp $$@ && \
		rm -f $$@.tmp
endef
$(foreach b,$(VMA_BACKENDS),$(eval $(call vma_replay_backend,$(b))))

$(BUILD)/vma_replay: $(REPLAY_DEPS) $(VMA_REPLAY_BLOBS) $(BUILD)/libmaple.a
	$(call msg,CC,$@)
	$(Q)$(CC) $(INCLUDES) $(ALL_CFLAGS) -o $@ $(REPLAY_SRCS) \
		$(VMA_REPLAY_BLOBS) $(BUILD)/libmaple.a $(VMA_BENCH_LIBS)

ifneq ($(strip $(VMA_TEST_BLOBS)),)
REPLAY_TEST_OBJS := $(DOBJ)/$(VMA_DIR)/replay_suite.o $(DOBJ)/$(VMA_DIR)/replay.o
TEST_OBJS	+= $(REPLAY_TEST_OBJS)
ALL_OBJS	+= $(REPLAY_TEST_OBJS)
$(BUILD)/maple-test: $(REPLAY_TEST_OBJS)
$(DOBJ)/$(VMA_DIR)/replay_suite.o: \
	TEST_DEFS += -DREPLAY_TRACE_DIR='"$(CURDIR)/$(VMA_DIR)/traces"'
endif

.PHONY: vma-replay trace
vma-replay: $(BUILD)/vma_replay
	$(BUILD)/vma_replay --profile $(REPLAY_TRACES)

# The program is recorded into $(BUILD)/traces/ (TRACE_NAME=, default
# "prog"), then replayed as make bench replays the shipped ones, on
# Linux's trees too when their source packages are installed
# ($(VMA_UP_REPLAY), tools/testing/bench/rules.mk).
TRACE_NAME	?= prog
# strace for the recorder and valgrind for the profile, installed when
# run as root (scripts/apt-install.sh); otherwise the recorder says what
# is missing and the profile is left out with a line saying so.
TRACE_PKGS	:= strace valgrind
.PHONY: trace-deps
trace-deps:
	@[ "$$(id -u)" != 0 ] || ! command -v dpkg-query >/dev/null || \
		scripts/apt-install.sh $(TRACE_PKGS)

trace: $(BUILD)/vma_replay trace-deps
	@[ -n "$(PROG)" ] || { echo 'usage: make trace PROG="program args"'; exit 2; }
	@mkdir -p $(BUILD)/traces
	$(VMA_DIR)/record -o $(BUILD)/traces/$(TRACE_NAME).gz -- $(PROG)
	@r=$(BUILD)/vma_replay; \
	$(if $(VMA_UP_READY),$(MAKE) --no-print-directory -s $(VMA_UP_REPLAY) && \
		r=$(VMA_UP_REPLAY) || exit 1;) \
	$$r --profile $(BUILD)/traces/$(TRACE_NAME).gz

-include $(foreach b,$(VMA_BACKENDS),$(VMA_OBJ)/bench-$(b)/$(VMA_DIR)/replay_ops.d)

-include $(foreach b,$(VMA_BACKENDS),$(addprefix $(VMA_OBJ)/$(b)/,\
	$(MM_SRCS:.c=.d) $(VMA_TEST_SRCS:.c=.d)) \
	$(addprefix $(VMA_OBJ)/bench-$(b)/,$(MM_SRCS:.c=.d) $(VMA_DIR)/bench_ops.d))
