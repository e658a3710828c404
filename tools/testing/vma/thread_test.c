// SPDX-License-Identifier: GPL-2.0
/*
 * Page faults on several threads while another thread maps, unmaps,
 * mprotects and mremaps.  Readers fault on a stable part of the address
 * space (64 VMAs the writer never touches, whose answers are known) and on
 * the part the writer churns (any answer the access rules allow, and a VMA
 * returned by lock_vma_under_rcu() must hold the address).  Locked faults
 * (handle_fault(), mmap_read_lock) on both backends; lock-free ones
 * (lock_vma_under_rcu(), then handle_fault_lockless()) on the maple
 * backend, where most stable faults must succeed without mmap_lock.  Run
 * under TSan by make check-tsan.  The writer's choices come from the
 * printed seed; the interleaving does not replay.
 */
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <linux/atomic.h>
#include <linux/slab.h>

#include "ktest.h"
#include "vma_test.h"

#define TH_READERS	3
#define TH_STABLE	64
#define TH_STABLE_BASE	0x1000000UL
#define TH_STABLE_STEP	0x10000UL
#define TH_STABLE_LEN	(4 * PG)
#define TH_CHURN_BASE	0x4000000UL
#define TH_CHURN_PAGES	1024UL
#define TH_WRITES	20000

struct th_shared {
	struct mm_struct *mm;
	int stop;			/* set by the writer when done */
	atomic_long_t faults, lockless_hits, errors;
	atomic_long_t started;		/* readers through their first round */
};

struct th_reader {
	struct th_shared *sh;
	pthread_t thread;
	u64 rng;
};

static u64 th_rand(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Stable VMA i is read-write if i is even, read-only if odd. */
static int th_expected(unsigned long i, unsigned int access)
{
	if (access & FAULT_EXEC)
		return -EACCES;
	if ((access & FAULT_WRITE) && (i & 1))
		return -EACCES;
	return 0;
}

static void *th_reader_fn(void *arg)
{
	struct th_reader *r = arg;
	struct th_shared *sh = r->sh;
	struct mm_struct *mm = sh->mm;
	bool first = true;

	while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE)) {
		static const unsigned int accesses[] = {
			FAULT_READ, FAULT_WRITE, FAULT_READ | FAULT_WRITE,
			FAULT_EXEC,
		};
		u64 x = th_rand(&r->rng);
		unsigned int acc = accesses[x & 3];
		unsigned long i = (x >> 8) % TH_STABLE;
		unsigned long addr = TH_STABLE_BASE + i * TH_STABLE_STEP +
				     ((x >> 20) % TH_STABLE_LEN);
		int want = th_expected(i, acc);
		int ret;

		if (handle_fault(mm, addr, acc) != want)
			atomic_long_inc(&sh->errors);
		if (handle_fault_lockless(mm, addr, acc) != want)
			atomic_long_inc(&sh->errors);
#ifndef CONFIG_MM_VMA_RBTREE
		{
			struct vm_area_struct *vma = lock_vma_under_rcu(mm, addr);

			if (vma) {
				if (vma->vm_start != TH_STABLE_BASE + i * TH_STABLE_STEP ||
				    vma->vm_end != vma->vm_start + TH_STABLE_LEN)
					atomic_long_inc(&sh->errors);
				vma_end_read(vma);
				atomic_long_inc(&sh->lockless_hits);
			}
		}
#endif
		/* The churned part: any allowed answer. */
		addr = TH_CHURN_BASE + ((x >> 32) % (TH_CHURN_PAGES * PG));
		ret = handle_fault_lockless(mm, addr, acc);
		if (ret != 0 && ret != -EFAULT && ret != -EACCES)
			atomic_long_inc(&sh->errors);
		ret = handle_fault(mm, addr, acc);
		if (ret != 0 && ret != -EFAULT && ret != -EACCES)
			atomic_long_inc(&sh->errors);
#ifndef CONFIG_MM_VMA_RBTREE
		{
			struct vm_area_struct *vma = lock_vma_under_rcu(mm, addr);

			if (vma) {
				if (addr < vma->vm_start || addr >= vma->vm_end ||
				    vma->vm_mm != mm)
					atomic_long_inc(&sh->errors);
				vma_end_read(vma);
			}
		}
#endif
		atomic_long_add(4, &sh->faults);
		if (first)
			atomic_long_inc(&sh->started);
		first = false;
	}
	return NULL;
}

/*
 * The race needs the readers running: on a loaded machine the writer's
 * 20,000 writes could end before a reader thread is first scheduled.
 * Wait until each has done one round (at most TH_START_WAIT_S seconds;
 * the checks on the counts then say what went wrong).
 */
#define TH_START_WAIT_S	60
static void th_wait_for_readers(struct th_shared *sh)
{
	time_t end = time(NULL) + TH_START_WAIT_S;

	while (atomic_long_read(&sh->started) < TH_READERS &&
	       time(NULL) < end)
		sched_yield();
}

static void th_writer(struct kunit *test, struct th_shared *sh, u64 rng)
{
	struct mm_struct *mm = sh->mm;
	int i, errors = 0;

	for (i = 0; i < TH_WRITES; i++) {
		u64 x = th_rand(&rng);
		unsigned long addr = TH_CHURN_BASE + ((x >> 8) % TH_CHURN_PAGES) * PG;
		unsigned long len = ((x >> 24) % 16 + 1) * PG;
		unsigned long prot = (x >> 40) & 1 ? PROT_READ : RW;

		if (addr + len > TH_CHURN_BASE + TH_CHURN_PAGES * PG)
			len = TH_CHURN_BASE + TH_CHURN_PAGES * PG - addr;
		switch (x % 4) {
		case 0:
			vm_mmap(mm, NULL, addr, len, prot,
				MAP_PRIVATE | MAP_FIXED, 0);
			break;
		case 1:
			vm_munmap(mm, addr, len);
			break;
		case 2:
			do_mprotect(mm, addr, len, prot);
			break;
		case 3:
			/* Shrink or grow in place only: stay in the churn. */
			do_mremap(mm, addr, len, len / 2 ? len / 2 : PG, 0, 0);
			break;
		}
		if (i % 1024 == 0) {
			mmap_read_lock(mm);
			errors += validate_mm(mm);
			mmap_read_unlock(mm);
		}
	}
	KUNIT_EXPECT_EQ(test, errors, 0);
}

static void faults_race_with_mmap_munmap_mprotect(struct kunit *test)
{
	struct th_shared *sh = kzalloc(sizeof(*sh), GFP_KERNEL);
	struct th_reader *readers = kcalloc(TH_READERS, sizeof(*readers),
					    GFP_KERNEL);
	u64 seed = ktest_seed();
	unsigned long i;

	KUNIT_ASSERT_NOT_NULL(test, sh);
	KUNIT_ASSERT_NOT_NULL(test, readers);
	sh->mm = vma_test_mm(test);
	for (i = 0; i < TH_STABLE; i++)
		KUNIT_ASSERT_EQ(test,
				vm_mmap(sh->mm, NULL,
					TH_STABLE_BASE + i * TH_STABLE_STEP,
					TH_STABLE_LEN, i & 1 ? PROT_READ : RW,
					MAP_PRIVATE | MAP_FIXED, 0),
				TH_STABLE_BASE + i * TH_STABLE_STEP);

	for (i = 0; i < TH_READERS; i++) {
		readers[i].sh = sh;
		readers[i].rng = seed + i + 1;
		KUNIT_ASSERT_EQ(test, pthread_create(&readers[i].thread, NULL,
						     th_reader_fn, &readers[i]), 0);
	}
	th_wait_for_readers(sh);
	th_writer(test, sh, seed);
	__atomic_store_n(&sh->stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < TH_READERS; i++)
		pthread_join(readers[i].thread, NULL);

	kunit_info(test, "%ld faults, %ld lock-free lookups of stable VMAs, %d writes\n",
		   atomic_long_read(&sh->faults),
		   atomic_long_read(&sh->lockless_hits), TH_WRITES);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&sh->errors), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&sh->faults), 0);
	if (VMA_IS_MAPLE)
		KUNIT_EXPECT_GT(test, atomic_long_read(&sh->lockless_hits), 0);
	mmap_read_lock(sh->mm);
	KUNIT_EXPECT_EQ(test, validate_mm(sh->mm), 0);
	mmap_read_unlock(sh->mm);
	mmput(sh->mm);
	kfree(readers);
	kfree(sh);
}

static struct kunit_case vma_thread_cases[] = {
	KUNIT_CASE(faults_race_with_mmap_munmap_mprotect),
	{}
};

static struct kunit_suite vma_thread_suite = {
	.name = VMA_SUITE("vma_threads"),
	.test_cases = vma_thread_cases,
};
kunit_test_suite(vma_thread_suite);
