package explain

import (
	"fmt"
	"math"
	"strings"
)

// pct renders a fraction as a percentage with at most one decimal: 20 %, 16.7 %.
func pct(f float64) string {
	return trimZero(fmt.Sprintf("%.1f", 100*f)) + " %"
}

// points renders a 0–100 value with at most one decimal.
func points(v float64) string {
	return trimZero(fmt.Sprintf("%.1f", v))
}

func trimZero(s string) string {
	s = strings.TrimSuffix(s, ".0")
	if s == "-0" {
		return "0"
	}
	return s
}

func two(v float64) string { return fmt.Sprintf("%.2f", v) }

func ptr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// listZH and listEN quote up to n ids.
func listZH(ids []string) string { return strings.Join(ids, "、") }
func listEN(ids []string) string { return strings.Join(ids, ", ") }
