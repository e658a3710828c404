// SPDX-License-Identifier: GPL-2.0
/*
 * kmem_cache and kmalloc for userspace (see <linux/slab.h> for the contract).
 *
 * Design:
 *
 * Every thread owns a struct slab_thread in thread-local storage with one
 * struct slab_tslot per cache slot.  A tslot holds the thread's bounded free
 * list for that cache and the thread's allocation/free counters for it.  A
 * cache occupies one of SLAB_MAX_CACHES slots (slot 0 is the kmalloc
 * family) and carries a generation number that is never reused; a tslot
 * whose generation differs from its cache's belongs to a destroyed cache and
 * is drained and reclaimed on first use.  So the alloc/free fast path is a
 * few instructions on thread-local data: no lock and no atomic RMW.
 *
 * Counters are written only by their owning thread (relaxed atomic stores)
 * and summed by any thread under slab_lock over the list of live threads,
 * plus the counts folded in when a tslot is reclaimed or a thread exits.
 * Objects sitting on a free list count as freed.
 *
 * kmem_cache_alloc() and kmem_cache_free() are written so that their fast
 * path is a leaf function: every unusual case (fault injection armed, empty
 * or stale free list, zeroing, a full list) tail-calls a slow path.  An
 * alloc/free pair costs about 50 instructions on x86-64.
 *
 * A free object stores its free-list link in its first word, or, for caches
 * with a constructor (whose objects must keep their constructed state), in
 * an extra word after the object.
 *
 * Objects also move between threads, as the kernel's slab moves them between
 * per-CPU and per-node lists: a thread whose free list is full hands half of
 * it to the cache's depot, and a thread whose list is empty takes a batch
 * from there before asking the C library.  The depot (under a mutex) is an
 * array of such batches, each a NULL-terminated chain of SLAB_BATCH
 * objects, as the SLAB allocator's shared arrays and Bonwick's magazines
 * hold whole batches: taking one is a pointer, not a walk along 16 links
 * of objects that may have gone cold (that walk took 4% of the samples of
 * the maple backend's mmap+munmap loop, refilling from RCU-freed objects).
 * RCU callbacks mostly run on the thread that queued them (tools/lib/rcu.c),
 * but one grace period's worth of them frees far more than a free list
 * holds, and those that rcu_barrier(), the RCU tick or an exited thread's
 * successor run free into another thread's lists: the depot brings those
 * objects back.  It keeps up to SLAB_DEPOT_LIMIT objects per cache, enough
 * for the objects a writer has waiting for a grace period, as a kernel's
 * slab keeps its partial slabs: with 4,096 two writers' RCU-freed nodes
 * and VMAs overflowed it and went back to malloc().
 *
 * Sanitizer builds never keep freed objects (SLAB_FASTPATH is 0), and the
 * environment variable KMEM_NOCACHE=1 does the same at run time (useful
 * under valgrind).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bug.h>
#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#if defined(__TOOLS_ASAN) || defined(__TOOLS_TSAN)
# define SLAB_FASTPATH		0
#else
# define SLAB_FASTPATH		1
#endif

#define SLAB_MAX_CACHES		64	/* slot 0 is kmalloc */
#define SLAB_TCACHE_LIMIT	32	/* free objects kept per thread/cache */
#define SLAB_BATCH		(SLAB_TCACHE_LIMIT / 2)	/* moved to/from the depot */
#define SLAB_DEPOT_LIMIT	32768	/* free objects kept per cache */
#define SLAB_DEPOT_CHAINS	(SLAB_DEPOT_LIMIT / SLAB_BATCH)

struct kmem_cache {
	const char *name;
	unsigned int size;		/* object size, as asked */
	unsigned int align;		/* effective alignment */
	size_t alloc_size;		/* bytes asked from the C library */
	size_t link_offset;		/* where a free object keeps its link */
	slab_flags_t flags;
	void (*ctor)(void *);
	unsigned int slot;		/* index in slab_caches[] and tslots */
	unsigned long gen;		/* unique per cache ever created */
	long dead_allocs;		/* folded in from exited threads */
	long dead_frees;
	pthread_mutex_t depot_lock;
	void **depot;			/* SLAB_DEPOT_CHAINS chains, or NULL */
	unsigned long depot_nr;		/* chains in @depot */
};

struct slab_tslot {
	unsigned long gen;		/* generation the fields belong to */
	void *free;			/* free list */
	unsigned int nr_free;
	size_t link_offset;		/* of the cache that filled @free */
	long allocs;			/* objects counted by this thread */
	long frees;
} __attribute__((__aligned__(64)));

struct slab_thread {
	struct slab_tslot slot[SLAB_MAX_CACHES];
	long retired_allocs;		/* from reclaimed tslots */
	long retired_frees;
	bool linked;			/* on slab_threads? */
	struct slab_thread *next;
	struct slab_thread **pprev;
};

static struct kmem_cache kmalloc_cache = {
	.name = "kmalloc",
	.slot = 0,
	.gen = 1,
	.depot_lock = PTHREAD_MUTEX_INITIALIZER,
};

static pthread_mutex_t slab_lock = PTHREAD_MUTEX_INITIALIZER;
static struct kmem_cache *slab_caches[SLAB_MAX_CACHES] = { &kmalloc_cache };
static unsigned long slab_next_gen = 2;
static struct slab_thread *slab_threads;	/* live threads */
static long slab_dead_allocs;			/* from exited threads */
static long slab_dead_frees;

static __thread struct slab_thread slab_tls;
static pthread_key_t slab_key;
static pthread_once_t slab_key_once = PTHREAD_ONCE_INIT;
/* Free objects a thread may keep per cache; 0 turns the free lists off. */
static unsigned int slab_tcache_limit = SLAB_FASTPATH ? SLAB_TCACHE_LIMIT : 0;

/* Fault injection: mode 0 = off, 1 = fail the nth, 2 = fail after n. */
static int slab_fault_mode;
static long slab_fault_left;
static long slab_fault_failed;

static void __attribute__((__constructor__)) slab_init(void)
{
	const char *env = getenv("KMEM_NOCACHE");

	if (env && *env && *env != '0')
		slab_tcache_limit = 0;
}

/* Owner-only increment that other threads may read concurrently. */
static inline void slab_count(long *counter, long n)
{
	__atomic_store_n(counter, *counter + n, __ATOMIC_RELAXED);
}

static inline long slab_read(const long *counter)
{
	return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

static inline void **slab_link(void *obj, size_t link_offset)
{
	return (void **)((char *)obj + link_offset);
}

static void slab_free_chain(void *obj, size_t link_offset)
{
	while (obj) {
		void *next = *slab_link(obj, link_offset);

		free(obj);
		obj = next;
	}
}

static void slab_drain(struct slab_tslot *ts)
{
	slab_free_chain(ts->free, ts->link_offset);
	ts->free = NULL;
	ts->nr_free = 0;
}

/* Hand SLAB_BATCH objects of a full free list to the cache's depot. */
static void slab_depot_put(struct kmem_cache *s, struct slab_tslot *ts)
{
	void *first = ts->free, *last = first;
	unsigned int n;

	for (n = 1; n < SLAB_BATCH; n++)
		last = *slab_link(last, s->link_offset);
	ts->free = *slab_link(last, s->link_offset);
	ts->nr_free -= SLAB_BATCH;
	*slab_link(last, s->link_offset) = NULL;

	pthread_mutex_lock(&s->depot_lock);
	if (!s->depot)
		s->depot = malloc(SLAB_DEPOT_CHAINS * sizeof(*s->depot));
	if (s->depot && s->depot_nr < SLAB_DEPOT_CHAINS) {
		s->depot[s->depot_nr] = first;
		__atomic_store_n(&s->depot_nr, s->depot_nr + 1,
				 __ATOMIC_RELAXED);
		first = NULL;
	}
	pthread_mutex_unlock(&s->depot_lock);
	slab_free_chain(first, s->link_offset);
}

/*
 * Refill an empty free list with one chain from the depot; false if the
 * depot is empty.
 */
static bool slab_depot_get(struct kmem_cache *s, struct slab_tslot *ts)
{
	void *chain = NULL;

	if (!__atomic_load_n(&s->depot_nr, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&s->depot_lock);
	if (s->depot_nr) {
		__atomic_store_n(&s->depot_nr, s->depot_nr - 1,
				 __ATOMIC_RELAXED);
		chain = s->depot[s->depot_nr];
	}
	pthread_mutex_unlock(&s->depot_lock);
	if (!chain)
		return false;
	ts->free = chain;
	ts->nr_free = SLAB_BATCH;
	return true;
}

static void slab_depot_drain(struct kmem_cache *s)
{
	void **depot;
	unsigned long i, nr;

	pthread_mutex_lock(&s->depot_lock);
	depot = s->depot;
	nr = s->depot_nr;
	s->depot = NULL;
	s->depot_nr = 0;
	pthread_mutex_unlock(&s->depot_lock);
	for (i = 0; i < nr; i++)
		slab_free_chain(depot[i], s->link_offset);
	free(depot);
}

/* pthread key destructor: fold this thread's counts in and let go. */
static void slab_thread_exit(void *arg)
{
	struct slab_thread *t = arg;
	unsigned int i;

	pthread_mutex_lock(&slab_lock);
	for (i = 0; i < SLAB_MAX_CACHES; i++) {
		struct slab_tslot *ts = &t->slot[i];
		struct kmem_cache *s = slab_caches[i];

		if (s && ts->gen == s->gen) {
			s->dead_allocs += ts->allocs;
			s->dead_frees += ts->frees;
		}
		slab_drain(ts);
		slab_dead_allocs += ts->allocs;
		slab_dead_frees += ts->frees;
		__atomic_store_n(&ts->gen, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&ts->allocs, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&ts->frees, 0, __ATOMIC_RELAXED);
	}
	slab_dead_allocs += t->retired_allocs;
	slab_dead_frees += t->retired_frees;
	t->retired_allocs = 0;
	t->retired_frees = 0;
	*t->pprev = t->next;
	if (t->next)
		t->next->pprev = t->pprev;
	t->linked = false;
	pthread_mutex_unlock(&slab_lock);
}

static void slab_make_key(void)
{
	if (pthread_key_create(&slab_key, slab_thread_exit))
		BUG();
}

static void slab_thread_link(void)
{
	struct slab_thread *t = &slab_tls;

	pthread_once(&slab_key_once, slab_make_key);
	pthread_mutex_lock(&slab_lock);
	t->next = slab_threads;
	if (t->next)
		t->next->pprev = &t->next;
	t->pprev = &slab_threads;
	slab_threads = t;
	t->linked = true;
	pthread_mutex_unlock(&slab_lock);
	pthread_setspecific(slab_key, t);
}

/* Slow path: the thread's tslot is unused or left over from a dead cache. */
static noinline void slab_tslot_claim(struct kmem_cache *s,
				      struct slab_tslot *ts)
{
	if (!slab_tls.linked)
		slab_thread_link();
	slab_drain(ts);
	pthread_mutex_lock(&slab_lock);
	/* The old counts still matter for the totals. */
	__atomic_store_n(&slab_tls.retired_allocs,
			 slab_tls.retired_allocs + ts->allocs, __ATOMIC_RELAXED);
	__atomic_store_n(&slab_tls.retired_frees,
			 slab_tls.retired_frees + ts->frees, __ATOMIC_RELAXED);
	__atomic_store_n(&ts->allocs, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&ts->frees, 0, __ATOMIC_RELAXED);
	ts->link_offset = s->link_offset;
	__atomic_store_n(&ts->gen, s->gen, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&slab_lock);
}

static inline struct slab_tslot *slab_tslot(struct kmem_cache *s)
{
	struct slab_tslot *ts = &slab_tls.slot[s->slot];

	if (unlikely(ts->gen != s->gen))
		slab_tslot_claim(s, ts);
	return ts;
}

static noinline bool slab_fault_hit(gfp_t gfp)
{
	int mode = __atomic_load_n(&slab_fault_mode, __ATOMIC_ACQUIRE);
	long left;

	if (!mode || (gfp & __GFP_NOFAIL))
		return false;
	left = __atomic_sub_fetch(&slab_fault_left, 1, __ATOMIC_RELAXED);
	if (mode == 1 ? left != 0 : left >= 0)
		return false;
	__atomic_add_fetch(&slab_fault_failed, 1, __ATOMIC_RELAXED);
	return true;
}

/* Should this allocation fail?  One load on the fast path. */
static inline bool slab_should_fail(gfp_t gfp)
{
	if (likely(!__atomic_load_n(&slab_fault_mode, __ATOMIC_RELAXED)))
		return false;
	return slab_fault_hit(gfp);
}

/* A blocking allocation may sleep: check the caller may (if configured). */
#ifdef CONFIG_DEBUG_ATOMIC_SLEEP
# define slab_might_sleep(gfp)						\
	do {								\
		if (gfpflags_allow_blocking(gfp))			\
			__might_sleep(__FILE__, __LINE__);		\
	} while (0)
#else
# define slab_might_sleep(gfp)	do { (void)(gfp); } while (0)
#endif

/* ---- kmem_cache ---- */

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *s;
	size_t rounded;
	unsigned int i;

	if (align & (align - 1))
		goto fail;
	if (align < ARCH_SLAB_MINALIGN)
		align = ARCH_SLAB_MINALIGN;
	if (flags & SLAB_HWCACHE_ALIGN) {
		/* A cache line, or the fraction of one the object fits in. */
		unsigned int line = L1_CACHE_BYTES;

		while (size <= line / 2 && line > align)
			line /= 2;
		if (line > align)
			align = line;
	}

	s = calloc(1, sizeof(*s));
	if (!s)
		goto fail;
	rounded = ALIGN((size_t)size ? size : 1, sizeof(void *));
	s->name = name;
	s->size = size;
	s->align = align;
	s->flags = flags;
	s->ctor = ctor;
	s->link_offset = ctor ? rounded : 0;
	s->alloc_size = ALIGN(rounded + (ctor ? sizeof(void *) : 0),
			      (size_t)align);
	pthread_mutex_init(&s->depot_lock, NULL);

	pthread_mutex_lock(&slab_lock);
	for (i = 1; i < SLAB_MAX_CACHES; i++)
		if (!slab_caches[i])
			break;
	if (i == SLAB_MAX_CACHES) {
		pthread_mutex_unlock(&slab_lock);
		pr_err("kmem_cache_create(%s): more than %d caches\n",
		       name, SLAB_MAX_CACHES - 1);
		free(s);
		goto fail;
	}
	s->slot = i;
	s->gen = slab_next_gen++;
	slab_caches[i] = s;
	pthread_mutex_unlock(&slab_lock);
	return s;

fail:
	if (flags & SLAB_PANIC)
		BUG();
	return NULL;
}

static long slab_cache_live_locked(struct kmem_cache *s)
{
	struct slab_thread *t;
	long live = s->dead_allocs - s->dead_frees;

	for (t = slab_threads; t; t = t->next) {
		struct slab_tslot *ts = &t->slot[s->slot];

		if (__atomic_load_n(&ts->gen, __ATOMIC_RELAXED) == s->gen)
			live += slab_read(&ts->allocs) - slab_read(&ts->frees);
	}
	return live;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	long live;

	if (!s)
		return;
	/* Callbacks queued with call_rcu() may still free into @s. */
	rcu_barrier();
	if (slab_tls.slot[s->slot].gen == s->gen)
		slab_drain(&slab_tls.slot[s->slot]);
	slab_depot_drain(s);

	pthread_mutex_lock(&slab_lock);
	live = slab_cache_live_locked(s);
	slab_caches[s->slot] = NULL;
	pthread_mutex_unlock(&slab_lock);

	WARN(live != 0, "kmem_cache_destroy(%s): %ld objects still allocated",
	     s->name, live);
	pthread_mutex_destroy(&s->depot_lock);
	free(s);
}

unsigned int __kmem_cache_size(struct kmem_cache *s)
{
	return s->size;
}

static noinline void *slab_new_object(struct kmem_cache *s)
{
	void *obj;

	if (s->align <= __alignof__(max_align_t)) {
		obj = malloc(s->alloc_size);
	} else if (posix_memalign(&obj, s->align, s->alloc_size)) {
		obj = NULL;
	}
	if (obj && s->ctor)
		s->ctor(obj);
	return obj;
}

static noinline void *slab_zero(struct kmem_cache *s, void *obj)
{
	memset(obj, 0, s->size);
	return obj;
}

/*
 * Debug builds hand out objects that were not asked to be zeroed full of
 * SLAB_POISON_INUSE, as SLUB's poisoning does, so that code relying on
 * memory it did not write fails its tests instead of finding zeroes.
 */
#define SLAB_POISON_INUSE	0x5a

static inline void *slab_poison(struct kmem_cache *s __maybe_unused,
				void *obj)
{
#ifdef CONFIG_DEBUG_MAPLE_TREE
	if (!s->ctor)
		memset(obj, SLAB_POISON_INUSE, s->size);
#endif
	return obj;
}

static noinline void *slab_alloc_slow(struct kmem_cache *s, gfp_t gfp)
{
	struct slab_tslot *ts;
	void *obj;

	if (slab_should_fail(gfp))
		return NULL;
	ts = slab_tslot(s);
	obj = ts->free;
	if (!obj && slab_tcache_limit && slab_depot_get(s, ts))
		obj = ts->free;
	if (obj) {
		ts->free = *(void **)((char *)obj + s->link_offset);
		ts->nr_free--;
	} else {
		obj = slab_new_object(s);
		if (unlikely(!obj))
			return NULL;
	}
	slab_count(&ts->allocs, 1);
	if (gfp & __GFP_ZERO)
		memset(obj, 0, s->size);
	else
		slab_poison(s, obj);
	return obj;
}

/*
 * A kernel would oops on a cache that was never created; here the usual
 * cause is a program that did not call the init function that creates it
 * (maple_tree_init()), so say so.
 */
static noinline __noreturn void slab_no_cache(void)
{
	__kernel_bug(__FILE__, __LINE__, "kmem_cache_alloc",
		     "allocation from a cache that was never created: call maple_tree_init() once first, as the kernel does at boot");
}

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp)
{
	struct slab_tslot *ts;
	void *obj;

	if (unlikely(!s))
		slab_no_cache();
	ts = &slab_tls.slot[s->slot];
	obj = ts->free;

	slab_might_sleep(gfp);
	if (unlikely(!obj || ts->gen != s->gen ||
		     __atomic_load_n(&slab_fault_mode, __ATOMIC_RELAXED)))
		return slab_alloc_slow(s, gfp);
	ts->free = *(void **)((char *)obj + s->link_offset);
	ts->nr_free--;
	slab_count(&ts->allocs, 1);
	if (unlikely(gfp & __GFP_ZERO))
		return slab_zero(s, obj);
	return slab_poison(s, obj);
}

static noinline void slab_free_slow(struct kmem_cache *s, void *obj)
{
	struct slab_tslot *ts;

	if (!obj)
		return;
	ts = slab_tslot(s);
	slab_count(&ts->frees, 1);
	if (unlikely(obj == ts->free))
		__kernel_bug(__FILE__, __LINE__, __func__,
			     "double free of a kmem_cache object");
	if (slab_tcache_limit && ts->nr_free >= slab_tcache_limit)
		slab_depot_put(s, ts);
	if (ts->nr_free < slab_tcache_limit) {
		*(void **)((char *)obj + s->link_offset) = ts->free;
		ts->free = obj;
		ts->nr_free++;
		return;
	}
	free(obj);
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	struct slab_tslot *ts = &slab_tls.slot[s->slot];

	if (unlikely(!obj || ts->gen != s->gen || obj == ts->free ||
		     ts->nr_free >= slab_tcache_limit))
		return slab_free_slow(s, obj);
	*(void **)((char *)obj + s->link_offset) = ts->free;
	ts->free = obj;
	ts->nr_free++;
	slab_count(&ts->frees, 1);
}

int kmem_cache_alloc_bulk(struct kmem_cache *s, gfp_t gfp, size_t size,
			  void **p)
{
	size_t i;

	for (i = 0; i < size; i++) {
		p[i] = kmem_cache_alloc(s, gfp);
		if (unlikely(!p[i])) {
			kmem_cache_free_bulk(s, i, p);
			return 0;
		}
	}
	return size;
}

void kmem_cache_free_bulk(struct kmem_cache *s, size_t size, void **p)
{
	size_t i;

	for (i = 0; i < size; i++) {
		if (s)
			kmem_cache_free(s, p[i]);
		else
			kfree(p[i]);
	}
}

/* ---- kmalloc ---- */

void *kmalloc(size_t size, gfp_t gfp)
{
	struct slab_tslot *ts;
	void *p;

	if (slab_should_fail(gfp))
		return NULL;
	slab_might_sleep(gfp);
	if (!size)
		size = 1;
	p = (gfp & __GFP_ZERO) ? calloc(1, size) : malloc(size);
	if (unlikely(!p))
		return NULL;
	ts = slab_tslot(&kmalloc_cache);
	slab_count(&ts->allocs, 1);
	return p;
}

void kfree(const void *objp)
{
	struct slab_tslot *ts;

	if (!objp)
		return;
	ts = slab_tslot(&kmalloc_cache);
	slab_count(&ts->frees, 1);
	free((void *)objp);
}

void *krealloc(const void *p, size_t new_size, gfp_t gfp)
{
	void *q;

	if (!p)
		return kmalloc(new_size, gfp);
	if (!new_size) {
		kfree(p);
		return NULL;
	}
	if (slab_should_fail(gfp))
		return NULL;
	slab_might_sleep(gfp);
	q = realloc((void *)p, new_size);
	return q;
}

/* ---- harness controls ---- */

void kmem_fault_nth(long n)
{
	__atomic_store_n(&slab_fault_mode, 0, __ATOMIC_RELEASE);
	if (n <= 0)
		return;
	__atomic_store_n(&slab_fault_left, n, __ATOMIC_RELAXED);
	__atomic_store_n(&slab_fault_mode, 1, __ATOMIC_RELEASE);
}

void kmem_fault_after(long n)
{
	__atomic_store_n(&slab_fault_mode, 0, __ATOMIC_RELEASE);
	if (n < 0)
		return;
	__atomic_store_n(&slab_fault_left, n, __ATOMIC_RELAXED);
	__atomic_store_n(&slab_fault_mode, 2, __ATOMIC_RELEASE);
}

void kmem_fault_reset(void)
{
	__atomic_store_n(&slab_fault_mode, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&slab_fault_failed, 0, __ATOMIC_RELAXED);
}

long kmem_fault_count(void)
{
	return __atomic_load_n(&slab_fault_failed, __ATOMIC_RELAXED);
}

static void slab_totals(long *allocs, long *frees)
{
	struct slab_thread *t;
	long a, f;

	pthread_mutex_lock(&slab_lock);
	a = slab_dead_allocs;
	f = slab_dead_frees;
	for (t = slab_threads; t; t = t->next) {
		unsigned int i;

		a += slab_read(&t->retired_allocs);
		f += slab_read(&t->retired_frees);
		for (i = 0; i < SLAB_MAX_CACHES; i++) {
			a += slab_read(&t->slot[i].allocs);
			f += slab_read(&t->slot[i].frees);
		}
	}
	pthread_mutex_unlock(&slab_lock);
	*allocs = a;
	*frees = f;
}

long kmem_nr_allocated(void)
{
	long a, f;

	slab_totals(&a, &f);
	return a;
}

long kmem_nr_freed(void)
{
	long a, f;

	slab_totals(&a, &f);
	return f;
}

long kmem_nr_live(void)
{
	long a, f;

	slab_totals(&a, &f);
	return a - f;
}

long kmem_cache_nr_live(struct kmem_cache *s)
{
	long live;

	if (!s)
		s = &kmalloc_cache;
	pthread_mutex_lock(&slab_lock);
	live = slab_cache_live_locked(s);
	pthread_mutex_unlock(&slab_lock);
	return live;
}

long kmem_leak_check(void)
{
	struct {
		const char *name;
		long live;
	} report[SLAB_MAX_CACHES];
	unsigned int i, n = 0;

	rcu_barrier();
	pthread_mutex_lock(&slab_lock);
	for (i = 0; i < SLAB_MAX_CACHES; i++) {
		struct kmem_cache *s = slab_caches[i];
		long live;

		if (!s)
			continue;
		live = slab_cache_live_locked(s);
		if (live) {
			report[n].name = s->name;
			report[n].live = live;
			n++;
		}
	}
	pthread_mutex_unlock(&slab_lock);

	for (i = 0; i < n; i++)
		pr_info("kmem_leak_check: %s: %ld live object%s\n",
			report[i].name, report[i].live,
			report[i].live == 1 ? "" : "s");
	return kmem_nr_live();
}
