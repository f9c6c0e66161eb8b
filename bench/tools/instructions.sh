#!/usr/bin/env bash
# instructions.sh [-C DIR] [-synthetic] BENCH N: the instructions one
# iteration of a benchmark executes, counted by valgrind's callgrind
# (apt-get install valgrind): the count of N+1 iterations minus that of 1,
# divided by N, so that the test binary's start-up cancels out. GC and
# asynchronous preemption are off, so the count is the same from run to
# run (to a few instructions) however loaded the machine is: on a shared
# machine it is the figure to compare before and after a change, beside
# ns/op.
#
# With -synthetic, the benchmark is one of the synthetic families'
# (internal/synthetic): it runs in their module, written first by the
# bench module in DIR (go run ./tools/synthetic write).
#
# With -own, the count leaves out the Go runtime's own code (packages
# runtime and internal/runtime: the scheduler, preemption, the
# allocator): under valgrind a benchmark runs slowly enough for sysmon
# to preempt it now and then, and the work that takes varies from run to
# run by up to 10 % of a short benchmark's count. With it, the counts
# of the same binary agree within 0.1 %. Compare -own counts
# with -own counts only (a benchmark that allocates has its allocations
# left out).
#
#   cd bench && tools/instructions.sh 'BenchmarkPlan/soldier$' 8000
#   tools/instructions.sh -C /tmp/old/bench 'BenchmarkPlan/soldier$' 8000
#   tools/instructions.sh -synthetic 'BenchmarkPlan/blocksworld8$' 300
#   tools/instructions.sh -own 'BenchmarkPlanLength/backward/3$' 3000
set -euo pipefail
dir=. own=
if [[ ${1:-} == -C ]]; then dir=$2; shift 2; fi
if [[ ${1:-} == -own ]]; then own=1; shift; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [[ ${1:-} == -synthetic ]]; then
  (cd "$dir" && go run ./tools/synthetic write "$tmp/synthetic")
  dir=$tmp/synthetic
  shift
fi
bench=$1 n=${2:-1000}
(cd "$dir" && CGO_ENABLED=0 go test -c -o "$tmp/b.test" .)
count() {
  (cd "$dir" && GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
    --callgrind-out-file="$tmp/out" "$tmp/b.test" -test.run '^$' -test.bench "$bench" \
    -test.benchtime "${1}x" -test.cpu 1 >/dev/null 2>"$tmp/err")
  if [[ -z $own ]]; then
    awk '/^(summary|totals):/ {print $2; exit}' "$tmp/out"
    return
  fi
  callgrind_annotate --auto=no --threshold=100 "$tmp/out" | awk -v src="$(go env GOROOT)/src/" '
    /file:function/ { body = 1; next }
    body && /^ *[0-9,]+ / {
      n = $1; gsub(",", "", n)
      if (!index($0, src "runtime/") && !index($0, src "internal/runtime/")) sum += n
    }
    END { printf "%d\n", sum }'
}
one=$(count 1)
many=$(count $((n + 1)))
echo "$bench: $(((many - one) / n)) instructions/op"
