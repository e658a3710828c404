# SPDX-License-Identifier: GPL-2.0
#
# make series, the last step: dup_mmap() in Linux 6.1's kernel/fork.c copies
# the VMA tree with __mt_dup() and then puts the child's VMAs in place.
# Reads the pristine kernel/fork.c, writes the changed one.  Only our own
# lines are kept here; the places are found by the calls they follow, and
# every edit must be made exactly once (else the step fails: the file is
# not the 6.1 this was written for).  The commit message is fork.msg.

function out(s) { print s }
function done(k) { made[k]++ }

BEGIN { infn = 0; inloop = 0; prev = "" }

# Only the MMU dup_mmap(), from its line to the closing brace.
/^static __latent_entropy int dup_mmap\(struct mm_struct \*mm,$/ { infn = 1 }

infn && /^}$/ {
	infn = 0
}

# A one-line comment right before the store of the copy is replaced by
# ours: such comments are held back one line.
held != "" {
	if ($0 ~ /^\t\tmas\.index = tmp->vm_start;$/) {
		out("\t\t/* Put the copy in place of the parent's VMA in the MT */")
		done("comment")
	} else {
		out(held)
	}
	held = ""
}
infn && /^\t\t\/\* .* \*\/$/ {
	held = $0
	next
}

infn && /^\tMA_STATE\(old_mas, &oldmm->mm_mt, 0, 0\);$/ { done("old_mas"); next }

infn && /^\tunsigned long charge = 0;$/ {
	out($0)
	out("\tunsigned long uncopied = 0;")
	done("uncopied")
	next
}

infn && /^\tretval = mas_expected_entries\(&mas, oldmm->map_count\);$/ {
	getline nextline
	if (nextline != "\tif (retval)")
		exit 2
	out("\t/*")
	out("\t * Copy the parent's tree node for node, then walk the copy and")
	out("\t * overwrite each VMA in it with the child's own: a store over the")
	out("\t * range the entry already has, which changes one slot and needs no")
	out("\t * allocation.  On failure __mt_dup() leaves the child's tree empty.")
	out("\t */")
	out("\tretval = __mt_dup(&oldmm->mm_mt, &mm->mm_mt, GFP_KERNEL);")
	out("\tif (unlikely(retval))")
	done("mt_dup")
	next
}

infn && /^\tmas_for_each\(&old_mas, mpnt, ULONG_MAX\) \{$/ {
	out("\tmas_for_each(&mas, mpnt, ULONG_MAX) {")
	inloop = 1
	done("loop")
	next
}

inloop && /^\t\tif \(mpnt->vm_flags & VM_DONTCOPY\) \{$/ {
	out("\t\tuncopied = mpnt->vm_start;")
	out($0)
	out("\t\t\tretval = mas_store_gfp(&mas, NULL, GFP_KERNEL);")
	out("\t\t\tif (retval)")
	out("\t\t\t\tgoto fail_cut;")
	done("dontcopy")
	next
}

inloop && /^\t\t\tvm_stat_account\(mm, mpnt->vm_flags, -vma_pages\(mpnt\)\);$/ {
	out($0)
	out("\t\t\t/* The erase may have rewritten the node: walk again. */")
	out("\t\t\tmas_set(&mas, mpnt->vm_end);")
	done("walk_again")
	next
}

inloop && /^\t\t\tgoto loop_out;$/ {
	out("\t\t\tgoto fail_cut;")
	done("eintr")
	next
}

inloop && /^\t\tmm->map_count\+\+;$/ {
	out($0)
	out("\t\tuncopied = tmp->vm_end;")
	done("counted")
	next
}

inloop && /^\tretval = arch_dup_mmap\(oldmm, mm\);$/ { inloop = 0 }

infn && /^\tvm_unacct_memory\(charge\);$/ && prev == "\tretval = -ENOMEM;" {
	out($0)
	out("fail_cut:")
	out("\t/*")
	out("\t * From @uncopied on, the child's tree still holds the parent's VMAs")
	out("\t * (and VM_DONTCOPY ranges not yet removed).  exit_mmap() will tear")
	out("\t * the child down through this tree and check its entries against")
	out("\t * map_count, so end it here: one store of NULL up to ULONG_MAX")
	out("\t * leaves exactly the VMAs copied so far.  That store rewrites at")
	out("\t * most one path of nodes, a few small allocations; it must not fail,")
	out("\t * because a tree pointing at the parent's VMAs cannot be torn down.")
	out("\t */")
	out("\tmas_set_range(&mas, uncopied, ULONG_MAX);")
	out("\tWARN_ON_ONCE(mas_store_gfp(&mas, NULL, GFP_KERNEL | __GFP_NOFAIL));")
	done("fail_cut")
	prev = $0
	next
}

{ prev = $0; out($0) }

END {
	n = split("uncopied old_mas mt_dup loop dontcopy walk_again counted comment fail_cut", want, " ")
	for (i = 1; i <= n; i++)
		if (made[want[i]] != 1) {
			print "fork.awk: edit " want[i] " made " made[want[i]] + 0 " times" > "/dev/stderr"
			exit 1
		}
	if (made["eintr"] != 2) {
		print "fork.awk: loop exits changed " made["eintr"] + 0 " times, not 2" > "/dev/stderr"
		exit 1
	}
}
