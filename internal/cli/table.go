package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode"
)

// table prints aligned columns; Han and full-width characters count as two
// cells so Chinese headers line up in a terminal.
type table struct {
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func displayWidth(s string) int {
	w := 0
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Han, r), r >= 0xFF00 && r <= 0xFFEF, r >= 0x3000 && r <= 0x303F:
			w += 2
		default:
			w++
		}
	}
	return w
}

func (t *table) write(w io.Writer) {
	var widths []int
	for _, row := range t.rows {
		for i, c := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	for r, row := range t.rows {
		var b strings.Builder
		for i, c := range row {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := widths[i] - displayWidth(c)
			if i == 0 {
				b.WriteString(c + strings.Repeat(" ", pad))
			} else {
				b.WriteString(strings.Repeat(" ", pad) + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		if r == 0 {
			total := 0
			for _, wd := range widths {
				total += wd + 2
			}
			fmt.Fprintln(w, strings.Repeat("─", max(total-2, 1)))
		}
	}
}

// num formats an optional value; undefined prints as n/a.
func num(v *float64, digits int) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.*f", digits, *v)
}
