#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench-chart.sh FILE-mm.json [OUT.png]
#
# A PNG chart of one vma_bench run (the -mm.json file make bench writes).
# Above: for each metric, how many times faster mm/ is on our maple tree
# than on each baseline measured in the same run, the rbtree design and
# Linux 6.1's and 6.12's own trees (when the run had them; a baseline
# the run lacks is drawn as nothing); above 1 ours is faster.  The
# factor comes from the run's %change (of the two medians the tables
# print): 1 + change for operations per second, 1 / (1 + change) for
# ns and instructions per operation.  Below: thread-mode scaling, for
# each backend the operations per second of each of nproc threads sharing
# one mm over those of one task alone (1 would be perfect scaling; on a
# 2-core machine shared with others, less is expected), and over each bar
# a black line, the Amdahl ceiling of mmap_lock's critical section on the
# same scale: cs_amdahl_ops (1 s over the ns per op held for write, in
# thread mode) over the threads, over one task's ops/s.  A bar that
# reaches its line is bound by the lock.  OUT defaults to FILE with .png.
#
# Needs gnuplot (Debian's gnuplot-nox: make deps-chart); without it,
# says so and exits 0.
set -euo pipefail

json=${1:?usage: bench-chart.sh FILE-mm.json [OUT.png]}
out=${2:-${json%.json}.png}

if ! command -v gnuplot >/dev/null; then
	echo "bench-chart: no gnuplot, so no chart (make deps-chart installs gnuplot-nox)"
	exit 0
fi

dat=$(mktemp)
scale=$(mktemp)
trap 'rm -f "$dat" "$scale"' EXIT

# change_pct holds one object per baseline, one "metric": value a line.
awk '
	/"change_pct": \{/ { sect = 1; next }
	sect && /^  \}/ { sect = 0 }
	sect && /^    "[a-z0-9_.-]+": \{/ {
		b = $1; gsub(/[":]/, "", b); next
	}
	sect && /^      "/ {
		name = $1; gsub(/[":]/, "", name)
		v = $2; sub(/,$/, "", v)
		r = 1 + v / 100
		if (name !~ /_ops$/)
			r = r > 0 ? 1 / r : 0
		if (!(name in seen)) {
			seen[name] = 1
			order[n++] = name
		}
		val[name, b] = r
	}
	END {
		for (i = 0; i < n; i++) {
			name = order[i]
			short = name
			sub(/^will-it-scale\./, "", short)
			sub(/^unixbench\./, "", short)
			sub(/\.per_(process|thread)_ops$/, "", short)
			sub(/\.ns_per_op$/, "", short)
			sub(/\.process\.1$/, "", short)
			rb = ((name, "rbtree") in val) ? val[name, "rbtree"] : "?"
			up = ((name, "upstream") in val) ? val[name, "upstream"] : "?"
			u12 = ((name, "upstream-6.12") in val) ? val[name, "upstream-6.12"] : "?"
			printf "%s %s %s %s\n", short, rb, up, u12
		}
	}' "$json" > "$dat"

if [ ! -s "$dat" ]; then
	echo "bench-chart: no change_pct in $json"
	exit 1
fi

# The medians, for thread-mode scaling: thread.N per thread / process.1,
# then the ceilings, cs_amdahl_ops / N / process.1 (from cs_metrics);
# ymax, the panel's top, on the last line.
awk '
	/"metrics": \{/ { sect = 1; next }
	/"cs_metrics": \{/ { sect = 2; next }
	sect && /^  \}/ { sect = 0 }
	sect && /^    "[a-z0-9_.-]+": \{/ {
		b = $1; gsub(/[":]/, "", b); next
	}
	sect && /^      "/ {
		name = $1; gsub(/[":]/, "", name)
		v = $2; sub(/,$/, "", v)
		val[name, b] = v
		if (sect == 2)
			next
		if (name ~ /\.thread\.[0-9]+\.per_thread_ops$/) {
			w = name
			sub(/\.thread\.[0-9]+\.per_thread_ops$/, "", w)
			tname[w] = name
			if (!(w in seen)) {
				seen[w] = 1
				order[n++] = w
			}
		}
	}
	END {
		ymax = 1.2
		for (i = 0; i < n; i++) {
			w = order[i]
			short = w
			sub(/^will-it-scale\./, "", short)
			split("maple rbtree upstream upstream-6.12", bs, " ")
			row = short
			any = 0
			for (j = 1; j <= 4; j++) {
				t = val[tname[w], bs[j]]
				p = val[w ".process.1.per_process_ops", bs[j]]
				if (t != "" && p > 0) {
					row = row " " t / p
					any = 1
				} else {
					row = row " ?"
				}
			}
			base = tname[w]
			sub(/\.per_thread_ops$/, "", base)
			nt = base
			sub(/^.*\.thread\./, "", nt)
			for (j = 1; j <= 4; j++) {
				c = val[base ".cs_amdahl_ops", bs[j]]
				p = val[w ".process.1.per_process_ops", bs[j]]
				if (c != "" && c > 0 && p > 0 && nt > 0) {
					row = row " " c / nt / p
					if (c / nt / p * 1.1 > ymax)
						ymax = c / nt / p * 1.1
				} else {
					row = row " ?"
				}
			}
			if (any)
				print row
		}
		printf "ymax %s\n", (ymax > 4 ? 4 : ymax)
	}' "$json" > "$scale"
ymax=$(awk '$1 == "ymax" { print $2 }' "$scale")
sed -i '/^ymax /d' "$scale"

title=$(basename "$json" .json)
# One bar per baseline the run had (a column of "?" only is left out).
has() { awk -v c="$2" '$c != "?" { f = 1 } END { exit !f }' "$1"; }
ratios="\"$dat\" using 2:xtic(1) title \"against the rbtree design\" lc rgb \"#4477aa\""
has "$dat" 3 && ratios="$ratios, \"\" using 3 title \"against Linux 6.1's maple tree\" lc rgb \"#ee6677\""
has "$dat" 4 && ratios="$ratios, \"\" using 4 title \"against Linux 6.12's maple tree\" lc rgb \"#ccbb44\""
scaling="\"$scale\" using 2:xtic(1) title \"maple (ours)\" lc rgb \"#228833\", \"\" using 3 title \"rbtree\" lc rgb \"#4477aa\""
cols="2 3"
if [ -s "$scale" ]; then
	has "$scale" 4 && scaling="$scaling, \"\" using 4 title \"Linux 6.1\" lc rgb \"#ee6677\"" && cols="$cols 4"
	has "$scale" 5 && scaling="$scaling, \"\" using 5 title \"Linux 6.12\" lc rgb \"#ccbb44\"" && cols="$cols 5"
fi
# Each ceiling a line over its bar: bar j of K (gap 1) sits at
# cluster + (j - (K - 1) / 2) / (K + 1), 0.9 / (K + 1) wide; its ceiling
# is column c + 4.
k=$(echo $cols | wc -w)
j=0
ctitle="title \"Amdahl ceiling of the mmap_lock critical section\""
for c in $cols; do
	if has "$scale" $((c + 4)); then
		scaling="$scaling, \"\" using (\$0 + ($j - ($k - 1) / 2.0) / ($k + 1) - 0.45 / ($k + 1)):$((c + 4)):(0.9 / ($k + 1)):(0) with vectors nohead lw 3 lc rgb \"black\" $ctitle"
		ctitle=notitle
	fi
	j=$((j + 1))
done
# The scaling panel needs both modes of a workload in the run.
rows=1 bottom=0.25
[ -s "$scale" ] && rows=2 bottom=0.08
gnuplot <<GP
set terminal png size 1600,$((rows * 600)) font ",10"
set termoption noenhanced
set output "$out"
set datafile missing "?"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set grid ytics
set key top left
set multiplot layout $rows,1 margins 0.06,0.98,$bottom,0.93 spacing 0,0.17
set title "mm/ on our maple tree: times faster than each baseline, same run ($title)"
set logscale y 2
set yrange [0.0625:16]
set ytics ("1/16" 0.0625, "1/8" 0.125, "1/4" 0.25, "1/2" 0.5, "1" 1, "2" 2, "4" 4, "8" 8, "16" 16)
set xtics rotate by -50 scale 0 font ",9"
set ylabel "times faster (above 1: ours)"
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lw 2 lc rgb "black"
plot $ratios
if ($rows > 1) {
unset arrow 1
unset logscale y
set title "thread mode: ops/s of each of nproc threads sharing one mm, over 1 task alone; black: 1 s / critical section, the same way"
set yrange [0:$ymax]
set ytics auto
set xtics rotate by 0 font ",10"
set ylabel "per-thread ops/s, nproc threads / 1 task"
plot $scaling
}
unset multiplot
GP
echo "bench-chart: wrote $out"
