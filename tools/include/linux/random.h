/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-in for <linux/random.h>.
 *
 * "Random" numbers come from a seeded pseudo-random generator, so a test
 * run can be replayed: the test harness seeds it (random_set_seed()) with
 * the seed it prints.  Each thread draws from its own stream; the first
 * thread to draw after seeding gets the stream of the seed itself.  Nothing
 * here is fit for cryptography.  The uapi header of the same name is
 * included first.
 */
#ifndef _TOOLS_LINUX_RANDOM_H
#define _TOOLS_LINUX_RANDOM_H

#include_next <linux/random.h>

#include <linux/types.h>

/* Independent generator state for prandom_*_state() users. */
struct rnd_state {
	u64 s;
};

u64 __prandom_next(u64 *state);

static inline void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	state->s = seed;
}

static inline u32 prandom_u32_state(struct rnd_state *state)
{
	return __prandom_next(&state->s) >> 32;
}

u32 get_random_u32(void);
u64 get_random_u64(void);
void get_random_bytes(void *buf, size_t len);

static inline unsigned long get_random_long(void)
{
	return get_random_u64();
}

static inline u8 get_random_u8(void)
{
	return get_random_u32() >> 24;
}

static inline u16 get_random_u16(void)
{
	return get_random_u32() >> 16;
}

/**
 * get_random_u32_below() - A random number in [0, @ceil).
 * @ceil: Upper bound, exclusive; must not be 0.
 *
 * Return: The number (multiply-shift reduction; bias below 2^-32 * @ceil).
 */
static inline u32 get_random_u32_below(u32 ceil)
{
	return ((u64)get_random_u32() * ceil) >> 32;
}

/* Return a random number in [@floor, @ceil], inclusive. */
static inline u32 get_random_u32_inclusive(u32 floor, u32 ceil)
{
	return floor + get_random_u32_below(ceil - floor + 1);
}

#define prandom_u32_max(ceil)	get_random_u32_below(ceil)
#define get_random_int()	get_random_u32()
#define prandom_u32()		get_random_u32()

/* ---- userspace harness only ---- */

/**
 * random_set_seed() - Restart every thread's stream from @seed.
 * @seed: Any value; the same seed gives the same numbers (per thread, in
 *        the order threads first draw).
 */
void random_set_seed(u64 seed);

#endif /* _TOOLS_LINUX_RANDOM_H */
