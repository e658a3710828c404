#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# record-shipped.sh [NAME...]
#
# Records the traces shipped in tools/testing/vma/traces/ again, each
# with tools/testing/vma/record, from the workloads below (built in a
# temporary directory), and prints each one's line for the table in
# traces/README.rst.  NAME picks some: gcc python git shell threads
# chromium.  Needs strace, gcc, git, xz, python3 and chromium (Debian's;
# installed through scripts/apt-install.sh when run as root).
#
# A new recording differs from the shipped one in addresses (ASLR) and a
# little in the operations (the programs' own timing), never in kind.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=$here/traces
rec=$here/record
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(gcc python git shell threads chromium)

need() {
	command -v "$1" >/dev/null && return
	"$root/scripts/apt-install.sh" "$2" >/dev/null || true
	command -v "$1" >/dev/null || { echo "record-shipped: no $1 ($2)" >&2; exit 1; }
}
need strace strace

# gcc: four C files compiled and linked in one command.
mk_gcc() {
	mkdir -p "$work/cprog"
	for n in main util list hash; do
		cat > "$work/cprog/$n.c" <<-EOF
		#include <stdio.h>
		#include <stdlib.h>
		struct node_$n { struct node_$n *next; int key; char name[16]; };
		int ${n}_count(struct node_$n *h)
		{
			int c = 0;

			for (; h; h = h->next)
				c++;
			return c;
		}
		struct node_$n *${n}_push(struct node_$n *h, int key)
		{
			struct node_$n *x = malloc(sizeof(*x));

			if (!x)
				return h;
			x->next = h;
			x->key = key;
			snprintf(x->name, sizeof(x->name), "k%d", key);
			return x;
		}
		EOF
	done
	echo 'int main(void) { return 0; }' >> "$work/cprog/main.c"
}

# python: start, the standard library's text, sqlite, hashing, big objects.
mk_python() {
	cat > "$work/prog.py" <<-'EOF'
	import collections, decimal, hashlib, json, re, sqlite3
	words = re.findall(r"[a-z]+", open("/usr/share/common-licenses/GPL-3").read().lower())
	freq = collections.Counter(words)
	data = {w: [n, len(w)] for w, n in freq.most_common(2000)}
	print(len(json.loads(json.dumps(data))))
	rows = [(i, str(i) * 3, i / 7) for i in range(200000)]
	db = sqlite3.connect(":memory:")
	db.execute("create table t (a, b, c)")
	db.executemany("insert into t values (?, ?, ?)", rows)
	print(db.execute("select count(*), sum(a) from t").fetchone())
	del rows
	blobs = [bytes(300000) for _ in range(40)]
	print(hashlib.sha256(b"".join(blobs)).hexdigest()[:8], decimal.Decimal(1) / 7)
	EOF
}

# The input of the threaded compressors: 16 MB of base64 text.
mk_threads() {
	head -c 12000000 /dev/urandom | base64 > "$work/big.txt"
}

# chromium: a page that builds 2,000 elements and arrays in JavaScript.
mk_chromium() {
	cat > "$work/page.html" <<-'EOF'
	<!DOCTYPE html><html><head><title>trace</title>
	<style>.box { width: 40px; height: 40px; display: inline-block; background: #8ac }</style>
	</head><body><h1>Address-space trace</h1><div id="c"></div><script>
	var c = document.getElementById('c'), a = [];
	for (var i = 0; i < 2000; i++) {
		var d = document.createElement('div');
		d.className = 'box'; d.textContent = i; c.appendChild(d);
		a.push(new Array(100).fill(i));
	}
	document.title = 'done ' + a.length;
	</script></body></html>
	EOF
}

record() {
	local name=$1
	shift
	local t0=$SECONDS
	"$rec" -o "$out/$name.gz" -- "$@" >/dev/null 2>"$work/$name.err" ||
		{ cat "$work/$name.err" >&2; exit 1; }
	echo "record-shipped: $name: $(( SECONDS - t0 )) s," \
	     "$(stat -c %s "$out/$name.gz") bytes"
}

mkdir -p "$out"
for n in "${names[@]}"; do
	case $n in
	gcc)
		need gcc gcc
		mk_gcc
		(cd "$work/cprog" && record gcc gcc -O2 -Wall -o prog main.c util.c list.c hash.c)
		;;
	python)
		need python3 python3
		mk_python
		(cd "$work" && record python /usr/bin/python3 prog.py)
		;;
	git)
		need git git
		git clone -q "$root" "$work/repo"
		(cd "$work/repo" && record git sh -c \
			'git log --stat -n 50 >/dev/null; git status --short; git checkout -q HEAD~10 && git checkout -q -')
		;;
	shell)
		(cd "$work" && record shell sh -c \
			'for i in $(seq 1 40); do echo "line $i" | sed s/1/x/ | tr a-z A-Z | cut -c1-4 >/dev/null; done; ls /usr/bin | sort | uniq -c | wc -l')
		;;
	threads)
		need xz xz-utils
		mk_threads
		(cd "$work" && record threads sh -c \
			'xz -T2 -1 -c big.txt >/dev/null; sort --parallel=2 -S 64M big.txt | tail -c 10 >/dev/null')
		;;
	chromium)
		need chromium chromium
		mk_chromium
		(cd "$work" && record chromium chromium --headless --no-sandbox \
			--disable-gpu --dump-dom "file://$work/page.html")
		;;
	*)
		echo "record-shipped: no trace called $n" >&2
		exit 2
		;;
	esac
done
