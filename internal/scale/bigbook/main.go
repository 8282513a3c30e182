// Command bigbook writes a generated workbook for the scale measurements
// (issue 27): by default 100,000 questions over 2,000 guides with no scores
// sheets, so `cubectl evaluate` judges it with the profile's judges:
//
//	go run ./internal/scale/bigbook -out /tmp/BIG.xlsx
//
// The file is large (tens of MB): write it outside the repository.
package main

import (
	"flag"
	"fmt"
	"os"

	"cubeworkbench/internal/scale"
)

func main() {
	out := flag.String("out", "/tmp/BIG.xlsx", "path of the workbook to write")
	items := flag.Int("items", 100000, "questions")
	guides := flag.Int("guides", 2000, "guides (0: half the questions)")
	scores := flag.Bool("scores", false, "add the two imported judges' scores sheets (24 rows a question)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	sh, err := scale.WriteBook(*out, scale.Book{Items: *items, Guides: *guides, Seed: *seed, Scores: *scores})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d questions, %d guides, %d judgements, %d retrieved\n", *out, sh.Items, sh.Guides, sh.Scores, sh.Hits)
}
