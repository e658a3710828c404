// SPDX-License-Identifier: GPL-2.0
/*
 * The differential test of mm/: random sequences of mmap (no address, a
 * hint, MAP_FIXED, MAP_FIXED_NOREPLACE), munmap (partial, spanning),
 * mprotect, mremap (shrink, grow, move, fixed), brk, page faults, fork
 * (the child checked, changed, and the parent checked untouched) and
 * exit, run on an mm and on the reference model (vma_model.c) side by
 * side.  Every call's return value must be the model's; after every call
 * map_count and total_vm must be, and every few calls the whole address
 * space (VMAs forwards and backwards, find_vma() at both ends of each,
 * validate_mm()).  Built for each backend.
 *
 * The seed comes from ktest_seed() ("# seed: N (replay with SEED=N)");
 * each case mixes it with its name.  A mismatch names the case, the call
 * number, the call, and the seed.  Debugging a replay: VMA_TRACE=1 prints
 * every call, VMA_CHECK_EVERY=1 checks the whole space after each,
 * VMA_DUMP_AT=<n> prints the VMAs before call n.
 */
#include <stdlib.h>
#include <linux/slab.h>

#include "ktest.h"
#include "vma_model.h"
#include "vma_test.h"

struct vdiff {
	struct kunit *test;
	struct mm_struct *mm;
	struct vmm m;
	u64 rng;
	unsigned long seed, op, nr_ops;
	unsigned int check_every;
	bool keep;		/* no exit: keep the prefilled VMAs */
	bool failed;
	/* Calls made, by kind, for the closing line. */
	unsigned long counts[9];
};

enum { D_MMAP, D_MUNMAP, D_MPROTECT, D_MREMAP, D_BRK, D_FAULT, D_FORK,
       D_EXIT, D_NR };
static const char * const d_names[] = {
	"mmap", "munmap", "mprotect", "mremap", "brk", "fault", "fork", "exit",
};

static u64 d_rand(struct vdiff *d)
{
	/* splitmix64 */
	u64 z = (d->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned long d_below(struct vdiff *d, unsigned long n)
{
	return n ? (unsigned long)(d_rand(d) % n) : 0;
}

static bool d_chance(struct vdiff *d, unsigned int percent)
{
	return d_below(d, 100) < percent;
}

/* A length: mostly a few pages, sometimes many, rarely odd. */
static unsigned long d_len(struct vdiff *d)
{
	unsigned int r = d_below(d, 100);

	if (r < 2)
		return 0;
	if (r < 5)
		return d_below(d, 8 * PG) + 1;
	if (r < 85)
		return (d_below(d, 8) + 1) * PG;
	return (d_below(d, 128) + 1) * PG;
}

/* An address: mostly a page of the address space, rarely odd. */
static unsigned long d_addr(struct vdiff *d)
{
	unsigned int r = d_below(d, 100);

	if (r < 2)
		return d_below(d, d->m.task_size);
	if (r < 3)
		return d->m.task_size - d_below(d, 4) * PG;
	if (r < 4)
		return ULONG_MAX & PAGE_MASK;
	return d_below(d, d->m.task_size / PG) * PG;
}

/* Somewhere inside an existing mapping (or anywhere if none). */
static unsigned long d_mapped_addr(struct vdiff *d)
{
	const struct vmm_vma *a;

	if (!d->m.nr)
		return d_addr(d);
	a = &d->m.v[d_below(d, d->m.nr)];
	return a->start + d_below(d, (a->end - a->start) / PG) * PG;
}

static void d_fail(struct vdiff *d, const char *call, unsigned long got,
		   unsigned long want)
{
	d->failed = true;
	KUNIT_FAIL(d->test,
		   "call %lu: %s returned %lx, the model %lx; seed %lu (replay with SEED=%lu)",
		   d->op, call, got, want, d->seed, d->seed);
}

static void d_check(struct vdiff *d, struct mm_struct *mm,
		    const struct vmm *m, const char *what)
{
	if (!vmm_check(d->test, m, mm, what)) {
		d->failed = true;
		kunit_info(d->test, "after call %lu (%s); seed %lu (replay with SEED=%lu)\n",
			   d->op, what, d->seed, d->seed);
	}
}

static void d_prots(struct vdiff *d, unsigned long *prot)
{
	static const unsigned long prots[] = {
		PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE, PROT_READ,
		PROT_READ | PROT_EXEC, PROT_NONE, PROT_READ | PROT_WRITE,
	};

	*prot = prots[d_below(d, ARRAY_SIZE(prots))];
	if (d_below(d, 200) == 0)
		*prot |= 0x80;	/* not a PROT_* bit: -EINVAL */
}

/* One random call on @mm and @m; returns the kind. */
static int d_step(struct vdiff *d, struct mm_struct *mm, struct vmm *m,
		  bool allow_fork)
{
	static struct file * const files[] = { NULL, NULL, FILE_A, FILE_B };
	unsigned int r = d_below(d, 1000);
	unsigned long got, want, addr, len, prot, flags, pgoff;
	char call[160];

	if (r < 260) {
		struct file *file = files[d_below(d, ARRAY_SIZE(files))];
		unsigned int how = d_below(d, 100);

		addr = how < 25 ? 0 : d_addr(d);
		len = d_len(d);
		d_prots(d, &prot);
		flags = d_chance(d, 90) ? MAP_PRIVATE : MAP_SHARED;
		if (d_below(d, 300) == 0)
			flags = 0;	/* neither shared nor private */
		if (how >= 40 && how < 85)
			flags |= MAP_FIXED;
		else if (how >= 85)
			flags |= MAP_FIXED_NOREPLACE;
		/* Mostly the offset of a linear mapping: neighbours merge. */
		pgoff = d_chance(d, 75) ? addr / PG : d_below(d, 64);
		if (d_below(d, 500) == 0)
			pgoff = ULONG_MAX - 1;
		snprintf(call, sizeof(call),
			 "mmap(file %p, addr %lx, len %lx, prot %lx, flags %lx, pgoff %lx)",
			 file, addr, len, prot, flags, pgoff);
		got = vm_mmap(mm, file, addr, len, prot, flags, pgoff);
		want = vmm_mmap(m, file, addr, len, prot, flags, pgoff);
		r = D_MMAP;
	} else if (r < 460) {
		addr = d_chance(d, 60) ? d_mapped_addr(d) : d_addr(d);
		len = d_len(d);
		if (d_chance(d, 10))
			len *= 16;
		snprintf(call, sizeof(call), "munmap(%lx, %lx)", addr, len);
		got = vm_munmap(mm, addr, len);
		want = vmm_munmap(m, addr, len);
		r = D_MUNMAP;
	} else if (r < 600) {
		addr = d_chance(d, 80) ? d_mapped_addr(d) : d_addr(d);
		len = d_len(d);
		d_prots(d, &prot);
		snprintf(call, sizeof(call), "mprotect(%lx, %lx, %lx)", addr,
			 len, prot);
		got = do_mprotect(mm, addr, len, prot);
		want = vmm_mprotect(m, addr, len, prot);
		r = D_MPROTECT;
	} else if (r < 700) {
		unsigned long old_len, new_len, new_addr = 0;

		addr = d_chance(d, 85) ? d_mapped_addr(d) : d_addr(d);
		old_len = d_len(d);
		new_len = d_len(d);
		flags = d_below(d, 3);	/* 0, MAYMOVE, FIXED alone (bad) */
		if (d_chance(d, 25)) {
			flags = MREMAP_MAYMOVE | MREMAP_FIXED;
			new_addr = d_addr(d);
		}
		snprintf(call, sizeof(call),
			 "mremap(%lx, %lx, %lx, flags %lx, new %lx)", addr,
			 old_len, new_len, flags, new_addr);
		got = do_mremap(mm, addr, old_len, new_len, flags, new_addr);
		want = vmm_mremap(m, addr, old_len, new_len, flags, new_addr);
		r = D_MREMAP;
	} else if (r < 790) {
		long delta = (long)d_below(d, 33 * PG) - 16 * (long)PG;

		addr = m->brk + delta;
		if (d_chance(d, 3))
			addr = m->start_brk - PG;
		snprintf(call, sizeof(call), "brk(%lx)", addr);
		got = mm_brk(mm, addr);
		want = vmm_brk(m, addr);
		r = D_BRK;
	} else if (r < 988 || !allow_fork) {
		unsigned int access = d_below(d, 7) + 1;

		addr = d_chance(d, 70) ? d_mapped_addr(d) : d_addr(d);
		addr += d_below(d, PG);
		want = vmm_fault(m, addr, access);
		snprintf(call, sizeof(call), "handle_fault(%lx, %x)", addr,
			 access);
		got = handle_fault(mm, addr, access);
		if (got == want) {
			snprintf(call, sizeof(call),
				 "handle_fault_lockless(%lx, %x)", addr,
				 access);
			got = handle_fault_lockless(mm, addr, access);
		}
		r = D_FAULT;
	} else if (r < 997 || d->keep) {
		r = D_FORK;
	} else {
		r = D_EXIT;
	}

	if (r == D_FORK) {
		struct mm_struct *child = dup_mmap(mm);
		struct vmm cm = { 0 };
		int i;

		if (!child) {
			d_fail(d, "dup_mmap()", 0, 1);
			return r;
		}
		d_check(d, child, m, "the child after fork");
		vmm_copy(&cm, m);
		for (i = 0; i < 16 && !d->failed; i++)
			d->counts[d_step(d, child, &cm, false)]++;
		d_check(d, child, &cm, "the child after its own calls");
		d_check(d, mm, m, "the parent after the child's calls");
		vmm_destroy(&cm);
		mmput(child);
		return r;
	}
	if (r == D_EXIT) {
		exit_mmap(mm);
		vmm_clear(m);
		d_check(d, mm, m, "after exit_mmap()");
		return r;
	}
	if (getenv("VMA_TRACE"))
		kunit_info(d->test, "%lu: %s = %lx\n", d->op, call, got);
	if (got != want)
		d_fail(d, call, got, want);
	else if (mm->map_count != m->nr || mm->total_vm != vmm_pages(m))
		d_check(d, mm, m, call);
	return r;
}

/* VMA_DUMP_AT=<call number>: print the VMAs before that call. */
static void d_dump(struct vdiff *d)
{
	struct vm_area_struct *vma;
	VMA_ITERATOR(vmi, d->mm, 0);

	mmap_read_lock(d->mm);
	for_each_vma(vmi, vma)
		kunit_info(d->test, "  [%lx, %lx) flags %lx file %p pgoff %lx\n",
			   vma->vm_start, vma->vm_end, vma->vm_flags,
			   vma->vm_file, vma->vm_pgoff);
	mmap_read_unlock(d->mm);
}

static void d_run(struct kunit *test, const char *name, unsigned long nr_ops,
		  unsigned long task_size, bool legacy, int max_count,
		  unsigned int check_every, unsigned long prefill)
{
	struct vdiff *d = kzalloc(sizeof(*d), GFP_KERNEL);
	const char *c;
	int i, saved = sysctl_max_map_count;
	unsigned long total = 0, dump_at = 0;

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->test = test;
	d->seed = ktest_seed();
	d->rng = d->seed;
	for (c = name; *c; c++)
		d->rng = d->rng * 31 + *c;
	d->nr_ops = nr_ops;
	if (getenv("VMA_CHECK_EVERY"))
		check_every = atoi(getenv("VMA_CHECK_EVERY"));
	if (getenv("VMA_DUMP_AT"))
		dump_at = strtoul(getenv("VMA_DUMP_AT"), NULL, 0);
	d->check_every = check_every;
	d->keep = prefill > 0;
	sysctl_max_map_count = max_count;

	d->mm = vma_test_mm(test);
	d->mm->task_size = task_size;
	d->mm->mmap_base = task_size - task_size / 8;
	d->mm->start_brk = d->mm->brk = task_size / 4;
	d->mm->mmap_legacy = legacy;
	if (legacy)
		d->mm->mmap_base = PAGE_ALIGN(task_size / 3);
	vmm_init(&d->m, d->mm);
	/* Prefilled: 2 pages mapped every 4, access alternating (no merges). */
	for (i = 0; i < (int)prefill; i++) {
		unsigned long addr = 0x100000 + i * 4 * PG;
		unsigned long prot = i & 1 ? PROT_READ : RW;

		KUNIT_ASSERT_EQ(test, vm_mmap(d->mm, NULL, addr, 2 * PG, prot,
					      MAP_PRIVATE | MAP_FIXED, 0),
				vmm_mmap(&d->m, NULL, addr, 2 * PG, prot,
					 MAP_PRIVATE | MAP_FIXED, 0));
	}

	for (d->op = 1; d->op <= nr_ops && !d->failed; d->op++) {
		if (dump_at == d->op)
			d_dump(d);
		d->counts[d_step(d, d->mm, &d->m, true)]++;
		if (d->op % check_every == 0 && !d->failed)
			d_check(d, d->mm, &d->m, "periodic check");
	}
	if (!d->failed)
		d_check(d, d->mm, &d->m, "the end");
	for (i = 0; i < D_NR; i++)
		total += d->counts[i];
	kunit_info(test, "%s: %lu calls (mmap %lu, munmap %lu, mprotect %lu, mremap %lu, brk %lu, fault %lu, fork %lu, exit %lu), %d VMAs at the end, seed %lu\n",
		   name, total, d->counts[D_MMAP], d->counts[D_MUNMAP],
		   d->counts[D_MPROTECT], d->counts[D_MREMAP],
		   d->counts[D_BRK], d->counts[D_FAULT], d->counts[D_FORK],
		   d->counts[D_EXIT], d->m.nr, d->seed);
	(void)d_names;
	vmm_destroy(&d->m);
	mmput(d->mm);
	sysctl_max_map_count = saved;
	kfree(d);
}

/* A 4 MiB space, top-down search: collisions and merges everywhere. */
static void diff_topdown_dense(struct kunit *test)
{
	d_run(test, __func__, 100000, 0x400000, false, DEFAULT_MAX_MAP_COUNT, 4,
	      0);
}

/* The legacy bottom-up search from TASK_UNMAPPED_BASE. */
static void diff_bottomup_legacy(struct kunit *test)
{
	d_run(test, __func__, 70000, 0x400000, true, DEFAULT_MAX_MAP_COUNT, 4,
	      0);
}

/* A map_count limit of 24: splits and new mappings refused (-ENOMEM). */
static void diff_map_count_limit(struct kunit *test)
{
	d_run(test, __func__, 50000, 0x400000, false, 24, 4, 0);
}

/* A 64 MiB space: more and longer-lived VMAs, deeper trees. */
static void diff_wide_space(struct kunit *test)
{
	d_run(test, __func__, 70000, 0x4000000, false, DEFAULT_MAX_MAP_COUNT,
	      16, 0);
}

/*
 * 1 GiB with 2,000 VMAs to start with and no exit: taller trees, longer
 * windows, forks of thousands of VMAs.
 */
static void diff_two_thousand_vmas(struct kunit *test)
{
	d_run(test, __func__, 20000, 0x40000000, false, DEFAULT_MAX_MAP_COUNT,
	      64, 2000);
}

static struct kunit_case vma_diff_cases[] = {
	KUNIT_CASE(diff_topdown_dense),
	KUNIT_CASE(diff_bottomup_legacy),
	KUNIT_CASE(diff_map_count_limit),
	KUNIT_CASE(diff_wide_space),
	KUNIT_CASE(diff_two_thousand_vmas),
	{}
};

static struct kunit_suite vma_diff_suite = {
	.name = VMA_SUITE("vma_diff"),
	.test_cases = vma_diff_cases,
};
kunit_test_suite(vma_diff_suite);
