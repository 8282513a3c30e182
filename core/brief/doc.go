// Package brief renders the one-page leadership brief: an A4 PDF a director
// reads in two minutes and forwards by mail (issue 15). It takes a Content
// the caller fills from a run's summary, so it depends on none of the
// engine's types; it draws with codeberg.org/go-pdf/fpdf and embeds a subset
// of the product's CJK face (assets/fonts), so the page renders anywhere.
//
// The page never spills: every block has a line budget, text is measured
// with the embedded face and cut with "…" where it would not fit, the list of
// judges is capped, and charts are scaled whole into the space that is left.
// Layout returns the measured blocks, so tests assert the structure without
// comparing PDF bytes.
package brief
