// Package cube implements CuBE, Customizable Bounds Evaluation (the paper's
// method for government-service RAG assistants; spec/formulas.md §1), as
// pure computation: from items, their retrieved lists and the judges'
// scores it derives ranks, Recall@k, correlation weights, trimmed means per
// answer set, the scores normalised between the zero-context lower bound and
// the gold-document upper bound, the CuBE score per judge and across
// judges, bootstrap intervals, agreement with expert ratings and findings
// (the advice rules that fired, with their evidence; core/explain words them
// as recommendations). Nothing here calls a model or touches a file.
//
// Our readings, where the paper or the spec leave a choice (also returned,
// in English and Chinese, by Result.MethodNotes and shown in the report's
// Method sheet):
//
//   - The analysis subset is chosen per judge and dimension: the items of the
//     base subset (rank > 0 by default; every item with subset "all") that
//     have an ok score for all three sets rag, zero and full from that judge
//     on that dimension. The three trimmed means of a cell are thus taken
//     over the same item ids, which is what makes rag comparable with its
//     bounds; an unscorable reply drops that item from that one cell only,
//     not from the judge's other dimensions.
//   - Only the first TopN retrieved ids count; the gold document further
//     down the list is "not retrieved" (Recall@k with k = TopN). Duplicate
//     ids count at their first position. "Holds d_i and nothing else" means
//     every listed id is d_i.
//   - Items whose gold document is unknown are left out of Recall@k and of
//     the correlations (their rank is undefined) and are counted.
//   - The item score of a cell is the mean of its ok repeats; an item with no
//     ok repeat is missing from that cell, never 0.
//   - W_J(set) is undefined when a dimension with positive weight has no
//     trimmed mean; a negative denominator counts as bounds collapse (the
//     spec's "≤ 1e-9").
//   - The bootstrap resamples all items (so Recall@k and the subset vary
//     with the resample) and holds the weights at their full-sample values;
//     all judges share the same resamples, so the interval of their mean is
//     taken from the same replicates.
//   - Human agreement is measured on the rag answers, on the 0–100 scale
//     (score × 10), against the per-item mean of the raters; Krippendorff's
//     α pools judges and raters over the units item × dimension that carry
//     at least one expert rating.
//   - Per-item disagreement is the sample SD across judges of the item's
//     rag score, per dimension and of the judge's mean over all dimensions.
package cube
