// Command benchfmt turns `go test -bench` output into one Markdown table:
// package, benchmark, time per op, and every metric the benchmark reported
// (rows/s, judgements/s, ratio-to-ideal, peak-heap-MB, …), for the README's
// Performance section.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	pkg := ""
	fmt.Println("| package | benchmark | time/op | metrics |")
	fmt.Println("|---|---|---|---|")
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimPrefix(rest, "cubeworkbench/")
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 {
			continue
		}
		name := strings.TrimPrefix(fields[0], "Benchmark")
		var timePerOp string
		var metrics []string
		for i := 2; i+1 < len(fields); i += 2 {
			v, unit := fields[i], fields[i+1]
			switch unit {
			case "ns/op":
				timePerOp = human(v)
			case "B/op", "allocs/op":
				continue
			default:
				metrics = append(metrics, v+" "+unit)
			}
		}
		fmt.Printf("| %s | %s | %s | %s |\n", pkg, name, timePerOp, strings.Join(metrics, ", "))
	}
}

// human prints nanoseconds as ns, µs, ms or s.
func human(ns string) string {
	v, err := strconv.ParseFloat(ns, 64)
	if err != nil {
		return ns
	}
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.2f s", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.1f ms", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1f µs", v/1e3)
	}
	return fmt.Sprintf("%.0f ns", v)
}
