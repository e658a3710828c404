// SPDX-License-Identifier: GPL-2.0
/*
 * Seeded pseudo-random numbers behind <linux/random.h>.
 *
 * The generator is SplitMix64: a 64-bit counter stepped by an odd constant
 * and passed through a mixing function.  It is small, fast and good enough
 * for tests.  Each thread has its own state, derived from the global seed
 * and the order in which threads first draw.
 */
#include <string.h>

#include <linux/compiler.h>
#include <linux/random.h>

static u64 random_seed = 0x6d61706c65ULL;	/* "maple" */
static unsigned long random_epoch = 1;		/* bumped by random_set_seed */
static unsigned long random_threads;		/* draws of this epoch */

static __thread u64 random_state;
static __thread unsigned long random_state_epoch;

u64 __prandom_next(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void random_set_seed(u64 seed)
{
	__atomic_store_n(&random_seed, seed, __ATOMIC_RELAXED);
	__atomic_store_n(&random_threads, 0, __ATOMIC_RELAXED);
	__atomic_add_fetch(&random_epoch, 1, __ATOMIC_RELEASE);
}

static u64 *random_this_thread(void)
{
	unsigned long epoch = __atomic_load_n(&random_epoch, __ATOMIC_ACQUIRE);

	if (unlikely(random_state_epoch != epoch)) {
		unsigned long nth = __atomic_fetch_add(&random_threads, 1,
						       __ATOMIC_RELAXED);
		u64 mix = nth * 0xd1342543de82ef95ULL;

		random_state = __atomic_load_n(&random_seed,
					       __ATOMIC_RELAXED) ^ mix;
		random_state_epoch = epoch;
	}
	return &random_state;
}

u32 get_random_u32(void)
{
	return __prandom_next(random_this_thread()) >> 32;
}

u64 get_random_u64(void)
{
	return __prandom_next(random_this_thread());
}

void get_random_bytes(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		u64 r = get_random_u64();
		size_t n = len < sizeof(r) ? len : sizeof(r);

		memcpy(p, &r, n);
		p += n;
		len -= n;
	}
}
