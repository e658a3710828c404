# SPDX-License-Identifier: GPL-2.0+
#
# Benchmark rules, included from the top Makefile:
#
#	include tools/testing/bench/rules.mk
#
# make bench                 full run (7 repetitions, 100 .. 1,000,000 ranges)
# make bench QUICK=1         3 repetitions, smaller sizes (under 30 s)
# make bench BASE=old.json   compare with an earlier run's JSON
# make bench CALLGRIND=1     add instructions/op counted under callgrind
# make bench-quick           same as make bench QUICK=1
# make bench-callgrind       only the callgrind counts
# make bench-smoke           one tiny run to see the benchmark works (no JSON)
#
# Each run writes bench-results/<date>-<commit>[-quick].json.
# BENCH_ARGS passes further options, e.g. BENCH_ARGS="--sizes 1000 --reps 15".
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

BENCH_RUN_ARGS	= $(if $(call bench_yes,$(QUICK)),--quick) \
		  $(if $(BASE),--base $(BASE)) \
		  $(if $(call bench_yes,$(CALLGRIND)),--callgrind) \
		  $(BENCH_ARGS)

$(BENCH_BIN): $(BENCH_DIR)/bench_tree.c include/linux/maple_tree.h \
	      $(wildcard tools/include/linux/*.h) \
	      $(BENCH_LIB)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(dir $@)
	$(Q)$(CC) $(BENCH_CPPFLAGS) $(BENCH_CFLAGS) $(SANFLAGS) -o $@ $< \
		$(BENCH_LIB) $(BENCH_LIBS)

.PHONY: bench bench-quick bench-callgrind bench-smoke bench-check

bench: $(BENCH_BIN)
	$(BENCH_BIN) $(BENCH_RUN_ARGS)

bench-quick: $(BENCH_BIN)
	$(BENCH_BIN) --quick $(BENCH_RUN_ARGS)

bench-callgrind: $(BENCH_BIN)
	$(BENCH_BIN) --callgrind-only $(BENCH_RUN_ARGS)

bench-smoke: $(BENCH_BIN)
	$(BENCH_BIN) --sizes 100,1000 --reps 1 --batch 2000 --no-json

# What "make check" runs: one QUICK run to see the benchmark works.  It
# asserts no speed; the table goes to a log, shown only on failure.
bench-check: $(BENCH_BIN)
	@$(BENCH_BIN) --quick --no-json > $(BUILD)/bench-quick.log 2>&1 || \
		{ cat $(BUILD)/bench-quick.log; echo "bench QUICK run failed"; exit 1; }
