# SPDX-License-Identifier: GPL-2.0+
#
# The maple tree libFuzzer target; included from the top-level Makefile.
#
#   make fuzz                   build build/fuzz_maple and fuzz for 60 s
#   make fuzz FUZZ_SECONDS=600  fuzz for longer
#
# The corpus lives in build/fuzz-corpus and starts from the inputs in
# tools/testing/maple/fuzz-regressions/.  A crashing input is written to
# build/crash-<sha1>; replay it with `build/fuzz_maple build/crash-<sha1>`
# and, once the bug is fixed, copy it into fuzz-regressions/ so that
# fuzz_regress_test.c replays it on every `make check`.

FUZZ_SECONDS	?= 60
# An input takes milliseconds (the slowest saved one, a third of a second
# under ASan): one that runs for seconds is a hang, most likely a reader
# retrying forever, and is reported as a crash (libFuzzer's default
# waits 20 minutes).
FUZZ_TIMEOUT	?= 10
FUZZ_CC		?= clang
FUZZ_DIR	:= tools/testing/maple
FUZZ_REGRESS	:= $(FUZZ_DIR)/fuzz-regressions
FUZZ_CORPUS	:= build/fuzz-corpus
# Only the tree itself (lib/maple_tree.c) carries libFuzzer's coverage
# and comparison tracing.  The model, the checks and the userspace
# stand-ins are the oracle: tracing them cost more than half the run time
# and steered the fuzzer towards the model's branches instead of the
# tree's.  The tree is built at -O2, as a kernel builds it (10 to 15
# percent faster than -O1 here); every access left in the code is still
# instrumented.
#
# The tree and the stand-ins it runs on (tools/lib: the slab allocator
# that hands out and frees its nodes, the RCU callbacks that walk them)
# are built with AddressSanitizer and UBSan: every access they make is
# checked.  The model and the fuzz decoder (FUZZ_MODEL) never follow a
# pointer the tree gives them (entries are compared as pointers), so their
# own loads and stores are not checked (FUZZ_MODEL_SAN), which was 10 to
# 15 percent of the run time; but they keep ASan's redzones around their
# locals, so the tree's reads and writes of the ma_state and maple_tree
# structures they hand it are checked as before.  They are held to ASan
# and UBSan in full by `make check-asan`, which runs the model's own suite
# and replays every saved fuzz input through the same decoder.
FUZZ_SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_MODEL_SAN	:= -fsanitize=address -mllvm -asan-instrument-reads=0 \
		   -mllvm -asan-instrument-writes=0 \
		   -mllvm -asan-instrument-atomics=0
FUZZ_BASE	:= -g -O1 -Wall -Wextra -DCONFIG_DEBUG_MAPLE_TREE \
		   -DTOOLS_RCU_PENDING $(INCLUDES)
FUZZ_CFLAGS	:= $(FUZZ_BASE) $(FUZZ_SAN)
FUZZ_LIBS	:= -lurcu-memb -lpthread
FUZZ_TRACED	:= lib/maple_tree.c
FUZZ_STANDINS	:= $(wildcard tools/lib/*.c)
FUZZ_MODEL	:= $(FUZZ_DIR)/model.c $(FUZZ_DIR)/fuzz_maple.c
FUZZ_ORACLE	:= $(FUZZ_STANDINS) $(FUZZ_MODEL)
FUZZ_OBJDIR	:= build/fuzz-obj
FUZZ_OBJS	:= $(FUZZ_TRACED:%.c=$(FUZZ_OBJDIR)/%.o) \
		   $(FUZZ_ORACLE:%.c=$(FUZZ_OBJDIR)/%.o)
# The objects are rebuilt when these change, this file (its flags) too.
FUZZ_HDRS	:= $(FUZZ_DIR)/model.h include/linux/maple_tree.h \
		   $(wildcard tools/include/linux/*.h) $(FUZZ_DIR)/rules.mk

$(FUZZ_TRACED:%.c=$(FUZZ_OBJDIR)/%.o): $(FUZZ_OBJDIR)/%.o: %.c $(FUZZ_HDRS) | deps-fuzz
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -O2 -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp -c -o $@ $<

$(FUZZ_STANDINS:%.c=$(FUZZ_OBJDIR)/%.o): $(FUZZ_OBJDIR)/%.o: %.c $(FUZZ_HDRS) | deps-fuzz
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -O2 -c -o $@ $<

$(FUZZ_MODEL:%.c=$(FUZZ_OBJDIR)/%.o): $(FUZZ_OBJDIR)/%.o: %.c $(FUZZ_HDRS) | deps-fuzz
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_BASE) $(FUZZ_MODEL_SAN) -O2 -c -o $@ $<

build/fuzz_maple: $(FUZZ_OBJS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(FUZZ_OBJS) \
		$(FUZZ_LIBS)

# libFuzzer's entropic schedule picks the inputs to mutate by the rare
# features they reach; -entropic_scale_per_exec_time=1 also weighs that
# by how long an input runs against the corpus average (as AFL does: an
# input that runs much faster gets several times the energy, one that
# runs ten times longer a tenth).
# What is kept in the corpus, and why, does not change: any new coverage
# of the tree.  But the checks cost in proportion to the tree an input
# builds and how often it compares it (a full model_compare() of a tree
# of a few hundred ranges is thousands of lookups), so without it most of
# the time went into mutating the few slowest inputs again.  With it the
# same CPU time runs about four times as many inputs and reaches at least
# the same coverage, and bugs planted in a copy of the tree are found as
# fast or faster.
FUZZ_FLAGS	?= -entropic_scale_per_exec_time=1

.PHONY: fuzz
fuzz: build/fuzz_maple
	@mkdir -p $(FUZZ_CORPUS)
	cp $(FUZZ_REGRESS)/* $(FUZZ_CORPUS)/
	build/fuzz_maple -max_total_time=$(FUZZ_SECONDS) -detect_leaks=0 \
		-timeout=$(FUZZ_TIMEOUT) -artifact_prefix=build/ \
		-print_final_stats=1 $(FUZZ_FLAGS) $(FUZZ_CORPUS)

# make fuzz-cover: which lines and branches of lib/maple_tree.c the saved
# corpus (build/fuzz-corpus, else the regression inputs) reaches, every
# input run once by a copy of the fuzzer built with clang's source-based
# coverage.  Prints the per-function summary of the write path and writes
# build/fuzz-cover/maple_tree.txt (annotated source).  Needs llvm-cov and
# llvm-profdata (Debian's llvm package; installed when run as root).
FUZZ_COVER_DIR	:= build/fuzz-cover

$(FUZZ_COVER_DIR)/fuzz_maple: $(FUZZ_TRACED) $(FUZZ_ORACLE) $(FUZZ_HDRS) | deps-fuzz
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer \
		-fprofile-instr-generate -fcoverage-mapping -o $@ \
		$(FUZZ_TRACED) $(FUZZ_ORACLE) $(FUZZ_LIBS)

.PHONY: fuzz-cover
fuzz-cover: $(FUZZ_COVER_DIR)/fuzz_maple
	@command -v llvm-cov >/dev/null || scripts/apt-install.sh llvm
	@corpus=$(FUZZ_CORPUS); [ -d $$corpus ] || corpus=$(FUZZ_REGRESS); \
	LLVM_PROFILE_FILE=$(FUZZ_COVER_DIR)/run.profraw \
		$(FUZZ_COVER_DIR)/fuzz_maple -runs=0 -detect_leaks=0 $$corpus \
		> $(FUZZ_COVER_DIR)/run.log 2>&1 || \
		{ tail -n 20 $(FUZZ_COVER_DIR)/run.log; exit 1; }; \
	echo "fuzz-cover: $$(ls $$corpus | wc -l) inputs from $$corpus"
	@llvm-profdata merge -o $(FUZZ_COVER_DIR)/run.profdata \
		$(FUZZ_COVER_DIR)/run.profraw
	@llvm-cov show $(FUZZ_COVER_DIR)/fuzz_maple \
		-instr-profile=$(FUZZ_COVER_DIR)/run.profdata \
		-show-branches=count lib/maple_tree.c \
		> $(FUZZ_COVER_DIR)/maple_tree.txt
	@llvm-cov report $(FUZZ_COVER_DIR)/fuzz_maple \
		-instr-profile=$(FUZZ_COVER_DIR)/run.profdata \
		-show-functions lib/maple_tree.c | \
		grep -E '^(Name|(maple_tree\.c:)?(mas_wr|mt_wr|mt_leaf|mas_store|mas_preallocate|mt_big|mt_gap|mas_erase|mtree_(store|insert|erase)))|TOTAL'
