# SPDX-License-Identifier: GPL-2.0+
#
# The maple tree libFuzzer target; included from the top-level Makefile.
#
#   make fuzz                   build build/fuzz_maple and fuzz for 60 s
#   make fuzz FUZZ_SECONDS=600  fuzz for longer
#
# The corpus lives in build/fuzz-corpus and starts from the inputs in
# tools/testing/maple/fuzz-regressions/.  A crashing input is written to
# build/crash-<sha1>; replay it with `build/fuzz_maple build/crash-<sha1>`
# and, once the bug is fixed, copy it into fuzz-regressions/ so that
# fuzz_regress_test.c replays it on every `make check`.

FUZZ_SECONDS	?= 60
FUZZ_CC		?= clang
FUZZ_DIR	:= tools/testing/maple
FUZZ_REGRESS	:= $(FUZZ_DIR)/fuzz-regressions
FUZZ_CORPUS	:= build/fuzz-corpus
# Every object is built with AddressSanitizer and UBSan; only the tree
# itself (lib/maple_tree.c) carries libFuzzer's coverage and comparison
# tracing.  The model, the checks and the userspace stand-ins are the
# oracle: tracing them cost more than half the run time and steered the
# fuzzer towards the model's branches instead of the tree's.
FUZZ_SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS	:= -g -O1 -Wall -Wextra $(FUZZ_SAN) \
		   -DCONFIG_DEBUG_MAPLE_TREE -DTOOLS_RCU_PENDING \
		   -Iinclude -Itools/include
FUZZ_LIBS	:= -lurcu-memb -lpthread
FUZZ_TRACED	:= lib/maple_tree.c
FUZZ_ORACLE	:= $(wildcard tools/lib/*.c) $(FUZZ_DIR)/model.c \
		   $(FUZZ_DIR)/fuzz_maple.c
FUZZ_OBJDIR	:= build/fuzz-obj
FUZZ_OBJS	:= $(FUZZ_TRACED:%.c=$(FUZZ_OBJDIR)/%.o) \
		   $(FUZZ_ORACLE:%.c=$(FUZZ_OBJDIR)/%.o)
FUZZ_HDRS	:= $(FUZZ_DIR)/model.h include/linux/maple_tree.h \
		   $(wildcard tools/include/linux/*.h)

$(FUZZ_TRACED:%.c=$(FUZZ_OBJDIR)/%.o): $(FUZZ_OBJDIR)/%.o: %.c $(FUZZ_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp -c -o $@ $<

$(FUZZ_ORACLE:%.c=$(FUZZ_OBJDIR)/%.o): $(FUZZ_OBJDIR)/%.o: %.c $(FUZZ_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -O2 -c -o $@ $<

build/fuzz_maple: $(FUZZ_OBJS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $(FUZZ_OBJS) \
		$(FUZZ_LIBS)

.PHONY: fuzz
fuzz: build/fuzz_maple
	@mkdir -p $(FUZZ_CORPUS)
	cp $(FUZZ_REGRESS)/* $(FUZZ_CORPUS)/
	build/fuzz_maple -max_total_time=$(FUZZ_SECONDS) -detect_leaks=0 \
		-artifact_prefix=build/ -print_final_stats=1 $(FUZZ_CORPUS)
