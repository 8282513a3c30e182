package cli

import (
	"fmt"
	"io"

	"cubeworkbench/core/result"
	"cubeworkbench/core/text"
)

// printSpotCheck prints the spot check's line, which judge to trust and
// its notes, as the Summary page and the window say them.
func printSpotCheck(w io.Writer, s *result.Summary, lang text.Lang) {
	sc := s.SpotCheck
	if sc == nil || sc.Ratings == 0 {
		return
	}
	fmt.Fprintln(w, sc.SummaryLine().In(lang))
	fmt.Fprintln(w, sc.TrustText.In(lang))
	for _, n := range sc.Notes {
		fmt.Fprintln(w, "  ! "+n.In(lang))
	}
	fmt.Fprintln(w)
}
