// SPDX-License-Identifier: GPL-2.0+
/*
 * A program outside the tree, built exactly as the README says:
 *
 *	cc prog.c $(PKG_CONFIG_PATH=build pkg-config --cflags --libs maple)
 *
 * "make check" builds and runs it (make outside-check), so the recipe, the
 * installed headers' self-sufficiency and build/maple.pc stay true.  It
 * exits 0 and prints "ok" if the tree did what is written below.
 */
#include <stdio.h>

#include <linux/gfp.h>
#include <linux/maple_tree.h>
#include <linux/xarray.h>

static int failed;

static void expect(int cond, const char *what)
{
	if (!cond) {
		printf("not ok: %s\n", what);
		failed = 1;
	}
}

int main(void)
{
	DEFINE_MTREE(mt);
	unsigned long index = 0;
	void *entry;
	int n = 0;

	maple_tree_init();	/* once, as the kernel does at boot */

	expect(!mtree_store_range(&mt, 0x1000, 0x1fff, xa_mk_value(1),
				  GFP_KERNEL), "store [0x1000, 0x1fff]");
	expect(!mtree_insert_range(&mt, 0x3000, 0x3fff, xa_mk_value(2),
				   GFP_KERNEL), "insert [0x3000, 0x3fff]");
	expect(mtree_insert(&mt, 0x3800, xa_mk_value(3), GFP_KERNEL) ==
	       -EEXIST, "insert over an entry is -EEXIST");
	expect(mtree_load(&mt, 0x1abc) == xa_mk_value(1), "load inside 1");
	expect(mtree_load(&mt, 0x2000) == NULL, "load in the gap");

	mt_for_each(&mt, entry, index, ULONG_MAX)
		n++;
	expect(n == 2, "two entries iterated");

	expect(mtree_erase(&mt, 0x1000) == xa_mk_value(1), "erase 1");
	expect(mtree_load(&mt, 0x1abc) == NULL, "erased");
	mtree_destroy(&mt);
	expect(mtree_empty(&mt), "destroyed tree is empty");

	if (!failed)
		printf("ok\n");
	return failed;
}
