# SPDX-License-Identifier: GPL-2.0+
#
# Benchmark rules, included from the top Makefile:
#
#	include tools/testing/bench/rules.mk
#
# make bench                 full run: the tree (7 repetitions, 100 ..
#                            1,000,000 ranges), then mm/ (vma_bench): the
#                            kernel test robot's workloads on the maple
#                            tree, the rbtree and Linux 6.1's own tree
#                            (that column only when Debian's
#                            linux-source-6.1 is installed; installed
#                            here when run as root), each table in the
#                            robot's "base %change new metric" format
# make bench QUICK=1         3 repetitions, smaller sizes (under 30 s)
# make bench BASE=old.json   compare with an earlier run's JSON (either of
#                            the pair a make bench run writes)
# make bench CALLGRIND=1     add instructions/op counted under callgrind
# make bench-chart           the PNG chart of the newest (or FILE=) mm/ run,
#                            which make bench also draws when gnuplot is
#                            there (installed when run as root)
# make bench-quick           the tree only, QUICK=1
# make bench-callgrind       only the callgrind counts
# make bench-smoke           one tiny run to see the benchmark works (no JSON)
# make bench-upstream        the tree-level run on Linux 6.1's own maple tree
#                            and on ours, in turn, UPSTREAM_ROUNDS (3) times
#                            each; the medians compared ("linux-6.1 %change
#                            ours")
#
# Each make bench writes bench-results/<stamp>-<commit>[-quick].json (the
# tree), the same name ending in -mm.json (mm/), one BENCH_STAMP and
# BENCH_COMMIT for both, and -mm.png, the chart of the mm/ ratios.
# BENCH_ARGS passes further options to the tree's program, e.g.
# BENCH_ARGS="--sizes 1000 --reps 15"; VMA_BENCH_ARGS to vma_bench, e.g.
# VMA_BENCH_ARGS="--filter mmap1 --runs 11".
# The benchmark links against the optimised, non-debug library, built with
# the same $(SANFLAGS) as the library (empty outside sanitizer builds).
# $(msg) and $(Q) are the top Makefile's quiet-output helpers, if defined.

BUILD		?= build
CC		?= cc

BENCH_DIR	:= tools/testing/bench
BENCH_BIN	:= $(BUILD)/bench_tree
BENCH_LIB	?= $(BUILD)/libmaple.a
BENCH_CFLAGS	?= -std=gnu11 -O2 -g -Wall -Wextra
BENCH_CPPFLAGS	?= -Iinclude -Itools/include
# liburcu is linked statically outside sanitizer builds: from the shared
# library its call_rcu() reaches its per-thread data through
# __tls_get_addr(), about 65 instructions per call that a kernel's
# call_rcu() does not have and that callgrind would count as the tree's.
# (Sanitizer builds keep the shared library their suppressions name.)
BENCH_URCU	?= $(if $(strip $(SANFLAGS)),-lurcu-memb,\
		   -Wl,-Bstatic -lurcu-memb -lurcu-common -Wl,-Bdynamic)
BENCH_LIBS	?= $(BENCH_URCU) -lpthread -lm
BENCH_ARGS	?=

bench_yes = $(filter 1 y yes true,$(1))

# BASE may name either file of a make bench run; the tree reads its own.
BENCH_RUN_ARGS	= $(if $(call bench_yes,$(QUICK)),--quick) \
		  $(if $(BASE),--base $(patsubst %-mm.json,%.json,$(BASE))) \
		  $(if $(call bench_yes,$(CALLGRIND)),--callgrind) \
		  $(BENCH_ARGS)

$(BENCH_BIN): $(BENCH_DIR)/bench_tree.c $(BENCH_DIR)/bench_commit.h \
	      include/linux/maple_tree.h $(wildcard tools/include/linux/*.h) \
	      $(BENCH_LIB)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(BENCH_CPPFLAGS) $(BENCH_CFLAGS) $(SANFLAGS) -o $@ $< \
		$(BENCH_LIB) $(BENCH_LIBS)

.PHONY: bench bench-quick bench-callgrind bench-smoke bench-check

# After the tree's table, the mm/ layer (tools/testing/vma/vma_bench.c):
# the robot's workloads and the micro-workloads on the maple tree, the
# rbtree design and, when Linux 6.1's source is there, Linux's own tree
# ($(VMA_UP_BENCH), below), in the same run.
VMA_BENCH_RUN_ARGS = $(if $(call bench_yes,$(QUICK)),--quick) \
		     $(if $(BASE),--base $(BASE)) \
		     $(if $(call bench_yes,$(CALLGRIND)),--callgrind) \
		     $(VMA_BENCH_ARGS)

# Both programs get one stamp and one commit name, so the run's two files
# pair up even if the tree changes while it runs; the chart follows
# (scripts/bench-chart.sh, skipped without gnuplot).
bench: $(BENCH_BIN) $(BUILD)/vma_bench bench-chart-deps \
       $(if $(call bench_yes,$(CALLGRIND)),deps-callgrind)
	@export BENCH_STAMP=$$(date -u +%Y%m%d-%H%M%S); \
	c=$$(git rev-parse --short HEAD 2>/dev/null) && \
	{ git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; } && \
	export BENCH_COMMIT=$${BENCH_COMMIT:-$$c}; \
	$(BENCH_BIN) $(BENCH_RUN_ARGS) || exit 1; \
	if $(call upstream_ready,bench); then \
		$(MAKE) --no-print-directory $(VMA_UP_BENCH) && \
		$(VMA_UP_BENCH) $(VMA_BENCH_RUN_ARGS) || exit 1; \
	else \
		$(BUILD)/vma_bench $(VMA_BENCH_RUN_ARGS) || exit 1; \
	fi; \
	for f in bench-results/$$BENCH_STAMP-*-mm.json; do \
		[ -f "$$f" ] && scripts/bench-chart.sh "$$f"; \
	done; true

# gnuplot for the chart: installed when run as root, else the chart is
# skipped (make deps-chart says what to install).
.PHONY: bench-chart-deps bench-chart
bench-chart-deps:
	@command -v gnuplot >/dev/null || [ "$$(id -u)" != 0 ] || \
		$(MAKE) --no-print-directory -s deps-chart

# make bench-chart [FILE=bench-results/<run>-mm.json]: the chart of a run,
# the newest by default.
bench-chart: deps-chart
	@f="$(FILE)"; [ -n "$$f" ] || f=$$(ls -t bench-results/*-mm.json | head -1); \
	scripts/bench-chart.sh "$$f"

bench-quick: $(BENCH_BIN)
	$(BENCH_BIN) --quick $(BENCH_RUN_ARGS)

bench-callgrind: $(BENCH_BIN) deps-callgrind
	$(BENCH_BIN) --callgrind-only $(BENCH_RUN_ARGS)

bench-smoke: $(BENCH_BIN)
	$(BENCH_BIN) --sizes 100,1000 --reps 1 --batch 2000 --no-json

# What "make check" runs: one QUICK run to see the benchmark works.  It
# asserts no speed; the table goes to a log, shown only on failure.
bench-check: $(BENCH_BIN) $(BUILD)/vma_bench
	@$(BENCH_BIN) --quick --no-json > $(BUILD)/bench-quick.log 2>&1 || \
		{ cat $(BUILD)/bench-quick.log; echo "bench QUICK run failed"; exit 1; }
	@$(BUILD)/vma_bench --quick --runs 1 --no-json > $(BUILD)/vma-bench-quick.log 2>&1 || \
		{ cat $(BUILD)/vma-bench-quick.log; echo "vma_bench QUICK run failed"; exit 1; }

# ---- Linux's own tree as the baseline (make bench-upstream) ----------------
#
# lib/maple_tree.c and include/linux/maple_tree.h are taken at build time
# from Debian's linux-source-6.1 into $(UPSTREAM_DIR) (never committed) and
# built with the same benchmark and the same userspace stand-ins, plus
# $(BENCH_DIR)/upstream/ (a forced-in header and compiled-out trace points).
# Linux 6.1 has no __mt_dup(): its fork row is left out.

UPSTREAM_TARBALL ?= /usr/src/linux-source-6.1.tar.xz
UPSTREAM_DIR	:= $(BUILD)/upstream-6.1
UPSTREAM_BENCH	:= $(BUILD)/bench_tree_upstream
UPSTREAM_FILES	:= lib/maple_tree.c include/linux/maple_tree.h
UPSTREAM_OUT	:= $(BUILD)/bench-upstream
# Linux's tree and ours run in turn, UPSTREAM_ROUNDS times each, with
# fewer repetitions per run; each side's runs are merged (the median per
# metric, the spread across runs) before the two are compared, so a burst
# of noise on this shared machine lands on one run of one side only.
UPSTREAM_ROUNDS	?= 3
UPSTREAM_RUN_ARGS = $(BENCH_RUN_ARGS) $(if $(filter --reps,$(BENCH_ARGS)),,--reps 3)

$(UPSTREAM_DIR)/stamp: $(UPSTREAM_TARBALL)
	$(call msg,COPY,$(UPSTREAM_DIR))
	$(Q)rm -rf $(UPSTREAM_DIR) && mkdir -p $(UPSTREAM_DIR)
	$(Q)src=$$(LINUX_SRC_TARBALL=$(UPSTREAM_TARBALL) \
		   scripts/linux-src.sh $(UPSTREAM_FILES)) && \
	for f in $(UPSTREAM_FILES); do \
		install -D -m 644 $$src/$$f $(UPSTREAM_DIR)/$$f || exit 1; \
	done
	$(Q)touch $@

$(UPSTREAM_BENCH): $(UPSTREAM_DIR)/stamp $(BENCH_DIR)/bench_tree.c \
		   $(BENCH_DIR)/bench_commit.h \
		   $(wildcard $(BENCH_DIR)/upstream/*.h tools/lib/*.c \
			      tools/include/linux/*.h)
	$(call msg,CC,$@)
	$(Q)$(CC) -std=gnu11 -O2 -g -fno-strict-aliasing -D_GNU_SOURCE= \
		-DBENCH_UPSTREAM=61 \
		-include $(BENCH_DIR)/upstream/compat.h \
		-I$(UPSTREAM_DIR)/include -I$(BENCH_DIR)/upstream/include \
		-Itools/include -o $@ $(BENCH_DIR)/bench_tree.c \
		$(UPSTREAM_DIR)/lib/maple_tree.c $(wildcard tools/lib/*.c) \
		$(BENCH_LIBS)

# Is $(UPSTREAM_TARBALL) there?  Installs it when run as root; else
# says in one line how to get it (the caller then skips Linux's tree).
upstream_ready = { [ -f $(UPSTREAM_TARBALL) ] || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "$(1): installing linux-source-6.1"; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			linux-source-6.1 >/dev/null && \
		[ -f $(UPSTREAM_TARBALL) ] || \
		{ echo "$(1): still no $(UPSTREAM_TARBALL), so no Linux" \
		       "6.1 column"; false; }; \
	else \
		echo "$(1): no $(UPSTREAM_TARBALL), so no Linux 6.1 column;" \
		     "as root: apt-get install linux-source-6.1"; \
		false; \
	fi; }

.PHONY: bench-upstream
bench-upstream: $(BENCH_BIN)
	@$(call upstream_ready,bench-upstream) || exit 0; \
	$(MAKE) --no-print-directory $(UPSTREAM_BENCH) && \
	rm -rf $(UPSTREAM_OUT) && mkdir -p $(UPSTREAM_OUT) && \
	for r in $$(seq $(UPSTREAM_ROUNDS)); do \
		echo "bench-upstream: round $$r of $(UPSTREAM_ROUNDS)"; \
		BENCH_COMMIT=linux-6.1 $(UPSTREAM_BENCH) \
			--out-dir $(UPSTREAM_OUT)/linux $(UPSTREAM_RUN_ARGS) \
			>> $(UPSTREAM_OUT)/linux.log || exit 1; \
		$(BENCH_BIN) --out-dir $(UPSTREAM_OUT)/ours \
			$(UPSTREAM_RUN_ARGS) >> $(UPSTREAM_OUT)/ours.log || exit 1; \
	done && \
	$(BENCH_BIN) --out-dir $(UPSTREAM_OUT) \
		--merge $(UPSTREAM_OUT)/linux/*.json > /dev/null && \
	$(BENCH_BIN) --base $$(ls $(UPSTREAM_OUT)/*.json) \
		--merge $(UPSTREAM_OUT)/ours/*.json

# ---- mm/ on Linux's own tree: vma_bench's third backend (make bench) -------
#
# $(UPSTREAM_DIR)'s lib/maple_tree.c (built as for bench-upstream), mm/ and
# tools/testing/vma/bench_ops.c built against its maple_tree.h, with
# $(BENCH_DIR)/upstream/mm_compat.h forced in for what mm/ calls that 6.1
# lacks (__mt_dup(), __mas_set_range()), are linked into one relocatable
# object whose only global symbol is vma_bench_ops_upstream, as the other
# backends are (tools/testing/vma/rules.mk); $(VMA_UP_BENCH) is vma_bench
# with it.  Nothing of Linux's leaves $(BUILD).

VMA_UP_OBJ	:= $(VMA_OBJ)/bench-upstream
VMA_UP_BLOB	:= $(VMA_OBJ)/vma-bench-upstream.o
VMA_UP_BENCH	:= $(BUILD)/vma_bench_upstream
VMA_UP_MM_OBJS	:= $(addprefix $(VMA_UP_OBJ)/,$(MM_SRCS:.c=.o) \
		   $(VMA_DIR)/bench_ops.o)

$(VMA_UP_OBJ)/upstream/maple_tree.o: $(UPSTREAM_DIR)/stamp \
		$(wildcard $(BENCH_DIR)/upstream/*.h \
			   $(BENCH_DIR)/upstream/include/trace/events/*.h)
	$(call msg,CC [upstream],$(UPSTREAM_DIR)/lib/maple_tree.c)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=gnu11 -O2 -g -fno-strict-aliasing -D_GNU_SOURCE= \
		$(filter -m%,$(SANFLAGS) $(CFLAGS)) -DBENCH_UPSTREAM=61 \
		-include $(BENCH_DIR)/upstream/compat.h \
		-I$(UPSTREAM_DIR)/include -I$(BENCH_DIR)/upstream/include \
		-Itools/include -c $(UPSTREAM_DIR)/lib/maple_tree.c -o $@

$(VMA_UP_OBJ)/%.o: %.c $(UPSTREAM_DIR)/stamp \
		   $(BENCH_DIR)/upstream/mm_compat.h $(FLAGS_FILE)
	$(call msg,CC [upstream],$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -include $(BENCH_DIR)/upstream/mm_compat.h \
		-I$(UPSTREAM_DIR)/include $(INCLUDES) -DVMA_BACKEND=upstream \
		-DVMA_BENCH_UPSTREAM $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(VMA_UP_BLOB): $(VMA_UP_OBJ)/upstream/maple_tree.o $(VMA_UP_MM_OBJS)
	$(call msg,LD -r,$@)
	$(Q)$(VMA_LD_R) -o $@.tmp $^
	$(Q)objcopy $(VMA_KEEP_GLOBAL) -G vma_bench_ops_upstream $@.tmp $@ && \
		rm -f $@.tmp

$(VMA_UP_BENCH): $(VMA_DIR)/vma_bench.c $(VMA_DIR)/bench_ops.h \
		 $(BENCH_DIR)/bench_commit.h $(VMA_BENCH_BLOBS) $(VMA_UP_BLOB) $(BUILD)/libmaple.a
	$(call msg,CC,$@)
	$(Q)$(CC) $(INCLUDES) $(ALL_CFLAGS) -o $@ $< $(VMA_BENCH_BLOBS) \
		$(VMA_UP_BLOB) $(BUILD)/libmaple.a $(VMA_BENCH_LIBS)

-include $(VMA_UP_MM_OBJS:.o=.d)
