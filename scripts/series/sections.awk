# SPDX-License-Identifier: GPL-2.0
#
# make series: print the lib/maple_tree.c of one step of the series.
#
#   awk -v upto=N -f scripts/series/sections.awk scripts/series/steps \
#	lib/maple_tree.c
#
# N is the step's number: the steps in the order of their first line in
# scripts/series/steps, from 1.
#
# lib/maple_tree.c is cut at its section banners: a line that starts
# "/* ----" followed by " * <Section name>".  What comes before the first
# banner (the file's opening comment and includes) is in every step; each
# section is in the step that scripts/series/steps gives it and in every
# later one, in the file's order.  So the last step prints the file byte
# for byte, and no step holds a line that is not ours.
#
# Fails (exit 1, message on stderr) when a section of the file is in no
# step, when steps names a banner the file does not have, or names one
# twice: a renamed or new section cannot silently fall out of the series.

function die(msg) {
	print "sections.awk: " msg > "/dev/stderr"
	failed = 1
	exit 1
}

FNR == NR {
	if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/)
		next
	n = index($0, "\t")
	if (n == 0)
		die("steps line " FNR " has no tab: " $0)
	step = substr($0, 1, n - 1)
	name = substr($0, n + 1)
	if (!(step in stepno)) {
		stepno[step] = ++nsteps
		stepname[nsteps] = step
	}
	if (name in section_step)
		die("steps names section \"" name "\" twice")
	section_step[name] = stepno[step]
	next
}

# The banner's first line is held back until the next line names it.
held != "" {
	line = $0
	if (line ~ /^ \* /) {
		name = substr(line, 4)
		if (!(name in section_step))
			die("lib/maple_tree.c section \"" name "\" (line " FNR ") is in no step of scripts/series/steps")
		seen[name] = 1
		on = section_step[name] <= upto
		started = 1
	}
	if (on)
		print held
	held = ""
}

/^\/\* -----/ {
	held = $0
	next
}

NR > FNR && (on || !started) { print }

END {
	if (failed)
		exit 1
	for (name in section_step)
		if (!(name in seen))
			die("scripts/series/steps names section \"" name "\", which lib/maple_tree.c does not have")
}
