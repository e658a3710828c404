# SPDX-License-Identifier: GPL-2.0
#
# make series, the doc patch: the kernel's Documentation/core-api/
# maple_tree.rst (Linux 6.1 and 6.12 alike) says what this tree promises
# where the kernel's text says less or otherwise.  Reads the pristine file
# and writes the changed one:
#
#  - the normal API's locking paragraph ends by pointing at the new RCU
#    section instead of leaving RCU out of the document;
#  - the paragraph of "Advanced Allocating Nodes" becomes
#    scripts/series/doc-alloc.rst (mas_preallocate() is exact,
#    mas_expected_entries() is for ascending stores outside RCU mode);
#  - scripts/series/doc-rcu.rst, what RCU readers see and what a parked
#    maple state survives, goes in before "Functions and structures".
#
# Only our own lines are kept here and in those files; the places are
# found by what the kernel's text says there, and every edit must be
# made exactly once (else the step fails: the file is not the one this
# was written for).  Run as awk -v dir=scripts/series -f doc.awk.

function cat(f,   l) {
	while ((getline l < f) > 0)
		print l
	close(f)
}

# 1. The locking paragraph's last sentence.
/ You can also use RCU to avoid dereferencing$/ {
	line = $0
	sub(/  You can also use RCU to avoid dereferencing$/, "", line)
	print line "  Readers may also take only the RCU read lock:"
	print "see :ref:`maple-tree-rcu-readers`."
	skipping = 1
	made["locking"]++
	next
}
skipping {
	if ($0 ~ /document\.$/)
		skipping = 0
	next
}

# 2. The advanced allocation paragraph, after its heading and underline.
/^Advanced Allocating Nodes$/ { alloc = 1 }
alloc == 1 && /^-+$/ { print; alloc = 2; next }
alloc == 2 && /^$/ { print; alloc = 3; next }
alloc == 3 {
	if ($0 ~ /^$/) {
		cat(dir "/doc-alloc.rst")
		print
		alloc = 0
		made["alloc"]++
	}
	next
}

# 3. The RCU section, before the reference part.
/^Functions and structures$/ {
	cat(dir "/doc-rcu.rst")
	print ""
	made["rcu"]++
}

{ print }

END {
	n = split("locking alloc rcu", want, " ")
	for (i = 1; i <= n; i++)
		if (made[want[i]] != 1) {
			print "doc.awk: edit " want[i] " made " made[want[i]] + 0 " times" > "/dev/stderr"
			exit 1
		}
}
