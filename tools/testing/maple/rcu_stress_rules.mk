# SPDX-License-Identifier: GPL-2.0+
#
# Long runs of the RCU stress and grace-period suites (rcu_stress.c);
# included from the top-level Makefile:
#
#	-include tools/testing/maple/rcu_stress_rules.mk
#
#   make stress                      every maple_rcu* case, 120 s per
#                                    stress case
#   make stress STRESS_SECONDS=600   longer (fractions work: 0.5)
#   make stress SEED=n               replay a run's choices (not its
#                                    thread interleaving)
#   make stress-asan                 the same under ASan+UBSan (build/asan)
#   make stress-tsan                 the same under TSan (build/tsan)
#   make stress-strict               the maple_rcu_stress cases under ASan
#                                    with strict grace periods (below)
#
# "make check" runs the same cases for 3 s each: the suite reads
# STRESS_SECONDS from the environment and defaults to 3 when it is unset.
# STRESS_FILTER narrows the run, e.g. STRESS_FILTER='maple_rcu_stress.mt_*'.
# Each case gets STRESS_SECONDS * 2 + 120 s before the runner kills it.

STRESS_SECONDS	?= 120
STRESS_FILTER	?= maple_rcu*
STRESS_TIMEOUT	= $(shell awk 'BEGIN { printf "%d", $(STRESS_SECONDS) * 2 + 120 }')

.PHONY: stress stress-asan stress-tsan stress-strict

stress_run = STRESS_SECONDS=$(STRESS_SECONDS) KTEST_TIMEOUT=$(STRESS_TIMEOUT) \
	KTEST_FILTER='$(STRESS_FILTER)' $(1)

stress: $(BUILD)/maple-test
	$(call stress_run,$(BUILD)/maple-test)

# The sub-make only builds the binary, so these work wherever this file is
# included from.
stress-asan:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan \
		SANFLAGS="$(ASAN_FLAGS)" $(BUILD)/asan/maple-test
	$(call stress_run,$(BUILD)/asan/maple-test)

stress-tsan:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/tsan \
		SANFLAGS="$(TSAN_FLAGS)" $(BUILD)/tsan/maple-test
	$(call stress_run,$(BUILD)/tsan/maple-test)

# Strict grace periods (RCU_STRICT in tools/lib/rcu.c): every
# STRICT_EVERY-th call_rcu() of a writer frees its object before it
# returns, so a node retired before it is unlinked is freed while readers
# can still reach it and ASan reports the reader that does (a retire moved
# above its publish in mt_leaf_commit() fails every case within seconds;
# batched callbacks let 30 s of stress-asan pass it).  The grace-period
# suite is left out: its readers park across the writer's own stores.
# CI runs it with STRESS_SECONDS=20.
STRICT_EVERY	?= 16

stress-strict: STRESS_FILTER = maple_rcu_stress.*
stress-strict:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/asan \
		SANFLAGS="$(ASAN_FLAGS)" $(BUILD)/asan/maple-test
	RCU_STRICT=$(STRICT_EVERY) $(call stress_run,$(BUILD)/asan/maple-test)
