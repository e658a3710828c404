// SPDX-License-Identifier: GPL-2.0
/*
 * The reference model of an address space (see vma_model.h).  Every
 * change is made on a copy of the array: cut the range out, put the new
 * mapping in, merge every mergeable neighbour pair of the whole array;
 * if the result has more mappings than max_count the copy is dropped
 * (-ENOMEM), else it replaces the array.
 */
#include <stdlib.h>
#include <string.h>

#include "vma_model.h"

#define M_PAGE		4096UL
#define M_ALIGN(x)	(((x) + M_PAGE - 1) & ~(M_PAGE - 1))
#define M_ACCESS(p)	((((p) & PROT_READ) ? VM_READ : 0) |		\
			 (((p) & PROT_WRITE) ? VM_WRITE : 0) |		\
			 (((p) & PROT_EXEC) ? VM_EXEC : 0))
#define M_MAY		(VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define M_ERR(e)	((unsigned long)(long)(e))

static void vmm_reserve(struct vmm *m, int nr)
{
	if (nr <= m->cap)
		return;
	m->cap = nr * 2 + 16;
	m->v = realloc(m->v, m->cap * sizeof(*m->v));
	if (!m->v)
		abort();
}

void vmm_init(struct vmm *m, const struct mm_struct *mm)
{
	memset(m, 0, sizeof(*m));
	m->task_size = mm->task_size;
	m->mmap_base = mm->mmap_base;
	m->start_brk = mm->start_brk;
	m->brk = mm->brk;
	m->legacy = mm->mmap_legacy;
	m->max_count = sysctl_max_map_count;
	m->min_addr = mmap_min_addr;
}

void vmm_destroy(struct vmm *m)
{
	free(m->v);
	m->v = NULL;
	m->nr = m->cap = 0;
}

void vmm_copy(struct vmm *dst, const struct vmm *src)
{
	struct vmm_vma *v = dst->v;
	int cap = dst->cap;

	*dst = *src;
	dst->v = v;
	dst->cap = cap;
	dst->nr = 0;
	vmm_reserve(dst, src->nr);
	if (src->nr)	/* memcpy() from NULL is undefined, even of 0 bytes */
		memcpy(dst->v, src->v, src->nr * sizeof(*src->v));
	dst->nr = src->nr;
}

void vmm_clear(struct vmm *m)
{
	m->nr = 0;
}

unsigned long vmm_pages(const struct vmm *m)
{
	unsigned long pages = 0;
	int i;

	for (i = 0; i < m->nr; i++)
		pages += (m->v[i].end - m->v[i].start) / M_PAGE;
	return pages;
}

/* ---- array surgery ---- */

/* Remove [start, end) from @m, keeping the parts of mappings outside. */
static void m_cut(struct vmm *m, unsigned long start, unsigned long end)
{
	struct vmm_vma *out;
	int i, n = 0;

	out = malloc((m->nr * 2 + 1) * sizeof(*out));
	if (!out)
		abort();
	for (i = 0; i < m->nr; i++) {
		struct vmm_vma a = m->v[i];

		if (a.end <= start || a.start >= end) {
			out[n++] = a;
			continue;
		}
		if (a.start < start) {
			struct vmm_vma head = a;

			head.end = start;
			out[n++] = head;
		}
		if (a.end > end) {
			struct vmm_vma tail = a;

			tail.pgoff += (end - a.start) / M_PAGE;
			tail.start = end;
			out[n++] = tail;
		}
	}
	vmm_reserve(m, n);
	if (n)
		memcpy(m->v, out, n * sizeof(*out));
	m->nr = n;
	free(out);
}

/* Put @a in (its range must be free), in order. */
static void m_insert(struct vmm *m, struct vmm_vma a)
{
	int i = 0;

	vmm_reserve(m, m->nr + 1);
	while (i < m->nr && m->v[i].start < a.start)
		i++;
	memmove(&m->v[i + 1], &m->v[i], (m->nr - i) * sizeof(*m->v));
	m->v[i] = a;
	m->nr++;
}

static bool m_mergeable(const struct vmm_vma *a, const struct vmm_vma *b)
{
	return a->end == b->start && a->flags == b->flags &&
	       a->file == b->file &&
	       a->pgoff + (a->end - a->start) / M_PAGE == b->pgoff;
}

static void m_merge_all(struct vmm *m)
{
	int i, n = 0;

	for (i = 0; i < m->nr; i++) {
		if (n && m_mergeable(&m->v[n - 1], &m->v[i])) {
			m->v[n - 1].end = m->v[i].end;
			continue;
		}
		m->v[n++] = m->v[i];
	}
	m->nr = n;
}

/* Keep @next if it respects max_count: 0, else -ENOMEM. */
static int m_commit(struct vmm *m, struct vmm *next)
{
	struct vmm_vma *old = m->v;
	int cap = m->cap;

	m_merge_all(next);
	if (next->nr > m->max_count)
		return -ENOMEM;
	m->v = next->v;
	m->cap = next->cap;
	m->nr = next->nr;
	next->v = old;
	next->cap = cap;
	return 0;
}

static const struct vmm_vma *m_find(const struct vmm *m, unsigned long addr)
{
	int i;

	for (i = 0; i < m->nr; i++)
		if (m->v[i].end > addr)
			return &m->v[i];
	return NULL;
}

static bool m_intersects(const struct vmm *m, unsigned long start,
			 unsigned long end)
{
	const struct vmm_vma *a = m_find(m, start);

	return a && a->start < end;
}

/* Lowest (or highest) fit of @len in [low, high), or 0 for none. */
static unsigned long m_fit(const struct vmm *m, unsigned long len,
			   unsigned long low, unsigned long high, bool top)
{
	unsigned long best = 0, gs = 0;
	int i;

	for (i = 0; i <= m->nr; i++) {
		unsigned long ge = i < m->nr ? m->v[i].start : ULONG_MAX;
		unsigned long s = gs > low ? gs : low;
		unsigned long e = ge < high ? ge : high;

		if (s < e && e - s >= len) {
			if (!top)
				return s;
			best = e - len;
		}
		if (i < m->nr)
			gs = m->v[i].end;
	}
	return best;
}

static unsigned long m_unmapped_area(const struct vmm *m, unsigned long addr,
				     unsigned long len, unsigned long flags)
{
	unsigned long low = m->min_addr > M_PAGE ? m->min_addr : M_PAGE;
	unsigned long found, base;

	if (len > m->task_size)
		return M_ERR(-ENOMEM);
	if (flags & MAP_FIXED) {
		if (addr > m->task_size - len)
			return M_ERR(-ENOMEM);
		if (addr & (M_PAGE - 1))
			return M_ERR(-EINVAL);
		return addr;
	}
	if (addr) {
		addr = M_ALIGN(addr);
		if (addr && addr <= m->task_size - len &&
		    addr >= m->min_addr && !m_intersects(m, addr, addr + len))
			return addr;
	}
	if (m->legacy) {
		base = m->mmap_base > low ? m->mmap_base : low;
		found = m_fit(m, len, base, m->task_size, false);
		return found ? found : M_ERR(-ENOMEM);
	}
	found = m_fit(m, len, low, m->mmap_base, true);
	if (found)
		return found;
	found = m_fit(m, len, M_ALIGN(m->task_size / 3), m->task_size, false);
	return found ? found : M_ERR(-ENOMEM);
}

/* Map [start, end) with the given attributes over whatever is there. */
static int m_map(struct vmm *m, unsigned long start, unsigned long end,
		 unsigned long flags, struct file *file, unsigned long pgoff)
{
	struct vmm next = { 0 };
	struct vmm_vma a = { start, end, flags, pgoff, file };
	int ret;

	vmm_copy(&next, m);
	m_cut(&next, start, end);
	m_insert(&next, a);
	ret = m_commit(m, &next);
	vmm_destroy(&next);
	return ret;
}

/* ---- the system calls ---- */

unsigned long vmm_mmap(struct vmm *m, struct file *file, unsigned long addr,
		       unsigned long len, unsigned long prot,
		       unsigned long flags, unsigned long pgoff)
{
	unsigned long vm_flags;
	int type = flags & (MAP_SHARED | MAP_PRIVATE);

	if (!len)
		return M_ERR(-EINVAL);
	if (prot & ~7UL)
		return M_ERR(-EINVAL);
	if (type != MAP_SHARED && type != MAP_PRIVATE)
		return M_ERR(-EINVAL);
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if (!(flags & MAP_FIXED) && addr && addr < m->min_addr)
		addr = M_ALIGN(m->min_addr);
	len = M_ALIGN(len);
	if (!len)
		return M_ERR(-ENOMEM);
	if (pgoff + len / M_PAGE < pgoff)
		return M_ERR(-EOVERFLOW);
	if (m->nr > m->max_count)
		return M_ERR(-ENOMEM);
	addr = m_unmapped_area(m, addr, len, flags);
	if (addr >= (unsigned long)-4095)
		return addr;
	if ((flags & MAP_FIXED_NOREPLACE) && m_intersects(m, addr, addr + len))
		return M_ERR(-EEXIST);
	vm_flags = M_ACCESS(prot) | M_MAY;
	if (type == MAP_SHARED)
		vm_flags |= VM_SHARED | VM_MAYSHARE;
	if (!file)
		pgoff = addr / M_PAGE;
	if (m_map(m, addr, addr + len, vm_flags, file, pgoff))
		return M_ERR(-ENOMEM);
	return addr;
}

int vmm_munmap(struct vmm *m, unsigned long start, unsigned long len)
{
	struct vmm next = { 0 };
	int ret;

	if ((start & (M_PAGE - 1)) || start > m->task_size ||
	    len > m->task_size - start)
		return -EINVAL;
	len = M_ALIGN(len);
	if (!len)
		return -EINVAL;
	vmm_copy(&next, m);
	m_cut(&next, start, start + len);
	ret = m_commit(m, &next);
	vmm_destroy(&next);
	return ret;
}

unsigned long vmm_brk(struct vmm *m, unsigned long brk)
{
	unsigned long newbrk, oldbrk;
	const struct vmm_vma *next;

	if (brk < m->start_brk)
		return m->brk;
	newbrk = M_ALIGN(brk);
	oldbrk = M_ALIGN(m->brk);
	if (newbrk == oldbrk) {
		m->brk = brk;
		return brk;
	}
	if (brk <= m->brk) {
		struct vmm next = { 0 };
		int ret;

		vmm_copy(&next, m);
		m_cut(&next, newbrk, oldbrk);
		ret = m_commit(m, &next);
		vmm_destroy(&next);
		if (ret)
			return m->brk;
		m->brk = brk;
		return brk;
	}
	if (!newbrk || newbrk > m->task_size)
		return m->brk;
	next = m_find(m, oldbrk);
	if (next && newbrk + M_PAGE > next->start)
		return m->brk;
	if (m_map(m, oldbrk, newbrk, VM_READ | VM_WRITE | M_MAY, NULL,
		  oldbrk / M_PAGE))
		return m->brk;
	m->brk = brk;
	return brk;
}

int vmm_mprotect(struct vmm *m, unsigned long start, unsigned long len,
		 unsigned long prot)
{
	struct vmm next = { 0 };
	unsigned long end, pos;
	int i, ret;

	if (start & (M_PAGE - 1))
		return -EINVAL;
	if (prot & ~7UL)
		return -EINVAL;
	if (!len)
		return 0;
	len = M_ALIGN(len);
	end = start + len;
	if (end <= start)
		return -ENOMEM;
	/* All of [start, end) must be mapped. */
	pos = start;
	for (i = 0; i < m->nr && pos < end; i++) {
		if (m->v[i].end <= pos)
			continue;
		if (m->v[i].start > pos)
			return -ENOMEM;
		pos = m->v[i].end;
	}
	if (pos < end)
		return -ENOMEM;

	vmm_copy(&next, m);
	/* Split at both ends, then change the flags of what is inside. */
	for (i = 0; i < 2; i++) {
		unsigned long at = i ? end : start;
		int j;

		for (j = 0; j < next.nr; j++) {
			struct vmm_vma a = next.v[j];

			if (a.start < at && at < a.end) {
				struct vmm_vma b = a;

				next.v[j].end = at;
				b.pgoff += (at - a.start) / M_PAGE;
				b.start = at;
				m_insert(&next, b);
				break;
			}
		}
	}
	for (i = 0; i < next.nr; i++)
		if (next.v[i].start >= start && next.v[i].end <= end)
			next.v[i].flags = (next.v[i].flags & ~7UL) |
					  M_ACCESS(prot);
	ret = m_commit(m, &next);
	vmm_destroy(&next);
	return ret;
}

/* Unmap [addr, addr + old_len) and map @a's attributes at [to, to + new_len). */
static unsigned long m_move(struct vmm *m, const struct vmm_vma *a,
			    unsigned long addr, unsigned long old_len,
			    unsigned long to, unsigned long new_len)
{
	struct vmm next = { 0 };
	struct vmm_vma b = *a;
	int ret;

	b.pgoff = a->pgoff + (addr - a->start) / M_PAGE;
	b.start = to;
	b.end = to + new_len;
	vmm_copy(&next, m);
	m_cut(&next, addr, addr + old_len);
	m_cut(&next, to, to + new_len);
	m_insert(&next, b);
	ret = m_commit(m, &next);
	vmm_destroy(&next);
	return ret ? M_ERR(ret) : to;
}

unsigned long vmm_mremap(struct vmm *m, unsigned long addr,
			 unsigned long old_len, unsigned long new_len,
			 unsigned long flags, unsigned long new_addr)
{
	const struct vmm_vma *a;
	struct vmm_vma copy;
	unsigned long to;

	if (flags & ~3UL)
		return M_ERR(-EINVAL);
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return M_ERR(-EINVAL);
	if (addr & (M_PAGE - 1))
		return M_ERR(-EINVAL);
	old_len = M_ALIGN(old_len);
	new_len = M_ALIGN(new_len);
	if (!old_len || !new_len)
		return M_ERR(-EINVAL);
	if (flags & MREMAP_FIXED) {
		if ((new_addr & (M_PAGE - 1)) || new_len > m->task_size ||
		    new_addr > m->task_size - new_len)
			return M_ERR(-EINVAL);
		if (addr < new_addr + new_len && new_addr < addr + old_len)
			return M_ERR(-EINVAL);
		a = m_find(m, addr);
		if (!a || a->start > addr || old_len > a->end - addr)
			return M_ERR(-EFAULT);
		copy = *a;
		return m_move(m, &copy, addr, old_len, new_addr, new_len);
	}
	if (old_len >= new_len) {
		if (old_len > new_len) {
			int ret = vmm_munmap(m, addr + new_len,
					     old_len - new_len);

			if (ret)
				return M_ERR(ret);
		}
		return addr;
	}
	a = m_find(m, addr);
	if (!a || a->start > addr || old_len > a->end - addr)
		return M_ERR(-EFAULT);
	copy = *a;
	if (addr + old_len == a->end && addr + new_len > addr &&
	    addr + new_len <= m->task_size &&
	    !m_intersects(m, a->end, addr + new_len)) {
		if (m_map(m, copy.end, addr + new_len, copy.flags, copy.file,
			  copy.pgoff + (copy.end - copy.start) / M_PAGE))
			return M_ERR(-ENOMEM);
		return addr;
	}
	if (!(flags & MREMAP_MAYMOVE))
		return M_ERR(-ENOMEM);
	to = m_unmapped_area(m, 0, new_len, 0);
	if (to >= (unsigned long)-4095)
		return to;
	return m_move(m, &copy, addr, old_len, to, new_len);
}

int vmm_fault(const struct vmm *m, unsigned long addr, unsigned int access)
{
	const struct vmm_vma *a = m_find(m, addr);
	unsigned long need = ((access & FAULT_READ) ? VM_READ : 0) |
			     ((access & FAULT_WRITE) ? VM_WRITE : 0) |
			     ((access & FAULT_EXEC) ? VM_EXEC : 0);

	if (!a || a->start > addr)
		return -EFAULT;
	return (a->flags & need) == need ? 0 : -EACCES;
}

/* ---- comparison with an mm ---- */

static bool m_same(const struct vmm_vma *a, const struct vm_area_struct *vma)
{
	return vma && a->start == vma->vm_start && a->end == vma->vm_end &&
	       a->flags == vma->vm_flags && a->pgoff == vma->vm_pgoff &&
	       a->file == vma->vm_file;
}

bool vmm_check(struct kunit *test, const struct vmm *m, struct mm_struct *mm,
	       const char *what)
{
	struct vm_area_struct *vma = NULL;
	const char *why = NULL;
	int i = 0, errors;

	mmap_read_lock(mm);
	{
		VMA_ITERATOR(vmi, mm, 0);

		for_each_vma(vmi, vma) {
			if (i >= m->nr || !m_same(&m->v[i], vma)) {
				why = "for_each_vma()";
				break;
			}
			if (find_vma(mm, vma->vm_start) != vma ||
			    find_vma(mm, vma->vm_end - 1) != vma) {
				why = "find_vma()";
				break;
			}
			i++;
		}
		if (!why && i != m->nr)
			why = "for_each_vma() ended early";
	}
	if (!why) {
		VMA_ITERATOR(vmi, mm, ULONG_MAX);

		for (i = m->nr - 1; i >= 0; i--) {
			vma = vma_prev(&vmi);
			if (!m_same(&m->v[i], vma)) {
				why = "vma_prev()";
				break;
			}
		}
		if (!why && vma_prev(&vmi))
			why = "vma_prev() past the first";
	}
	if (why) {
		kunit_info(test, "%s: %s differs from the model at VMA %d of %d\n",
			   what, why, i, m->nr);
		if (i >= 0 && i < m->nr)
			kunit_info(test, "  model [%lx, %lx) flags %lx file %p pgoff %lx\n",
				   m->v[i].start, m->v[i].end, m->v[i].flags,
				   m->v[i].file, m->v[i].pgoff);
		if (vma)
			kunit_info(test, "  mm    [%lx, %lx) flags %lx file %p pgoff %lx\n",
				   vma->vm_start, vma->vm_end, vma->vm_flags,
				   vma->vm_file, vma->vm_pgoff);
	}
	if (!why && (mm->map_count != m->nr || mm->total_vm != vmm_pages(m) ||
		     mm->brk != m->brk)) {
		kunit_info(test, "%s: map_count %d (model %d), total_vm %lu (model %lu), brk %lx (model %lx)\n",
			   what, mm->map_count, m->nr, mm->total_vm,
			   vmm_pages(m), mm->brk, m->brk);
		why = "the counters";
	}
	errors = validate_mm(mm);
	mmap_read_unlock(mm);
	KUNIT_EXPECT_TRUE_MSG(test, !why, "%s: mm and model differ", what);
	KUNIT_EXPECT_EQ_MSG(test, errors, 0, "%s: validate_mm()", what);
	return !why && !errors;
}
