// SPDX-License-Identifier: GPL-2.0+
/*
 * libFuzzer target: the input bytes are decoded into maple tree operations
 * (model_fuzz_run() in model.c documents the format) that run on a tree
 * and on the reference model side by side.  Any difference, or any
 * mt_validate_errors() report, aborts with the operation that caused it.
 *
 * Slab objects still live after an input (but for those a call_rcu()
 * callback will free) are reported as a leak.
 *
 * Build and run with `make fuzz` (tools/testing/maple/rules.mk).  Crashing
 * inputs belong in tools/testing/maple/fuzz-regressions/, which
 * fuzz_regress_test.c replays on every `make check`.
 */
#include <linux/maple_tree.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "model.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	maple_tree_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char msg[2 * MODEL_MSG_LEN];
	long live = kmem_nr_live_settled(), warns = kernel_warn_count();

	if (model_fuzz_run(data, size, msg, sizeof(msg))) {
		fprintf(stderr, "maple fuzz: %s\n", msg);
		abort();
	}
	/* The tree's debug checks warn where they find it wrong. */
	if (kernel_warn_count() != warns) {
		fprintf(stderr, "maple fuzz: %ld warnings\n",
			kernel_warn_count() - warns);
		abort();
	}

	/*
	 * Every node must be back in its cache once the tree is destroyed,
	 * or on its way there after a grace period (RCU-mode trees): counted
	 * without waiting for one (kmem_nr_live_settled()).  This replaces
	 * libFuzzer's own leak detection (-detect_leaks=0), which would scan
	 * the heap after every input because freed nodes are recycled.  A
	 * callback that did not free what it should shows at the next input,
	 * or in ASan's use-after-free and double-free reports.
	 */
	if (kmem_nr_live_settled() != live) {
		fprintf(stderr, "maple fuzz: %ld slab objects leaked\n",
			kmem_nr_live_settled() - live);
		abort();
	}
	return 0;
}
