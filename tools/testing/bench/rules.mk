# SPDX-License-Identifier: GPL-2.0+
#
# Benchmark rules, included from the top Makefile:
#
#	include tools/testing/bench/rules.mk
#
# make bench                 full run: the tree (7 repetitions, 100 ..
#                            1,000,000 ranges) against Linux 6.1's and
#                            6.12's own trees, then mm/ (vma_bench): the
#                            kernel test robot's workloads on the maple
#                            tree, the rbtree and Linux 6.1's and 6.12's
#                            own trees (each Linux column only when
#                            Debian's linux-source-<v> is installed;
#                            installed here when run as root; UPSTREAM=0
#                            leaves them out), each table in the robot's
#                            "base %change new metric" format; it says
#                            first how long it will take, and ends with
#                            the verdict: per baseline, the rows ahead,
#                            level and behind (verdict.c)
# make bench QUICK=1         3 repetitions, smaller sizes (under 30 s); the
#                            tree part without Linux's trees
# make bench BASE=old.json   compare with an earlier run's JSON (either of
#                            the pair a make bench run writes)
# make bench CALLGRIND=1     add instructions/op counted under callgrind
#                            (also those of mmap_lock's critical section)
# make bench-chart           the PNG chart of the newest (or FILE=) mm/ run,
#                            which make bench also draws when gnuplot is
#                            there (installed when run as root)
# make bench-quick           the tree only, QUICK=1
# make bench-callgrind       only the callgrind counts
# make bench-smoke           one tiny run to see the benchmark works (no JSON)
# make bench-page            Documentation/bench-results.rst from the newest
#                            full run in bench-results/ (or RUN=<run>.json),
#                            its chart copied to Documentation/images/
#                            (scripts/bench-results-page.py)
# make bench-upstream        the tree-level run on Linux 6.1's and 6.12's
#                            own maple trees and on ours, in turn,
#                            UPSTREAM_ROUNDS (3) times each; the medians
#                            compared ("upstream-6.1 %change maple", then
#                            "upstream-6.12 %change maple")
#
# Each make bench writes bench-results/<stamp>-<commit>[-quick].json (the
# tree), the same name ending in -mm.json (mm/), one BENCH_STAMP and
# BENCH_COMMIT for both, and -mm.png, the chart of the mm/ ratios.
# mm/'s run ends with the critical section (vma_bench.c): ns and, with
# CALLGRIND=1, instructions per op with mmap_lock held for write, and the
# Amdahl ceiling it puts on thread mode, in its own table and under
# "cs_metrics" in the -mm.json; the chart draws the ceilings.
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
BENCH_CPPFLAGS	?= $(INCLUDES)
# liburcu is linked statically outside sanitizer builds: from the shared
# library its call_rcu() reaches its per-thread data through
# __tls_get_addr(), about 65 instructions per call that a kernel's
# call_rcu() does not have and that callgrind would count as the tree's.
# (Sanitizer builds keep the shared library their suppressions name.)
BENCH_URCU	?= $(if $(strip $(SANFLAGS)),-lurcu-memb,\
		   -Wl,-Bstatic -lurcu-memb -lurcu-common -Wl,-Bdynamic)
BENCH_LIBS	?= $(BENCH_URCU) -lpthread -lm
BENCH_ARGS	?=
# The verdict (ahead, level, behind per baseline), which bench_tree.c,
# vma_bench.c and replay_bench.c include, and the robot's table, which the
# last two include; the programs of tools/testing/vma/rules.mk get the
# dependency here.
BENCH_VERDICT_SRCS := $(BENCH_DIR)/verdict.c $(BENCH_DIR)/verdict.h \
		      $(BENCH_DIR)/robot_table.c $(BENCH_DIR)/robot_table.h
$(BUILD)/vma_bench $(BUILD)/vma_replay: $(BENCH_VERDICT_SRCS)

# Its cases (verdict_test.c) join build/maple-test's suites, with those
# of the hold times behind the critical section and of its arithmetic
# (lock_stat_test.c).
BENCH_TEST_OBJS	:= $(DOBJ)/$(BENCH_DIR)/verdict_test.o \
		   $(DOBJ)/$(BENCH_DIR)/lock_stat_test.o
TEST_OBJS	+= $(BENCH_TEST_OBJS)
ALL_OBJS	+= $(BENCH_TEST_OBJS)
$(BUILD)/maple-test: $(BENCH_TEST_OBJS)

bench_yes = $(filter 1 y yes true,$(1))
# A sub-make of $(1) that keeps quiet when there is nothing to do.
make_quiet = { $(MAKE) --no-print-directory -q $(1) 2>/dev/null || \
	       $(MAKE) --no-print-directory $(1); }

# BASE may name either file of a make bench run; the tree reads its own.
BENCH_RUN_ARGS	= $(if $(call bench_yes,$(QUICK)),--quick) \
		  $(if $(BASE),--base $(patsubst %-mm.json,%.json,$(BASE))) \
		  $(if $(call bench_yes,$(CALLGRIND)),--callgrind) \
		  $(BENCH_ARGS)

$(BENCH_BIN): $(BENCH_DIR)/bench_tree.c $(BENCH_DIR)/bench_commit.h \
	      $(BENCH_VERDICT_SRCS) \
	      include/linux/maple_tree.h $(wildcard tools/include/linux/*.h) \
	      $(FLAGS_FILE) \
	      $(BENCH_LIB)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(BENCH_CPPFLAGS) $(BENCH_CFLAGS) $(SANFLAGS) -o $@ $< \
		$(BENCH_LIB) $(BENCH_LIBS)

.PHONY: bench bench-quick bench-callgrind bench-smoke bench-check

# The tree first: with Linux's trees as baselines (each version whose
# source is there, below), each run once with the same options before
# ours, whose tables then read "upstream-<v> %change maple"; then the mm/
# layer (tools/testing/vma/vma_bench.c): the robot's workloads and the
# micro-workloads on the maple tree, the rbtree design and Linux's own
# trees ($(VMA_UP_BENCH), below), in the same run.  UPSTREAM=0 leaves
# Linux's trees out at both levels; UPSTREAM_TREE=0 at the tree level
# only, which QUICK=1 does by default to stay under 30 s (make
# bench-upstream QUICK=1 has that comparison, with rounds).
UPSTREAM	?= 1
UPSTREAM_TREE	?= $(if $(call bench_yes,$(QUICK)),0,1)
VMA_BENCH_RUN_ARGS = $(if $(call bench_yes,$(QUICK)),--quick) \
		     $(if $(BASE),--base $(BASE)) \
		     $(if $(call bench_yes,$(CALLGRIND)),--callgrind) \
		     $(VMA_BENCH_ARGS)

# Both programs get one stamp and one commit name, so the run's two files
# pair up even if the tree changes while it runs; the chart follows
# (scripts/bench-chart.sh, skipped without gnuplot), then the verdicts
# both programs wrote to $(BENCH_VERDICT_OUT) (BENCH_VERDICT), the tree's
# and mm/'s against each baseline, so that they end the run.
#
# How long it takes on a 2-core machine under load, measured: a tree run
# BENCH_EST_TREE seconds (each Linux version's and ours), mm/
# BENCH_EST_MM seconds per backend (maple, the rbtree, each version).
BENCH_VERDICT_OUT := $(BUILD)/bench-verdict.txt
# With Linux's trees in the tree part, the trees run in turn
# BENCH_TREE_ROUNDS times, 3 repetitions a run, and each tree's runs are
# merged (median per metric, spread across runs): a minute of noise on a
# shared machine lands on one round of one tree, not on its whole column.
# One round (BENCH_TREE_ROUNDS=1, and always with CALLGRIND=1, whose counts
# do not vary) runs each tree once with 7 repetitions.
BENCH_TREE_ROUNDS ?= $(if $(call bench_yes,$(CALLGRIND)),1,3)
BENCH_TREE_ROUND_ARGS = $(if $(call bench_yes,$(QUICK)),--quick) \
			$(filter-out --no-json,$(BENCH_ARGS)) \
			$(if $(filter --reps,$(BENCH_ARGS)),,--reps 3)
BENCH_EST_TREE	= $(if $(call bench_yes,$(QUICK)),3,90)
BENCH_EST_MM	= $(if $(call bench_yes,$(QUICK)),4,50)
BENCH_EST_MORE	= $(if $(call bench_yes,$(CALLGRIND)), (more with CALLGRIND=1))
# The traces: seconds per backend, and the profile.
BENCH_EST_TRACES = $(if $(call bench_yes,$(QUICK)),2,4)

bench: $(BENCH_BIN) $(BUILD)/vma_bench $(BUILD)/vma_replay bench-chart-deps \
       bench-traces-deps \
       $(if $(call bench_yes,$(CALLGRIND)),deps-callgrind)
	@t0=$$(date +%s); \
	export BENCH_STAMP=$$(date -u +%Y%m%d-%H%M%S); \
	c=$$(git rev-parse --short HEAD 2>/dev/null) && \
	{ git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; } && \
	export BENCH_COMMIT=$${BENCH_COMMIT:-$$c}; \
	vers=; $(if $(call bench_yes,$(UPSTREAM)),$(call upstream_versions,bench)) \
	bl=; o=$(UPSTREAM_OUT)/bench; rm -rf $$o; \
	nv=$$(echo $$vers | wc -w); \
	nt=$(if $(call bench_yes,$(UPSTREAM_TREE)),$$((1 + nv)),1); \
	est=$$(( $(BENCH_EST_TREE) * nt + \
		($(BENCH_EST_MM) + $(BENCH_EST_TRACES)) * (2 + nv) + 10 )); \
	if [ $$est -lt 90 ]; then est="$$est s"; \
	else est="$$(( (est + 30) / 60 )) min"; fi; \
	lv=$$(echo $$vers | sed 's/ / and /g'); \
	what="the tree"; [ $$nt = 1 ] || what="the tree on Linux $$lv and ours"; \
	echo "bench: about $$est on a 2-core machine$(BENCH_EST_MORE):" \
	     "$$what, then mm/ and the traces on $$((2 + nv)) backends;" \
	     "the verdict at the end"; \
	export BENCH_VERDICT=$(BENCH_VERDICT_OUT); rm -f $$BENCH_VERDICT; \
	$(if $(call bench_yes,$(UPSTREAM_TREE)),,[ -z "$$vers" ] || \
		echo "bench: the tree part without Linux's trees" \
		     "(UPSTREAM_TREE=0, the default with QUICK=1;" \
		     "make bench-upstream compares them)";) \
	tv=$(if $(call bench_yes,$(UPSTREAM_TREE)),$$vers); \
	rounds=$(BENCH_TREE_ROUNDS); [ -n "$$tv" ] || rounds=1; \
	for v in $$tv; do \
		$(call make_quiet,$(BUILD)/bench_tree_upstream-$$v) || exit 1; \
	done; \
	mkdir -p $$o; \
	for r in $$(seq $$rounds); do \
		[ $$rounds = 1 ] || \
		echo "bench: the tree, round $$r of $$rounds: Linux$$tv, ours" \
		     "(logs: $$o/)"; \
		for v in $$tv; do \
			[ $$rounds != 1 ] || \
			echo "bench: the tree on Linux $$v (log: $$o/linux-$$v.log)"; \
			BENCH_COMMIT=linux-$$v BENCH_STAMP= BENCH_VERDICT= \
			$(BUILD)/bench_tree_upstream-$$v \
				--out-dir $$o/linux-$$v \
				$$(if [ $$rounds = 1 ]; then \
					echo "$(filter-out --no-json,$(BENCH_RUN_ARGS))"; \
				   else echo "$(BENCH_TREE_ROUND_ARGS)"; fi) \
				>> $$o/linux-$$v.log || exit 1; \
		done; \
		[ $$rounds = 1 ] || \
			BENCH_STAMP= BENCH_VERDICT= $(BENCH_BIN) \
				--out-dir $$o/ours $(BENCH_TREE_ROUND_ARGS) \
				>> $$o/ours.log || exit 1; \
	done; \
	for v in $$tv; do \
		f=$$(ls $$o/linux-$$v/*.json); \
		if [ $$rounds != 1 ]; then \
			$(BENCH_BIN) --out-dir $$o/merged-$$v --merge $$f \
				> /dev/null || exit 1; \
			f=$$(ls $$o/merged-$$v/*.json); \
		fi; \
		bl="$$bl --baseline upstream-$$v=$$f"; \
	done; \
	if [ $$rounds = 1 ]; then \
		$(BENCH_BIN) $(BENCH_RUN_ARGS) $$bl || exit 1; \
	else \
		$(BENCH_BIN) $(filter-out --quick --callgrind,$(BENCH_RUN_ARGS)) \
			$$bl --merge $$o/ours/*.json || exit 1; \
	fi; \
	if [ -n "$$vers" ]; then \
		$(call make_quiet,$(VMA_UP_BENCH)) && \
		$(VMA_UP_BENCH) $(VMA_BENCH_RUN_ARGS) || exit 1; \
	else \
		$(BUILD)/vma_bench $(VMA_BENCH_RUN_ARGS) || exit 1; \
	fi; \
	r=$(BUILD)/vma_replay; \
	if [ -n "$$vers" ]; then \
		$(call make_quiet,$(VMA_UP_REPLAY)) && r=$(VMA_UP_REPLAY) || exit 1; \
	fi; \
	echo; echo "bench: traces of real programs ($(VMA_DIR)/traces)"; \
	$$r $(REPLAY_RUN_ARGS) $(REPLAY_TRACES) || exit 1; \
	for f in bench-results/$$BENCH_STAMP-*-mm.json; do \
		[ -f "$$f" ] && scripts/bench-chart.sh "$$f"; \
	done; \
	t=$$(( $$(date +%s) - t0 )); \
	echo; echo "bench: mmap_lock's critical section (ns$(if $(call bench_yes,$(CALLGRIND)), and instructions,) per op held for" \
		"write$(if $(call bench_yes,$(CALLGRIND)),,; instructions with CALLGRIND=1)) and thread mode's Amdahl" \
		"ceiling: the table after mm/'s robot tables, \"cs_metrics\" in" \
		"bench-results/$$BENCH_STAMP-*-mm.json, the black lines of the chart"; \
	echo "bench: done in $$((t / 60)) min $$((t % 60)) s; the verdict:"; \
	cat $$BENCH_VERDICT 2>/dev/null; true

# The traces section (tools/testing/vma/replay_bench.c): every shipped
# trace replayed on every backend, checked alike, then timed; the worst
# trace for our tree profiled under callgrind (valgrind: installed when
# run as root, else the profile is left out with a line saying so).
REPLAY_RUN_ARGS	= $(if $(call bench_yes,$(QUICK)),--quick) --profile \
		  $(if $(filter --no-json,$(VMA_BENCH_ARGS)),,--json bench-results/traces)
.PHONY: bench-traces-deps
bench-traces-deps:
	@command -v valgrind >/dev/null || [ "$$(id -u)" != 0 ] || \
		$(MAKE) --no-print-directory -s deps-callgrind

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

# make bench-page [RUN=bench-results/<run>.json]: the results page of a
# run, by default the newest full one.
.PHONY: bench-page
bench-page:
	@scripts/bench-results-page.py $(RUN)

bench-quick: $(BENCH_BIN)
	$(BENCH_BIN) --quick $(BENCH_RUN_ARGS)

bench-callgrind: $(BENCH_BIN) deps-callgrind
	$(BENCH_BIN) --callgrind-only $(BENCH_RUN_ARGS)

bench-smoke: $(BENCH_BIN)
	$(BENCH_BIN) --sizes 100,1000 --reps 1 --batch 2000 --no-json

# What "make check" runs: one QUICK run to see the benchmark works.  It
# asserts no speed; the table goes to a log, shown only on failure.
bench-check: $(BENCH_BIN) $(BUILD)/vma_bench $(BUILD)/vma_replay
	@$(BENCH_BIN) --quick --no-json > $(BUILD)/bench-quick.log 2>&1 || \
		{ cat $(BUILD)/bench-quick.log; echo "bench QUICK run failed"; exit 1; }
	@$(BUILD)/vma_bench --quick --runs 1 --no-json > $(BUILD)/vma-bench-quick.log 2>&1 || \
		{ cat $(BUILD)/vma-bench-quick.log; echo "vma_bench QUICK run failed"; exit 1; }
	@$(BUILD)/vma_replay --check $(REPLAY_TRACES) > $(BUILD)/vma-replay-check.log 2>&1 || \
		{ cat $(BUILD)/vma-replay-check.log; echo "vma_replay --check failed"; exit 1; }

# ---- Linux's own tree as the baseline (make bench-upstream) ----------------
#
# lib/maple_tree.c and include/linux/maple_tree.h are taken at build time
# from Debian's linux-source-<v> (v in $(UPSTREAM_VERSIONS): 6.1 and 6.12)
# into $(BUILD)/upstream-<v> (never committed) and built with the same
# benchmark and the same userspace stand-ins, plus $(BENCH_DIR)/upstream/
# (a forced-in header and compiled-out trace points, the same for both
# versions), with -DBENCH_UPSTREAM=61 or 612: 6.1 has no __mt_dup(), so
# its fork_dup row is left out.  A version whose package is absent (and
# cannot be installed) is skipped with one line saying so.

UPSTREAM_VERSIONS ?= 6.1 6.12
UPSTREAM_TARBALL ?= /usr/src/linux-source-6.1.tar.xz
UPSTREAM_TARBALL_6.1 ?= $(UPSTREAM_TARBALL)
UPSTREAM_TARBALL_6.12 ?= /usr/src/linux-source-6.12.tar.xz
# Where scripts/linux-src.sh unpacks each (6.1: its default, shared with
# make bench KERNEL=1; a cache holds one tarball at a time).
UPSTREAM_CACHE_6.12 := $(BUILD)/linux-src-6.12
UPSTREAM_FILES	:= lib/maple_tree.c include/linux/maple_tree.h
UPSTREAM_OUT	:= $(BUILD)/bench-upstream
# The versions' tree and ours run in turn (6.1, 6.12, ours, 6.1, ...),
# UPSTREAM_ROUNDS times each, with fewer repetitions per run; each side's
# runs are merged (the median per metric, the spread across runs) before
# they are compared, so a burst of noise on this shared machine lands on
# one run of one side only.
UPSTREAM_ROUNDS	?= 3
UPSTREAM_RUN_ARGS = $(filter-out --no-json,$(BENCH_RUN_ARGS)) $(if $(filter --reps,$(BENCH_ARGS)),,--reps 3)

# The flags of Linux's lib/maple_tree.c of version $(1) (no -Wall: it is
# not our code).
upstream_cc = $(CC) -std=gnu11 -O2 -g -fno-strict-aliasing -D_GNU_SOURCE= \
	-DBENCH_UPSTREAM=$(subst .,,$(1)) \
	-include $(BENCH_DIR)/upstream/compat.h \
	-I$(BUILD)/upstream-$(1)/include -I$(BENCH_DIR)/upstream/include \
	-Itools/include

# upstream_version(v): the copy of version v's two files, and
# $(BUILD)/bench_tree_upstream-v, the benchmark built on them.
define upstream_version
$(BUILD)/upstream-$(1)/stamp: $$(UPSTREAM_TARBALL_$(1))
	$$(call msg,COPY,$(BUILD)/upstream-$(1))
	$$(Q)rm -rf $(BUILD)/upstream-$(1) && mkdir -p $(BUILD)/upstream-$(1)
	$$(Q)src=$$$$(LINUX_SRC_TARBALL=$$(UPSTREAM_TARBALL_$(1)) \
		$$(if $$(UPSTREAM_CACHE_$(1)),LINUX_SRC_CACHE=$$(abspath $$(UPSTREAM_CACHE_$(1)))) \
		scripts/linux-src.sh $$(UPSTREAM_FILES)) && \
	for f in $$(UPSTREAM_FILES); do \
		install -D -m 644 $$$$src/$$$$f $(BUILD)/upstream-$(1)/$$$$f || exit 1; \
	done
	$$(Q)touch $$@

$(BUILD)/bench_tree_upstream-$(1): $(BUILD)/upstream-$(1)/stamp \
		$$(BENCH_DIR)/bench_tree.c $$(BENCH_DIR)/bench_commit.h \
		$$(BENCH_VERDICT_SRCS) \
		$$(wildcard $$(BENCH_DIR)/upstream/*.h tools/lib/*.c \
			    tools/include/linux/*.h)
	$$(call msg,CC,$$@)
	$$(Q)$$(call upstream_cc,$(1)) -o $$@ $$(BENCH_DIR)/bench_tree.c \
		$(BUILD)/upstream-$(1)/lib/maple_tree.c \
		$$(wildcard tools/lib/*.c) $$(BENCH_LIBS)
endef
$(foreach v,$(UPSTREAM_VERSIONS),$(eval $(call upstream_version,$(v))))

# Is version $(2)'s tarball there?  Installs linux-source-$(2) when run as
# root; else says in one line how to get it (the caller, $(1), then skips
# that version's column).
upstream_ready = { [ -f $(UPSTREAM_TARBALL_$(2)) ] || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "$(1): installing linux-source-$(2)"; \
		scripts/apt-install.sh linux-source-$(2) >/dev/null 2>&1; \
		[ -f $(UPSTREAM_TARBALL_$(2)) ] || \
		{ echo "$(1): still no $(UPSTREAM_TARBALL_$(2)), so no" \
		       "Linux $(2) column"; false; }; \
	else \
		echo "$(1): no $(UPSTREAM_TARBALL_$(2)), so no Linux $(2)" \
		     "column; as root: apt-get install linux-source-$(2)"; \
		false; \
	fi; }

# The shell word list of the versions that are ready (installing them
# when root), in $$vers.
upstream_versions = vers=; \
	$(foreach v,$(UPSTREAM_VERSIONS),\
		if $(call upstream_ready,$(1),$(v)); then vers="$$vers $(v)"; fi;)

.PHONY: bench-upstream
bench-upstream: $(BENCH_BIN)
	@$(call upstream_versions,bench-upstream) \
	[ -n "$$vers" ] || exit 0; \
	$(call make_quiet,$$(for v in $$vers; do \
		echo $(BUILD)/bench_tree_upstream-$$v; done)) && \
	rm -rf $(UPSTREAM_OUT) && mkdir -p $(UPSTREAM_OUT) && \
	for r in $$(seq $(UPSTREAM_ROUNDS)); do \
		echo "bench-upstream: round $$r of $(UPSTREAM_ROUNDS):$$vers ours"; \
		for v in $$vers; do \
			BENCH_COMMIT=linux-$$v $(BUILD)/bench_tree_upstream-$$v \
				--out-dir $(UPSTREAM_OUT)/linux-$$v \
				$(UPSTREAM_RUN_ARGS) \
				>> $(UPSTREAM_OUT)/linux-$$v.log || exit 1; \
		done; \
		$(BENCH_BIN) --out-dir $(UPSTREAM_OUT)/ours \
			$(UPSTREAM_RUN_ARGS) >> $(UPSTREAM_OUT)/ours.log || exit 1; \
	done && \
	bl=; for v in $$vers; do \
		$(BENCH_BIN) --out-dir $(UPSTREAM_OUT)/merged-$$v \
			--merge $(UPSTREAM_OUT)/linux-$$v/*.json > /dev/null && \
		bl="$$bl --baseline upstream-$$v=$$(ls $(UPSTREAM_OUT)/merged-$$v/*.json)" || \
		exit 1; \
	done; \
	$(BENCH_BIN) $$bl --merge $(UPSTREAM_OUT)/ours/*.json

# ---- mm/ on Linux's own tree: vma_bench's baseline backends (make bench) ---
#
# For each version v whose tarball is there: $(BUILD)/upstream-<v>'s
# lib/maple_tree.c (built as for bench-upstream), mm/ and
# tools/testing/vma/bench_ops.c built against its maple_tree.h, with
# $(BENCH_DIR)/upstream/mm_compat-<v>.h forced in (6.1: what mm/ calls
# that 6.1 lacks, __mt_dup(), __mas_set_range(), mas_next_range() and
# mas_prev_range(); 6.12: the spelling of a fresh state, and
# __mas_set_range() as a reset), are linked into one relocatable object whose only
# global symbol is vma_bench_ops_upstream (6.1) or vma_bench_ops_upstream612,
# as the other backends are (tools/testing/vma/rules.mk); $(VMA_UP_BENCH)
# is vma_bench with them.  Nothing of Linux's leaves $(BUILD).  The set is
# decided when make reads this file: make bench installs a missing
# package first, then builds $(VMA_UP_BENCH) in a new make.

VMA_UP_BENCH	:= $(BUILD)/vma_bench_upstream
VMA_UP_MM_SRCS	:= $(MM_SRCS) $(VMA_DIR)/bench_ops.c
# The ops symbol of each version's backend.
VMA_UP_SYM_6.1	:= upstream
VMA_UP_SYM_6.12	:= upstream612
VMA_UP_READY	:= $(foreach v,$(UPSTREAM_VERSIONS),\
		     $(if $(wildcard $(UPSTREAM_TARBALL_$(v))),$(v)))
VMA_UP_BLOBS	:= $(foreach v,$(VMA_UP_READY),$(VMA_OBJ)/vma-bench-upstream-$(v).o)

define vma_upstream_version
$(VMA_OBJ)/bench-upstream-$(1)/upstream/maple_tree.o: \
		$(BUILD)/upstream-$(1)/stamp \
		$$(wildcard $$(BENCH_DIR)/upstream/*.h \
			    $$(BENCH_DIR)/upstream/include/trace/events/*.h \
			    tools/include/linux/*.h)
	$$(call msg,CC [upstream-$(1)],$(BUILD)/upstream-$(1)/lib/maple_tree.c)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(call upstream_cc,$(1)) $$(filter -m%,$$(SANFLAGS) $$(CFLAGS)) \
		$$(DEPFLAGS) -c $(BUILD)/upstream-$(1)/lib/maple_tree.c -o $$@

$(VMA_OBJ)/bench-upstream-$(1)/%.o: %.c $(BUILD)/upstream-$(1)/stamp \
		$$(BENCH_DIR)/upstream/mm_compat-$(1).h \
		$$(BENCH_DIR)/upstream/mm_compat.h $$(FLAGS_FILE)
	$$(call msg,CC [upstream-$(1)],$$<)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(CC) -include $$(BENCH_DIR)/upstream/mm_compat-$(1).h \
		-I$(BUILD)/upstream-$(1)/include $$(INCLUDES) \
		-DVMA_BACKEND=$$(VMA_UP_SYM_$(1)) \
		-DVMA_BACKEND_NAME='"upstream$(if $(filter-out 6.1,$(1)),-$(1))"' \
		-DVMA_BENCH_UPSTREAM $$(ALL_CFLAGS) $$(DEPFLAGS) -c $$< -o $$@

$(VMA_OBJ)/vma-bench-upstream-$(1).o: \
		$(VMA_OBJ)/bench-upstream-$(1)/upstream/maple_tree.o \
		$(addprefix $(VMA_OBJ)/bench-upstream-$(1)/,$(VMA_UP_MM_SRCS:.c=.o))
	$$(call msg,LD -r,$$@)
	$$(Q)$$(VMA_LD_R) -o $$@.tmp $$^
	$$(Q)objcopy $$(VMA_KEEP_GLOBAL) -G vma_bench_ops_$$(VMA_UP_SYM_$(1)) \
		$$@.tmp $$@ && rm -f $$@.tmp

# Linux's file is built on our stand-ins (tools/include): a change to one
# must rebuild it, or its structs and ours disagree.
-include $(addprefix $(VMA_OBJ)/bench-upstream-$(1)/,$(VMA_UP_MM_SRCS:.c=.d) \
			upstream/maple_tree.d)
endef
$(foreach v,$(UPSTREAM_VERSIONS),$(eval $(call vma_upstream_version,$(v))))

# The versions linked in are named in a file, so that a package added or
# removed relinks the program.
$(VMA_OBJ)/upstream-versions: FORCE
	@mkdir -p $(@D)
	@echo "$(VMA_UP_READY)" | cmp -s - $@ || echo "$(VMA_UP_READY)" > $@

$(VMA_UP_BENCH): $(VMA_DIR)/vma_bench.c $(VMA_BENCH_HDRS) \
		 $(BENCH_VERDICT_SRCS) \
		 $(VMA_BENCH_BLOBS) $(VMA_UP_BLOBS) \
		 $(VMA_OBJ)/upstream-versions $(BUILD)/libmaple.a
	$(call msg,CC,$@)
	$(Q)$(CC) $(INCLUDES) $(ALL_CFLAGS) -o $@ $< $(VMA_BENCH_BLOBS) \
		$(VMA_UP_BLOBS) $(BUILD)/libmaple.a $(VMA_BENCH_LIBS)

# The trace replayer with the same backends (tools/testing/vma/rules.mk):
# each version's blob is its Linux tree, mm/ and replay_ops.c, exporting
# only vma_replay_ops_upstream (6.1) or vma_replay_ops_upstream612.
VMA_UP_REPLAY	:= $(BUILD)/vma_replay_upstream
VMA_UP_REPLAY_BLOBS := $(foreach v,$(VMA_UP_READY),$(VMA_OBJ)/vma-replay-upstream-$(v).o)

define vma_replay_upstream_version
$(VMA_OBJ)/vma-replay-upstream-$(1).o: \
		$(VMA_OBJ)/bench-upstream-$(1)/upstream/maple_tree.o \
		$(addprefix $(VMA_OBJ)/bench-upstream-$(1)/,$(MM_SRCS:.c=.o) \
			    $(VMA_DIR)/replay_ops.o)
	$$(call msg,LD -r,$$@)
	$$(Q)$$(VMA_LD_R) -o $$@.tmp $$^
	$$(Q)objcopy $$(VMA_KEEP_GLOBAL) -G vma_replay_ops_$$(VMA_UP_SYM_$(1)) \
		$$@.tmp $$@ && rm -f $$@.tmp

-include $(VMA_OBJ)/bench-upstream-$(1)/$(VMA_DIR)/replay_ops.d
endef
$(foreach v,$(UPSTREAM_VERSIONS),$(eval $(call vma_replay_upstream_version,$(v))))

$(VMA_UP_REPLAY): $(REPLAY_DEPS) $(BENCH_VERDICT_SRCS) $(VMA_REPLAY_BLOBS) \
		  $(VMA_UP_REPLAY_BLOBS) \
		  $(VMA_OBJ)/upstream-versions $(BUILD)/libmaple.a
	$(call msg,CC,$@)
	$(Q)$(CC) $(INCLUDES) $(ALL_CFLAGS) -o $@ $(REPLAY_SRCS) \
		$(VMA_REPLAY_BLOBS) $(VMA_UP_REPLAY_BLOBS) $(BUILD)/libmaple.a \
		$(VMA_BENCH_LIBS)
