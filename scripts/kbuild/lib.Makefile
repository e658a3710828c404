# SPDX-License-Identifier: GPL-2.0
#
# Lines scripts/kunit-uml.sh appends to a kernel's lib/Makefile.  The
# kernel already builds lib/maple_tree.c and, with TEST_MAPLE_TREE, its own
# lib/test_maple_tree.c; our self-test and KUnit suite are new.
obj-$(CONFIG_TEST_MAPLE_TREE_API) += test_maple_tree_api.o
obj-$(CONFIG_MAPLE_TREE_KUNIT_TEST) += maple_tree_kunit.o
